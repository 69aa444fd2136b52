// The qualifying request (API spec 2.1, contract section 2), validated.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "lq/decimal.hpp"
#include "lq/time/instant.hpp"
#include "lq/venue.hpp"

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

/// A top-level member outside the request schema that a face reads along with the request (the
/// service's basket `id`, `state`, `rewards`). Read leniently, so that only the request's own
/// fields and the JSON syntax decide whether a body is valid; the face checks it afterwards.
struct extra_member {
  enum class shape : uint8_t { null, string, array, other };
  shape kind = shape::null;
  std::string text;                                  // shape::string
  std::vector<std::optional<std::string>> elements;  // shape::array; nullopt: not a string
};

struct basket_request {
  venue redemption_venue = venue::online;
  std::optional<instant> order_timestamp;
  std::optional<std::string> location_uid;
  std::optional<std::string> handoff;
  std::optional<decimal> subtotal;
  std::vector<basket_item> items;
  /// The members named in parse_request's `extra_keys` that the body has (the last one wins).
  std::map<std::string, extra_member, std::less<>> extras;
};

}  // namespace lq
