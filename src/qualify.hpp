// The qualifying set (API spec 2.2) and its explanation (contract section 4).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "instant.hpp"
#include "request.hpp"
#include "snapshot.hpp"

namespace lq {

/// Indices into snapshot.rewards / snapshot.points_products, in output order.
struct qualify_result {
  std::vector<uint32_t> rewards;
  std::vector<uint32_t> points_products;
};

enum class reason_code : uint8_t {
  not_redeemable,
  not_owned,
  other_merchant,
  expired,
  not_started,
  venue_mismatch,
  location_required,
  location_mismatch,
  outside_time_window,
  handoff_required,
  handoff_mismatch,
  subtotal_required,
  below_minimum,
  no_matching_item,
  item_price_missing,
  zero_discount,
  insufficient_points,
  empty_basket,
  unsupported_type,
  discount_unknown,
};

/// "NOT_REDEEMABLE" etc.
const char* reason_code_name(reason_code code);

struct reason {
  reason_code code;
  std::optional<int64_t> remaining_cents;  // BELOW_MINIMUM
  std::optional<int64_t> points_needed;    // INSUFFICIENT_POINTS
};

struct explanation {
  offer_kind kind = offer_kind::reward;
  uint32_t index = 0;  // into the snapshot list of its kind
  bool qualifies = false;
  int64_t discount_cents = 0;
  std::vector<reason> reasons;
};

struct explain_result {
  std::vector<explanation> entries;  // rewards in output order, then points products
  std::optional<uint32_t> best;      // index into entries
};

/// The qualifying rewards and points products for a basket at order time (request's, else `now`).
qualify_result qualify(const snapshot& snap, const basket_request& request, instant now);

/// Every offer with its discount and every failing rule.
explain_result explain(const snapshot& snap, const basket_request& request, instant now);

/// `{"rewards":[...],"points_products":[...]}` from the pre-rendered entities.
std::string render_qualify(const snapshot& snap, const qualify_result& result);

/// Every offer's entity, in output order: `{"rewards":[...],"points_products":[...]}`.
std::string render_entities(const snapshot& snap);

/// `{"entries":[...],"best":...}` (contract section 4).
std::string render_explain(const snapshot& snap, const explain_result& result);

}  // namespace lq
