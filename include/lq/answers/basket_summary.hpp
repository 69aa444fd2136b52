// A basket resolved against the loaded snapshot: what a face bills it by.
#pragma once

#include <optional>
#include <string>

#include "lq/decimal.hpp"
#include "lq/time/instant.hpp"

namespace lq {

struct basket_summary {
  instant order_time;                      // the request's order_timestamp, else `now`
  decimal base;                            // the subtotal, else every unit's full price
  decimal items_total;                     // every unit's full price (unpriced: 0), summed
  std::optional<std::string> location_id;  // the request's location, if of the snapshot merchant
};

}  // namespace lq
