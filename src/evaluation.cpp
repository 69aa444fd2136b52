#include "evaluation.hpp"

#include <algorithm>

#include "posix_tz.hpp"

namespace lq {

namespace {

// Adds `quantity` units of one basket line to a summary. parse_request bounds the basket total,
// and every sum here is part of it, so the arithmetic cannot overflow.
void add_units(match_summary& s, decimal unit_price, decimal full_price, int64_t quantity,
               bool price_missing) {
  s.sum_full = decimal::from_units(s.sum_full.units() + full_price.units() * quantity);
  const int64_t before = s.units;
  s.units += quantity;
  // The two highest unit prices, counting a line of several units more than once.
  for (int64_t copy = 0; copy < std::min<int64_t>(quantity, 2); ++copy) {
    const int64_t seen = before + copy;
    if (seen == 0) {
      s.top_unit = unit_price;
    } else if (unit_price > s.top_unit) {
      s.second_unit = s.top_unit;
      s.top_unit = unit_price;
    } else if (seen == 1 || unit_price > s.second_unit) {
      s.second_unit = unit_price;
    }
  }
  s.max_full = before == 0 ? full_price : max(s.max_full, full_price);
  s.price_missing = s.price_missing || price_missing;
}

// API spec 2.1: without the item's price, a modifier discount on it resolves to 0.
void add_modifier(match_summary& s, const basket_modifier& modifier, bool item_priced) {
  const bool priced = item_priced && modifier.price;
  const decimal price = priced ? *modifier.price : decimal();
  s.max_modifier = s.has_modifier ? max(s.max_modifier, price) : price;
  s.has_modifier = true;
  s.modifier_price_missing = s.modifier_price_missing || !priced;
}

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

void build_context(const snapshot& snap, const basket_request& request, instant now,
                   basket_context& context) {
  context.order_time = request.order_timestamp.value_or(now);

  context.location_state = location_match::omitted;
  context.place = nullptr;
  if (request.location_uid) {
    auto it = snap.location_by_uid.find(*request.location_uid);
    if (it == snap.location_by_uid.end()) {
      context.location_state = location_match::unknown;
    } else if (snap.locations[it->second].of_snapshot_merchant) {
      context.location_state = location_match::resolved;
      context.place = &snap.locations[it->second];
    }  // another merchant's location is dropped: as if omitted
  }
  const posix_tz zone = context.place && context.place->tz ? *context.place->tz
                        : snap.merchant_tz                 ? *snap.merchant_tz
                                                           : utc_tz();
  context.local = local_time_at(zone, context.order_time.seconds);

  context.handoff = request.handoff;
  if (context.handoff) {
    for (char& c : *context.handoff) {
      if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    }
  }

  context.empty = request.items.empty() && !request.subtotal;
  context.everything = match_summary{};
  context.per_offer.assign(snap.offer_count(), match_summary{});

  for (uint32_t line = 0; line < request.items.size(); ++line) {
    const basket_item& item = request.items[line];
    const decimal unit_price = item.price.value_or(decimal());
    const decimal full_price = item.full_price;
    const bool missing = !item.price;
    add_units(context.everything, unit_price, full_price, item.quantity, missing);
    for (const basket_modifier& modifier : item.modifiers) {
      add_modifier(context.everything, modifier, !missing);
    }

    // Offers restricted to this line's product id or one of its categories.
    auto match_units = [&](const std::vector<uint32_t>& offers) {
      for (uint32_t global : offers) {
        if (snap.offer_at(global).rule == discount_rule::modifier) continue;
        match_summary& s = context.per_offer[global];
        if (s.last_line == line) continue;
        s.last_line = line;
        add_units(s, unit_price, full_price, item.quantity, missing);
      }
    };
    if (snap.symbols.empty()) continue;
    if (auto symbol = snap.symbol_of(item.id)) match_units(snap.offers_by_product[*symbol]);
    for (const std::string& category : item.categories) {
      if (auto symbol = snap.symbol_of(category)) match_units(snap.offers_by_category[*symbol]);
    }
    for (const basket_modifier& modifier : item.modifiers) {
      auto symbol = snap.symbol_of(modifier.id);
      if (!symbol) continue;
      for (uint32_t global : snap.offers_by_product[*symbol]) {
        if (snap.offer_at(global).rule == discount_rule::modifier) {
          add_modifier(context.per_offer[global], modifier, !missing);
        }
      }
    }
  }
  context.base = request.subtotal.value_or(context.everything.sum_full);
}

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
