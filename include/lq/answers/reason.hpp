// Why an offer does not qualify (contract section 4): the reason codes explain reports, their
// names and message templates. A new code goes here, with its name and message in render.cpp.
#pragma once

#include <cstdint>
#include <optional>

namespace lq {

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
  discount_unknown,   // the record is marked discount_unknown: the service decides
  pending_order,      // the reward is held by an order of this device not confirmed yet
  claimed_elsewhere,  // the reward is held by another kiosk's order (the store hub's claim)
};

/// The last reason code, for tables over every code.
constexpr reason_code kLastReasonCode = reason_code::claimed_elsewhere;

struct reason {
  reason_code code;
  std::optional<int64_t> remaining_cents;  // BELOW_MINIMUM
  std::optional<int64_t> points_needed;    // INSUFFICIENT_POINTS
};

/// "NOT_REDEEMABLE" etc.
const char* reason_code_name(reason_code code);

/// The message of a reason as a template: its figure, if any, is written as "{remaining}" (cents
/// as format_cents writes them) or "{points_needed}" (an integer). Explain fills it in.
const char* reason_message_template(reason_code code);

}  // namespace lq
