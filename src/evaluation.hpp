// Evaluating offers against one basket: the rules of contract 3.1-3.3, shared by qualify and
// explain.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "civil_time.hpp"
#include "decimal.hpp"
#include "qualify.hpp"
#include "request.hpp"
#include "result.hpp"
#include "snapshot.hpp"

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

/// The request resolved against a snapshot, once per call.
struct basket_context {
  instant order_time;
  civil_time local;  // order time in the local time of the location or merchant
  location_match location_state = location_match::omitted;
  const location* place = nullptr;
  std::optional<std::string> handoff;    // ASCII-lowercased
  bool empty = false;                    // no items and no subtotal
  decimal base;                          // subtotal, else every unit's full price
  match_summary everything;              // every unit and modifier
  std::vector<match_summary> per_offer;  // by global offer number; filled for restricted offers
};

/// Resolves a request (validated by parse_request, so every sum stays in range).
void build_context(const snapshot& snap, const basket_request& request, instant now,
                   basket_context& context);

/// Rules 1-8 and affordability; appends each failure to `reasons` when given, else stops at the
/// first.
bool passes_rules(const offer& item, const basket_request& request, const basket_context& context,
                  std::vector<reason>* reasons);

struct discount_outcome {
  int64_t cents = 0;
  std::optional<reason_code> zero_reason;  // why rule 9 fails, when cents == 0
};

/// Contract 3.3: the discount of `item` (global number `global`) on the basket, rounded to cents.
discount_outcome discount_of(const offer& item, uint32_t global, const basket_request& request,
                             const basket_context& context);

}  // namespace lq
