// What billing a basket needs from one evaluation of it: its order time, base amount, location
// and how the offer it asks for fares (qualifies as the qualifying call decides it).
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "lq/answers/offer_ref.hpp"
#include "lq/decimal.hpp"
#include "lq/qualifier.hpp"
#include "lq/request.hpp"
#include "lq/result.hpp"
#include "lq/time/instant.hpp"

namespace lq::service {

/// How one offer fares on a basket (the first of that kind and id in output order).
struct offer_check {
  bool found = false;
  bool qualifies = false;
  int64_t discount_cents = 0;        // when it qualifies
  int64_t points = 0;                // points products: the cost
  std::string points_experience_id;  // points products: the experience the points come from
};

struct basket_check {
  instant order_time;                      // the request's order_timestamp, else `now`
  decimal base;                            // the subtotal, else every unit's full price
  decimal items_total;                     // every unit's full price (unpriced: 0), summed
  std::optional<std::string> location_id;  // the request's location, if of the snapshot merchant
  offer_check offer;                       // the offer asked for, if any
};

/// Evaluates a request read with parse_request against the engine's snapshot: its base amount,
/// location and, when `wanted` (an lq::offer_ref) is given, how that offer fares
/// (qualifier::offer_outcome). 422 without a snapshot.
result<basket_check> check_basket(const qualifier& engine, const basket_request& request,
                                  instant now, const std::optional<offer_ref>& wanted);

/// A 400 naming `subtotal` when the request declares a subtotal above `check.items_total`, the
/// total of its priced items as the engine sums them (unit price plus modifiers, times quantity;
/// an item or modifier without a price counts 0, so it cannot vouch for a subtotal). The
/// service bills the subtotal, so a basket that cannot show it is refused; a lower subtotal (a
/// discount the till gave) is fine. The engine's qualifying rules are not changed by it.
std::optional<error> check_declared_subtotal(const basket_request& request,
                                             const basket_check& check);

}  // namespace lq::service
