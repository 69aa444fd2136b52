#include "rules/eligibility.hpp"

#include <algorithm>

namespace lq {

namespace {

bool in_window(const time_window& window, const civil_time& local) {
  const int minute = local.hour * 60 + local.minute;
  const bool today = (window.days >> local.weekday & 1) != 0;
  if (window.start_minute < window.end_minute) {
    return today && minute >= window.start_minute && minute < window.end_minute;
  }
  // Crosses midnight: the part after midnight belongs to the previous day's window.
  const bool yesterday = (window.days >> ((local.weekday + 6) % 7) & 1) != 0;
  return (today && minute >= window.start_minute) || (yesterday && minute < window.end_minute);
}

}  // namespace

bool passes_rules(const offer& item, const basket_request& request, const basket_context& context,
                  std::vector<reason>* reasons) {
  bool passed = true;
  // Records a failure; tells the caller whether to keep checking.
  auto fail = [&](reason why) {
    passed = false;
    if (reasons) reasons->push_back(why);
    return reasons != nullptr;
  };
  if (item.kind == offer_kind::reward) {
    if (!item.redeemable && !fail({reason_code::not_redeemable, {}, {}})) return false;
    if (!item.owned && !fail({reason_code::not_owned, {}, {}})) return false;
    if (!item.same_merchant && !fail({reason_code::other_merchant, {}, {}})) return false;
    if (item.retire_at && *item.retire_at <= context.order_time &&
        !fail({reason_code::expired, {}, {}})) {
      return false;
    }
    if (item.starts_at && *item.starts_at > context.order_time &&
        !fail({reason_code::not_started, {}, {}})) {
      return false;
    }
    if (item.hold != offer::held::no &&
        !fail({item.hold == offer::held::pending_order ? reason_code::pending_order
                                                       : reason_code::claimed_elsewhere,
               {},
               {}})) {
      return false;
    }
  }
  if (item.redemption_venue != venue::all && item.redemption_venue != request.redemption_venue &&
      !fail({reason_code::venue_mismatch, {}, {}})) {
    return false;
  }
  if (!item.restriction_location_ids.empty()) {
    const auto& ids = item.restriction_location_ids;
    const bool matched =
        context.place && std::find(ids.begin(), ids.end(), context.place->id) != ids.end();
    if (!matched &&
        !fail({context.location_state == location_match::omitted ? reason_code::location_required
                                                                 : reason_code::location_mismatch,
               {},
               {}})) {
      return false;
    }
  }
  if (!item.time_restrictions.empty() &&
      std::none_of(item.time_restrictions.begin(), item.time_restrictions.end(),
                   [&](const time_window& w) { return in_window(w, context.local); }) &&
      !fail({reason_code::outside_time_window, {}, {}})) {
    return false;
  }
  if (item.handoff) {
    if (!context.handoff) {
      if (!fail({reason_code::handoff_required, {}, {}})) return false;
    } else if (*item.handoff != *context.handoff &&  // both ASCII-lowercased
               !fail({reason_code::handoff_mismatch, {}, {}})) {
      return false;
    }
  }
  if (item.minimum) {
    if (!request.subtotal) {
      if (!fail({reason_code::subtotal_required, {}, {}})) return false;
    } else if (*request.subtotal < *item.minimum &&
               !fail({reason_code::below_minimum,
                      (*item.minimum - *request.subtotal).round_up_cents(),
                      {}})) {
      return false;
    }
  }
  if (item.kind == offer_kind::points_product && item.balance < item.points &&
      !fail({reason_code::insufficient_points, {}, item.points - item.balance})) {
    return false;
  }
  return passed;
}

}  // namespace lq
