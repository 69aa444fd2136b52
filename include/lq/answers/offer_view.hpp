// A loaded offer as a face reads it: its number, id, output entity and what billing needs.
#pragma once

#include <cstdint>
#include <string_view>

#include "lq/answers/offer_ref.hpp"

namespace lq {

/// Views into the loaded snapshot: valid until the qualifier loads another one.
struct offer_view {
  offer_kind kind = offer_kind::reward;
  uint32_t number = 0;  // rewards first, then points products (qualifier::offer_number)
  std::string_view id;
  std::string_view entity_json;  // the output entity (API spec 2.3 / 2.4), rendered at load
  bool redeemable = true;        // `state` is "redeemable" (or missing)
  int64_t points = 0;            // points products: the cost
  std::string_view points_experience_id;  // points products: where the points come from
};

}  // namespace lq
