// The request resolved against a snapshot, once per call: order time, local time, location,
// handoff and what the basket's units add up to, in total and per restricted offer.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "lq/decimal.hpp"
#include "lq/request.hpp"
#include "lq/time/civil_time.hpp"
#include "lq/time/instant.hpp"
#include "model/snapshot.hpp"

namespace lq {

/// What a set of matching units (and modifiers) of the basket adds up to.
struct match_summary {
  decimal sum_full;                 // sum of the units' full prices
  decimal top_unit;                 // highest unit price
  decimal second_unit;              // second-highest unit price (units >= 2)
  decimal max_full;                 // highest full price
  decimal max_modifier;             // highest modifier price (has_modifier)
  int64_t units = 0;                // how many units
  uint32_t last_line = UINT32_MAX;  // the basket line last added (a line matches an offer once)
  bool price_missing = false;       // a unit without a price
  bool has_modifier = false;
  bool modifier_price_missing = false;
};

enum class location_match : uint8_t { omitted, resolved, unknown };

struct basket_context {
  instant order_time;
  civil_time local;  // order time in the local time of the location or merchant
  location_match location_state = location_match::omitted;
  const location* place = nullptr;       // set only for a location of the snapshot's merchant
  std::optional<std::string> handoff;    // ASCII-lowercased
  bool empty = false;                    // no items and no subtotal
  decimal base;                          // subtotal, else every unit's full price
  match_summary everything;              // every unit and modifier
  std::vector<match_summary> per_offer;  // by global offer number; filled for restricted offers
};

/// Resolves a request (validated by parse_request, so every sum stays in range) into the
/// context of this thread, which the next call on the thread reuses: once warm, nothing is
/// allocated (single-threaded faces; the service gives each thread its own).
const basket_context& resolve_basket(const snapshot& snap, const basket_request& request,
                                     instant now);

}  // namespace lq
