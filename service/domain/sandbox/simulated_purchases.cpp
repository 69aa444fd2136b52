// The sandbox's purchases (sandbox.hpp): POST /purchases queues a simulated purchase that lands
// after the processing delay, GET /purchases lists the landed ones with the rewards they
// triggered.
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "domain/json_document.hpp"
#include "domain/purchases/purchase_ledger.hpp"
#include "domain/sandbox/sandbox.hpp"
#include "domain/sandbox/sandbox_request.hpp"

namespace lq::service {

namespace {

std::optional<json> optional_text(const std::optional<std::string>& text) {
  if (!text) return std::nullopt;
  return json(*text);
}

json purchase_view(const purchase_row& row, const std::vector<std::string>& triggered) {
  json view = json::object();
  view["id"] = purchase_public_id(row.id);
  view["source"] = row.source;
  view["merchant_id"] = row.merchant_id;
  view["location_id"] = optional_text(row.location_id).value_or(json(nullptr));
  view["user_id"] = row.user_id;
  view["basket_id"] = optional_text(row.basket_id).value_or(json(nullptr));
  view["amount"] = row.amount;
  view["points"] = row.points;
  view["points_experience_id"] = row.points_experience_id;
  view["purchased_at"] = row.purchased_at;
  view["received_at"] = format_rfc3339_ms(instant_from_unix_ms(row.received_at));
  view["landed_at"] = format_rfc3339_ms(instant_from_unix_ms(row.landed_at.value_or(0)));
  view["triggered_rewards"] = triggered;
  return view;
}

// A non-negative decimal given as a JSON number or a numeric string.
std::optional<decimal> amount_of(const json& value) {
  std::string text;
  if (value.is_string()) {
    text = value.get<std::string>();
  } else if (value.is_number()) {
    text = value.dump();
  } else {
    return std::nullopt;
  }
  std::optional<decimal> amount = decimal::parse(text);
  if (!amount || amount->is_negative()) return std::nullopt;
  return amount;
}

}  // namespace

std::string purchase_public_id(int64_t id) {
  return "pur_" + std::to_string(id);
}

result<int64_t> sandbox_service::simulate_purchase(const caller& who, std::string_view body) {
  result<json> parsed = parse_json_limited(body);
  if (!parsed) return parsed.err();
  auto wrapped = parsed->is_object() ? parsed->find("purchase") : parsed->end();
  if (!parsed->is_object() || wrapped == parsed->end() || !wrapped->is_object()) {
    return error{400,
                 "request body must be {\"purchase\": {merchant_id, location_id, user_id, "
                 "amount, purchased_at}}"};
  }
  const json& fields = *wrapped;

  result<std::string> merchant_id = required_text(fields, "merchant_id", "purchase.merchant_id");
  if (!merchant_id) return merchant_id.err();
  result<std::string> user_id = required_text(fields, "user_id", "purchase.user_id");
  if (!user_id) return user_id.err();
  auto amount_field = fields.find("amount");
  if (amount_field == fields.end() || amount_field->is_null()) {
    return error{400, "purchase.amount is required (a decimal: a JSON number or numeric string)"};
  }
  std::optional<decimal> amount = amount_of(*amount_field);
  if (!amount) {
    return error{400,
                 "purchase.amount must be a non-negative decimal (a JSON number or numeric "
                 "string, below 10^15)"};
  }
  std::optional<std::string> location_id;
  auto location_field = fields.find("location_id");
  if (location_field != fields.end() && !location_field->is_null()) {
    if (!location_field->is_string()) return error{400, "purchase.location_id must be a string"};
    location_id = location_field->get<std::string>();
  }
  instant purchased_at = clock_.now();
  std::string purchased_at_text = format_rfc3339_ms(purchased_at);
  auto time_field = fields.find("purchased_at");
  if (time_field != fields.end() && !time_field->is_null()) {
    std::optional<instant> parsed_time =
        time_field->is_string() ? parse_rfc3339(time_field->get<std::string>()) : std::nullopt;
    if (!parsed_time) {
      return error{400,
                   "purchase.purchased_at must be an ISO 8601 timestamp with offset, e.g. "
                   "2026-11-24T08:15:00-05:00"};
    }
    purchased_at_text = time_field->get<std::string>();
  }
  if (*merchant_id != who.merchant_id) {
    return error{
        403, "purchase.merchant_id " + *merchant_id + " is not the merchant of this access token"};
  }
  if (*user_id != who.user_id) return not_the_token_user("purchase.user_id", *user_id);

  int64_t id = 0;
  {
    auto lock = db_.lock();
    std::optional<merchant_row> merchant = db_.merchant(who.merchant_id);
    if (!merchant) return error{500, "the caller's merchant is missing"};
    purchase_entry entry;
    entry.source = "sandbox";
    entry.user_id = who.user_id;
    entry.amount = *amount;
    entry.purchased_at = purchased_at_text;
    entry.amount_field = "purchase.amount";
    entry.unrepresentable_message = "purchase.amount is out of range";
    if (location_id) {
      // The location hashid (`id`); its `uid` is accepted too and stored as the hashid.
      for (const location_row& place : db_.locations_of(merchant->id)) {
        if (place.id == *location_id || place.uid == *location_id) entry.location_id = place.id;
      }
      if (!entry.location_id) {
        return error{
            400, "purchase.location_id " + *location_id + " names no location of " + merchant->id};
      }
    }
    front::transaction tx(db_.db());  // the bound and the insert see the same balance
    result<int64_t> recorded = record_purchase(db_, *merchant, entry, processing_delay_ms_);
    if (!recorded) return recorded.err();
    id = *recorded;
    tx.commit();
  }
  purchase_queued_();
  return id;
}

std::string sandbox_service::list_purchases(const caller& who, const purchase_filters& filters) {
  std::vector<purchase_row> rows;
  std::map<int64_t, std::vector<std::string>> triggered;
  {
    auto lock = db_.lock();
    rows = db_.landed_purchases_of(who.user_id);
    for (auto& [purchase, reward] : db_.triggered_rewards_of(who.user_id)) {
      triggered[purchase].push_back(std::move(reward));
    }
  }
  json purchases = json::array();
  for (const purchase_row& row : rows) {
    if (purchases.size() >= filters.limit) break;
    if (row.merchant_id != who.merchant_id) continue;
    if (!filter_admits(filters.ids, purchase_public_id(row.id))) continue;
    if (filters.location_ids &&
        (!row.location_id || !filter_admits(filters.location_ids, *row.location_id))) {
      continue;
    }
    if (!filter_admits(filters.sources, row.source)) continue;
    if (filters.purchased_since || filters.purchased_before) {
      std::optional<instant> at = parse_rfc3339(row.purchased_at);
      if (!at) continue;
      if (filters.purchased_since && *at < *filters.purchased_since) continue;
      if (filters.purchased_before && *at >= *filters.purchased_before) continue;
    }
    auto issued = triggered.find(row.id);
    purchases.push_back(purchase_view(
        row, issued == triggered.end() ? std::vector<std::string>() : issued->second));
  }
  json out = json::object();
  out["purchases"] = std::move(purchases);
  return out.dump();
}

}  // namespace lq::service
