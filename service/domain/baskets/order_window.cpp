#include "domain/baskets/order_window.hpp"

#include "front/command_line_numbers.hpp"
#include "lq/time/instant.hpp"

namespace lq::service {

namespace {

int64_t to_ms(instant t) {
  return t.seconds * 1000 + t.nanos / 1'000'000;
}

}  // namespace

std::optional<error> check_order_time(const order_window& window, instant order_time, instant now) {
  // Instants the engine reads lie within years 0000-9999, so milliseconds fit in int64.
  const int64_t order_ms = to_ms(order_time);
  const int64_t now_ms = to_ms(now);
  const std::string shown = format_rfc3339_ms(order_time);
  const std::string clock = format_rfc3339_ms(now);
  if (order_ms < now_ms - window.max_age_ms) {
    return error{400, "order_timestamp " + shown + " is more than " +
                          front::describe_duration(window.max_age_ms) +
                          " before the service's clock (" + clock +
                          "); a billed order must be at most that old"};
  }
  if (order_ms > now_ms + window.max_lead_ms) {
    return error{400, "order_timestamp " + shown + " is more than " +
                          front::describe_duration(window.max_lead_ms) +
                          " after the service's clock (" + clock + ")"};
  }
  return std::nullopt;
}

}  // namespace lq::service
