#include "domain/baskets/open_baskets.hpp"

#include "front/service_clock.hpp"

namespace lq::service {

namespace {

bool is_open_state(const std::string& state) {
  return state == "checkout" || state == "placed";
}

}  // namespace

void drop_stale_open_baskets(store& db, const std::string& user_id, instant now) {
  const instant cutoff{now.seconds - kOpenBasketLifetimeSeconds, now.nanos};
  db.delete_open_baskets_before(user_id, format_rfc3339_ms(cutoff));
}

std::optional<error> check_basket_body_size(std::string_view body) {
  if (static_cast<int64_t>(body.size()) <= kMaxBasketBytes) return std::nullopt;
  return error{413, "a basket body may take at most 64 KiB (" + std::to_string(kMaxBasketBytes) +
                        " bytes); this one has " + std::to_string(body.size()) + " bytes"};
}

std::optional<error> check_basket_size(store& db, const open_basket_limits& limits,
                                       const basket_row& row,
                                       const std::optional<basket_row>& existing) {
  const int64_t bytes = static_cast<int64_t>(row.body.size());
  if (bytes > kMaxBasketBytes) {
    return error{413, "basket " + row.id + " takes " + std::to_string(bytes) +
                          " bytes as stored, over the 64 KiB a basket may take"};
  }
  if (!is_open_state(row.state)) return std::nullopt;
  const bool counted = existing && is_open_state(existing->state);
  open_basket_usage usage = db.open_baskets_of(row.user_id);
  if (counted) {
    usage.count -= 1;
    usage.bytes -= static_cast<int64_t>(existing->body.size());
  }
  if (usage.count + 1 > limits.max_count) {
    return error{429, "a user may hold at most " + std::to_string(limits.max_count) +
                          " open baskets (checkout or placed); bill or void one first (open "
                          "baskets untouched for 24 hours are dropped)"};
  }
  if (usage.bytes + bytes > kMaxOpenBasketBytes) {
    return error{429, "a user's open baskets may take at most 4 MiB as stored; with basket " +
                          row.id + " (" + std::to_string(bytes) + " bytes) they would take " +
                          std::to_string(usage.bytes + bytes) + "; bill or void one first"};
  }
  return std::nullopt;
}

}  // namespace lq::service
