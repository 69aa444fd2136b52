#include "rules/discount.hpp"

namespace lq {

discount_outcome discount_of(const offer& item, uint32_t global, const basket_request& request,
                             const basket_context& context) {
  const bool restricted = item.restricted();
  const match_summary& s = restricted ? context.per_offer[global] : context.everything;
  // Caps an item-type discount at `value` when value > 0.
  auto capped = [&](decimal d) { return item.value.is_zero() ? d : min(d, item.value); };

  decimal raw;
  bool matched = true;
  bool uses_unit_prices = true;
  switch (item.rule) {
    case discount_rule::amount:
      if (restricted) {
        matched = s.units > 0;
        raw = min(item.value, s.sum_full);
      } else {
        raw = min(item.value, context.base);
        uses_unit_prices = !request.subtotal;
      }
      break;
    case discount_rule::percent: {
      const decimal basis = restricted ? s.sum_full : context.base;
      matched = !restricted || s.units > 0;
      uses_unit_prices = restricted || !request.subtotal;
      // An overflowing product is far above any base, so the base cap decides.
      const auto product = decimal::multiply(basis, item.value);
      raw = product ? product->percent() : context.base;
      break;
    }
    case discount_rule::free_item:
      matched = s.units >= 1;
      raw = matched ? capped(s.top_unit) : decimal();
      break;
    case discount_rule::bogo:
      matched = s.units >= 2;
      raw = matched ? capped(s.second_unit) : decimal();
      break;
    case discount_rule::modifier:
      matched = s.has_modifier;
      raw = matched ? capped(s.max_modifier) : decimal();
      break;
    case discount_rule::fixed_price:
      matched = s.units >= 1;
      raw = matched ? max(s.max_full - item.value, decimal()) : decimal();
      break;
    case discount_rule::unsupported:
    case discount_rule::unknown:
      break;
  }
  if (item.maximum) raw = min(raw, *item.maximum);
  raw = min(raw, context.base);

  discount_outcome outcome;
  outcome.cents = raw.round_half_up_cents();
  if (outcome.cents > 0) return outcome;
  const bool missing =
      item.rule == discount_rule::modifier ? s.modifier_price_missing : s.price_missing;
  outcome.zero_reason = context.empty                             ? reason_code::empty_basket
                        : item.rule == discount_rule::unknown     ? reason_code::discount_unknown
                        : item.rule == discount_rule::unsupported ? reason_code::unsupported_type
                        : !matched                                ? reason_code::no_matching_item
                        : missing && uses_unit_prices             ? reason_code::item_price_missing
                                                                  : reason_code::zero_discount;
  outcome.cents = 0;
  return outcome;
}

}  // namespace lq
