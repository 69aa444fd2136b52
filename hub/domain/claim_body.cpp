#include "hub/domain/claim_body.hpp"

#include <map>

#include "hub/domain/claim_rules.hpp"
#include "lq/json/json_fields.hpp"
#include "lq/json/json_reader.hpp"
#include "lq/time/instant.hpp"

namespace lq::hub {

namespace {

// Integers stay exact in a double (a JS client's number) up to 2^53.
constexpr int64_t kMaxExactInteger = (int64_t{1} << 53);

int64_t ms_of(const instant& t) {
  return t.seconds * 1000 + t.nanos / 1'000'000;
}

// The members of a body: each id, integer or instant as read, by name. Anything else is ignored.
struct members {
  std::map<std::string, std::string> ids;
  std::map<std::string, int64_t> integers;
  std::map<std::string, int64_t> instants;
};

bool is_id(const std::string& name) {
  return name == "merchant_id" || name == "user_id" || name == "basket_id" || name == "kiosk_id" ||
         name == "reward_id" || name == "points_product_id" || name == "points_experience_id";
}

bool is_integer(const std::string& name) {
  return name == "points" || name == "balance" || name == "ttl_ms";
}

bool is_instant(const std::string& name) {
  return name == "balance_as_of" || name == "billed_at";
}

result<members> read_members(std::string_view body) {
  json_reader reader(body);
  field_errors errors(400, "request body");
  if (reader.peek() != json_type::object) {
    if (reader.peek() == json_type::invalid) return errors.syntax(reader);
    return error{400, "request body must be a JSON object"};
  }
  members out;
  reader.begin_object();
  std::string_view key;
  while (reader.next_member(key)) {
    const std::string name(key);
    if (reader.peek() == json_type::null) {
      reader.read_null();  // null: absent
      continue;
    }
    if (is_id(name)) {
      std::string value;
      if (read_string_field(reader, value) != field_status::ok) {
        errors.reject(name + " must be a string");
        return errors.take(reader);
      }
      if (std::optional<error> bad = check_id(name.c_str(), value)) return *bad;
      out.ids[name] = std::move(value);
    } else if (is_integer(name)) {
      int64_t value = 0;
      if (read_integer_field(reader, value, false) != field_status::ok || value < 0 ||
          value > kMaxExactInteger) {
        errors.reject(name + " must be an integer from 0 to 2^53");
        return errors.take(reader);
      }
      out.integers[name] = value;
    } else if (is_instant(name)) {
      std::string_view text;
      std::optional<instant> at;
      if (reader.peek() == json_type::string && reader.read_string_view(text)) {
        at = parse_rfc3339(text);
      }
      if (!at) {
        errors.reject(name + " must be an RFC 3339 instant, e.g. 2026-11-24T13:15:00Z");
        return errors.take(reader);
      }
      out.instants[name] = ms_of(*at);
    } else if (!reader.skip_value()) {
      return errors.take(reader);
    }
  }
  if (reader.failed() || !reader.at_end()) return errors.take(reader);
  return out;
}

std::optional<error> require_ids(const members& m, std::initializer_list<const char*> names) {
  for (const char* name : names) {
    if (m.ids.count(name) == 0) return error{400, std::string(name) + " is required"};
  }
  return std::nullopt;
}

}  // namespace

std::optional<error> check_id(const char* name, std::string_view value) {
  bool control = false;
  for (unsigned char c : value) control = control || c < 0x20 || c == 0x7f;
  if (value.empty() || value.size() > kMaxIdBytes || control) {
    return error{400, std::string(name) + " must be a non-empty string of at most " +
                          std::to_string(kMaxIdBytes) + " bytes without control characters"};
  }
  return std::nullopt;
}

result<claim_request> read_claim_body(std::string_view body) {
  result<members> read = read_members(body);
  if (!read) return read.err();
  members& m = *read;
  if (auto missing = require_ids(m, {"merchant_id", "user_id", "basket_id", "kiosk_id"})) {
    return *missing;
  }
  claim_request request;
  request.basket = {m.ids["merchant_id"], m.ids["user_id"], m.ids["basket_id"]};
  request.kiosk_id = m.ids["kiosk_id"];
  const bool reward = m.ids.count("reward_id") > 0;
  const bool points = m.ids.count("points_product_id") > 0;
  if (reward == points) {
    return error{400, reward
                          ? "reward_id and points_product_id: give one, a basket claims one offer"
                          : "reward_id or points_product_id is required"};
  }
  const bool points_fields = m.ids.count("points_experience_id") > 0 ||
                             m.integers.count("points") > 0 || m.integers.count("balance") > 0 ||
                             m.instants.count("balance_as_of") > 0;
  if (reward) {
    if (points_fields) {
      return error{400,
                   "points, points_experience_id, balance and balance_as_of belong to a points "
                   "product's claim (points_product_id), not to a reward's"};
    }
    request.offer.reward_id = m.ids["reward_id"];
  } else {
    request.offer.points_product_id = m.ids["points_product_id"];
    if (auto missing = require_ids(m, {"points_experience_id"})) return *missing;
    for (const char* name : {"points", "balance"}) {
      if (m.integers.count(name) == 0) {
        return error{400, std::string(name) + " is required with points_product_id"};
      }
    }
    if (m.instants.count("balance_as_of") == 0) {
      return error{400, "balance_as_of is required with points_product_id"};
    }
    if (m.integers["points"] < 1) return error{400, "points must be an integer from 1 to 2^53"};
    request.offer.points = m.integers["points"];
    request.offer.points_experience_id = m.ids["points_experience_id"];
    request.balance = balance_report{m.integers["balance"], m.instants["balance_as_of"]};
  }
  if (m.integers.count("ttl_ms") > 0) {
    const int64_t ttl = m.integers["ttl_ms"];
    if (ttl < 1 || ttl > kMaxClaimTtlMs) {
      return error{400, "ttl_ms must be an integer from 1 to " + std::to_string(kMaxClaimTtlMs) +
                            " (366 days)"};
    }
    request.ttl_ms = ttl;
  }
  return request;
}

result<settle_body> read_settle_body(std::string_view body, bool billing) {
  result<members> read = read_members(body);
  if (!read) return read.err();
  members& m = *read;
  if (auto missing = require_ids(m, {"merchant_id", "user_id", "basket_id"})) return *missing;
  settle_body out;
  out.basket = {m.ids["merchant_id"], m.ids["user_id"], m.ids["basket_id"]};
  if (m.instants.count("billed_at") > 0) {
    if (!billing) return error{400, "billed_at belongs to a spend, not to a release"};
    out.billed_at_ms = m.instants["billed_at"];
  }
  return out;
}

}  // namespace lq::hub
