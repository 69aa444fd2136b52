#include "model/basket_context.hpp"

#include <algorithm>

#include "base/posix_tz.hpp"

namespace lq {

namespace {

// The context of the last call on this thread, reused so a call allocates nothing once warm.
thread_local basket_context scratch_context;

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

}  // namespace

const basket_context& resolve_basket(const snapshot& snap, const basket_request& request,
                                     instant now) {
  basket_context& context = scratch_context;
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
  return context;
}

}  // namespace lq
