// The qualifying request (API spec 2.1, contract section 2), validated.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "decimal.hpp"
#include "instant.hpp"
#include "offer.hpp"
#include "result.hpp"

namespace lq {

struct basket_modifier {
  std::string id;
  std::optional<decimal> price;  // absent = unknown = 0
};

struct basket_item {
  std::string id;
  std::optional<decimal> price;  // of ONE unit; absent = unknown = 0
  std::vector<std::string> categories;
  std::vector<basket_modifier> modifiers;  // belong to each unit
  int64_t quantity = 1;
  decimal full_price;  // price + the modifiers' prices, set by parse_request
};

struct basket_request {
  venue redemption_venue = venue::online;
  std::optional<instant> order_timestamp;
  std::optional<std::string> location_uid;
  std::optional<std::string> handoff;
  std::optional<decimal> subtotal;
  std::vector<basket_item> items;
};

/// Parses and validates a request body; errors (code 400) name the field path, e.g.
/// `items[2].price`.
result<basket_request> parse_request(std::string_view json);

}  // namespace lq
