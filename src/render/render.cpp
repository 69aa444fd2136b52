#include "render/render.hpp"

#include <cstdio>
#include <cstring>
#include <string>

#include "lq/json/json_writer.hpp"
#include "lq/time/civil_time.hpp"

namespace lq {

const char* reason_code_name(reason_code code) {
  switch (code) {
    case reason_code::not_redeemable:
      return "NOT_REDEEMABLE";
    case reason_code::not_owned:
      return "NOT_OWNED";
    case reason_code::other_merchant:
      return "OTHER_MERCHANT";
    case reason_code::expired:
      return "EXPIRED";
    case reason_code::not_started:
      return "NOT_STARTED";
    case reason_code::venue_mismatch:
      return "VENUE_MISMATCH";
    case reason_code::location_required:
      return "LOCATION_REQUIRED";
    case reason_code::location_mismatch:
      return "LOCATION_MISMATCH";
    case reason_code::outside_time_window:
      return "OUTSIDE_TIME_WINDOW";
    case reason_code::handoff_required:
      return "HANDOFF_REQUIRED";
    case reason_code::handoff_mismatch:
      return "HANDOFF_MISMATCH";
    case reason_code::subtotal_required:
      return "SUBTOTAL_REQUIRED";
    case reason_code::below_minimum:
      return "BELOW_MINIMUM";
    case reason_code::no_matching_item:
      return "NO_MATCHING_ITEM";
    case reason_code::item_price_missing:
      return "ITEM_PRICE_MISSING";
    case reason_code::zero_discount:
      return "ZERO_DISCOUNT";
    case reason_code::insufficient_points:
      return "INSUFFICIENT_POINTS";
    case reason_code::empty_basket:
      return "EMPTY_BASKET";
    case reason_code::unsupported_type:
      return "UNSUPPORTED_TYPE";
    case reason_code::discount_unknown:
      return "DISCOUNT_UNKNOWN";
    case reason_code::pending_order:
      return "PENDING_ORDER";
    case reason_code::claimed_elsewhere:
      return "CLAIMED_ELSEWHERE";
  }
  return "UNKNOWN";
}

const char* reason_message_template(reason_code code) {
  switch (code) {
    case reason_code::not_redeemable:
      return "The reward is not in the redeemable state.";
    case reason_code::not_owned:
      return "The reward belongs to another user.";
    case reason_code::other_merchant:
      return "The reward was issued by another merchant.";
    case reason_code::expired:
      return "The reward has expired.";
    case reason_code::not_started:
      return "The reward cannot be used yet.";
    case reason_code::venue_mismatch:
      return "Not redeemable at this venue (in store / online).";
    case reason_code::location_required:
      return "Only at some locations: choose a location.";
    case reason_code::location_mismatch:
      return "Not redeemable at this location.";
    case reason_code::outside_time_window:
      return "Not available at this time of day.";
    case reason_code::handoff_required:
      return "Only for one handoff mode: choose a handoff.";
    case reason_code::handoff_mismatch:
      return "Not available for this handoff mode.";
    case reason_code::subtotal_required:
      return "Needs a basket subtotal to check its minimum.";
    case reason_code::below_minimum:
      return "Spend ${remaining} more to unlock.";
    case reason_code::no_matching_item:
      return "No matching item in the basket.";
    case reason_code::item_price_missing:
      return "A matching item has no price.";
    case reason_code::zero_discount:
      return "It would give no discount on this basket.";
    case reason_code::insufficient_points:
      return "{points_needed} more points needed.";
    case reason_code::empty_basket:
      return "The basket is empty.";
    case reason_code::unsupported_type:
      return "This kind of offer is not supported.";
    case reason_code::discount_unknown:
      return "Its discount is not known here: the service decides when confirming.";
    case reason_code::pending_order:
      return "Already used by an order waiting to be confirmed.";
    case reason_code::claimed_elsewhere:
      return "Already used at another kiosk.";
  }
  return "";
}

namespace {

// The message of `why`: its template with the reason's figure (0 when absent) in place.
std::string reason_message(const reason& why) {
  const char* message = reason_message_template(why.code);
  const char* field = std::strchr(message, '{');
  if (field == nullptr) return message;
  const bool remaining = std::strncmp(field, "{remaining}", 11) == 0;
  std::string out(message, field);
  out += remaining ? format_cents(why.remaining_cents.value_or(0))
                   : std::to_string(why.points_needed.value_or(0));
  out += std::strchr(field, '}') + 1;
  return out;
}

void append_optional_decimal(std::string& out, const std::optional<decimal>& value) {
  if (value) {
    out += '"' + format_decimal(*value) + '"';
  } else {
    out += "null";
  }
}

void append_entities(std::string& out, const std::vector<offer>& offers,
                     const std::vector<uint32_t>* indices) {
  out += '[';
  const size_t count = indices ? indices->size() : offers.size();
  for (size_t i = 0; i < count; ++i) {
    if (i) out += ',';
    out += offers[indices ? (*indices)[i] : i].entity_json;
  }
  out += ']';
}

}  // namespace

std::string render_qualify(const snapshot& snap, const qualify_result& result) {
  std::string out = "{\"rewards\":";
  append_entities(out, snap.rewards, &result.rewards);
  out += ",\"points_products\":";
  append_entities(out, snap.points_products, &result.points_products);
  out += '}';
  return out;
}

std::string render_entities(const snapshot& snap) {
  std::string out = "{\"rewards\":";
  append_entities(out, snap.rewards, nullptr);
  out += ",\"points_products\":";
  append_entities(out, snap.points_products, nullptr);
  out += '}';
  return out;
}

std::string render_explain(const explain_result& result) {
  std::string out = "{\"entries\":[";
  for (size_t i = 0; i < result.entries.size(); ++i) {
    const explanation& entry = result.entries[i];
    if (i) out += ',';
    out += "{\"id\":";
    append_json_string(out, entry.id);
    out +=
        entry.kind == offer_kind::reward ? ",\"kind\":\"reward\"" : ",\"kind\":\"points_product\"";
    out += entry.qualifies ? ",\"qualifies\":true" : ",\"qualifies\":false";
    out += ",\"discount\":\"" + format_cents(entry.discount_cents) + "\",\"reasons\":[";
    for (size_t r = 0; r < entry.reasons.size(); ++r) {
      const reason& why = entry.reasons[r];
      if (r) out += ',';
      out += "{\"code\":\"";
      out += reason_code_name(why.code);
      out += "\",\"message\":";
      append_json_string(out, reason_message(why));
      if (why.remaining_cents)
        out += ",\"remaining\":\"" + format_cents(*why.remaining_cents) + "\"";
      if (why.points_needed) out += ",\"points_needed\":" + std::to_string(*why.points_needed);
      out += '}';
    }
    out += "]}";
  }
  out += "],\"best\":";
  if (result.best) {
    append_json_string(out, result.entries[*result.best].id);
  } else {
    out += "null";
  }
  out += '}';
  return out;
}

std::string render_error(const error& e) {
  std::string out = "{\"code\":" + std::to_string(e.code) + ",\"message\":";
  append_json_string(out, e.message);
  out += '}';
  return out;
}

std::string render_request(const basket_request& request) {
  std::string out = "{\"redemption_venue\":";
  out += request.redemption_venue == venue::instore ? "\"instore\"" : "\"online\"";
  out += ",\"order_timestamp\":";
  if (request.order_timestamp) {
    out += '"';
    out += format_rfc3339(*request.order_timestamp);
    out += '"';
  } else {
    out += "null";
  }
  for (const auto& [name, text] : {std::pair<const char*, const std::optional<std::string>*>{
                                       "location_uid", &request.location_uid},
                                   {"handoff", &request.handoff}}) {
    out += ",\"";
    out += name;
    out += "\":";
    if (*text) {
      append_json_string(out, **text);
    } else {
      out += "null";
    }
  }
  out += ",\"subtotal\":";
  append_optional_decimal(out, request.subtotal);
  out += ",\"items\":[";
  for (size_t i = 0; i < request.items.size(); ++i) {
    const basket_item& item = request.items[i];
    if (i) out += ',';
    out += "{\"id\":";
    append_json_string(out, item.id);
    out += ",\"price\":";
    append_optional_decimal(out, item.price);
    out += ",\"quantity\":" + std::to_string(item.quantity);
    out += ",\"categories\":";
    append_json_string_array(out, item.categories);
    out += ",\"modifiers\":[";
    for (size_t m = 0; m < item.modifiers.size(); ++m) {
      if (m) out += ',';
      out += "{\"id\":";
      append_json_string(out, item.modifiers[m].id);
      out += ",\"price\":";
      append_optional_decimal(out, item.modifiers[m].price);
      out += '}';
    }
    out += "]}";
  }
  out += "]}";
  return out;
}

}  // namespace lq
