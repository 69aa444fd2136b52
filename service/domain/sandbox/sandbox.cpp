#include "domain/sandbox/sandbox.hpp"

#include <algorithm>
#include <map>
#include <utility>

#include "domain/json_document.hpp"
#include "domain/purchases/campaigns.hpp"
#include "domain/purchases/purchase_ledger.hpp"
#include "domain/sandbox/fraud_rule.hpp"
#include "domain/sandbox/test_cards.hpp"
#include "lq/qualifier.hpp"

namespace lq::service {

namespace {

bool contains(const std::optional<std::vector<std::string>>& filter, const std::string& value) {
  return !filter || std::find(filter->begin(), filter->end(), value) != filter->end();
}

bool all_digits(const std::string& text) {
  return !text.empty() && text.size() <= 18 &&
         std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// A required non-empty string field of `object`, named `path` in errors.
result<std::string> required_text(const json& object, const char* key, const std::string& path) {
  auto it = object.find(key);
  if (it == object.end() || !it->is_string() || it->get_ref<const std::string&>().empty()) {
    return error{400, path + " is required (a non-empty string)"};
  }
  return it->get<std::string>();
}

error not_the_token_user(const std::string& path, const std::string& user_id) {
  return error{403, path + " " + user_id + " is not the user of this access token"};
}

// The reward as GET /rewards and the grant show it: the record as the account snapshot holds
// it, plus its campaign (hashid), creation and redemption times.
json reward_view(json record, const std::string& state, const std::string& user_id,
                 const std::optional<std::string>& campaign_hashid, const std::string& created_at,
                 const std::optional<std::string>& redeemed_at) {
  record["state"] = state;
  record["user_id"] = user_id;
  record["campaign_id"] = campaign_hashid ? json(*campaign_hashid) : json(nullptr);
  record["created_at"] = created_at;
  record["redeemed_at"] = redeemed_at ? json(*redeemed_at) : json(nullptr);
  return record;
}

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

result<std::string> sandbox_service::grant(const caller& who, std::string_view body) {
  result<json> parsed = parse_json_limited(body);
  if (!parsed) return parsed.err();
  if (!parsed->is_object()) return error{400, "request body must be a JSON object"};
  const json& request = *parsed;

  auto campaign_field = request.find("campaign_id");
  if (campaign_field == request.end() || campaign_field->is_null()) {
    return error{400, "campaign_id is required: the hashid form of the program's external_uid"};
  }
  if (campaign_field->is_number()) {
    return error{400,
                 "campaign_id must be a string: the hashid form of the program's "
                 "external_uid; a numeric program id (" +
                     campaign_field->dump() + ") does not resolve"};
  }
  if (!campaign_field->is_string() || campaign_field->get_ref<const std::string&>().empty()) {
    return error{400,
                 "campaign_id must be a non-empty string: the hashid form of the program's "
                 "external_uid"};
  }
  const std::string campaign_id = campaign_field->get<std::string>();
  result<std::string> user_id = required_text(request, "user_id", "user_id");
  if (!user_id) return user_id.err();
  if (*user_id != who.user_id) return not_the_token_user("user_id", *user_id);

  json view;
  std::optional<withheld_reward> withheld;
  {
    auto lock = db_.lock();
    std::optional<campaign_row> campaign = db_.campaign_by_hashid(campaign_id);
    if (!campaign || campaign->merchant_id != who.merchant_id) {
      if (all_digits(campaign_id)) {
        std::string message = "campaign_id " + campaign_id +
                              " does not resolve: it looks like a numeric program id, and only "
                              "the hashid form of the program's external_uid resolves";
        std::optional<campaign_row> program = db_.campaign_by_id(std::stoll(campaign_id));
        if (program && program->merchant_id == who.merchant_id) {
          message += " (for program " + campaign_id + ": " + program->external_uid_hashid + ")";
        }
        return error{404, message};
      }
      return error{404, "campaign_id " + campaign_id +
                            " does not resolve to a campaign of this merchant (expected the "
                            "hashid form of the program's external_uid)"};
    }
    const std::string now_text = format_rfc3339_ms(clock_.now());
    withheld = withheld_by_fraud_rule(db_, *campaign, who.user_id);
    json record;
    if (withheld) {
      // The sandbox's silent failure: the answer of an activated reward, nothing issued.
      record = withheld_campaign_reward(*campaign, who.user_id);
    } else {
      transaction tx(db_.db());
      record = issue_campaign_reward(db_, *campaign, who.user_id, now_text, std::nullopt);
      tx.commit();
    }
    const std::string state = record["state"].get<std::string>();
    view = reward_view(std::move(record), state, who.user_id, campaign->external_uid_hashid,
                       now_text, std::nullopt);
  }
  if (withheld) {
    log_withheld_reward(*withheld);
  } else {
    accounts_.invalidate(who.user_id);
  }
  json out = json::object();
  out["reward"] = std::move(view);
  return out.dump();
}

result<std::string> sandbox_service::register_card(const caller& who, std::string_view body) {
  result<json> parsed = parse_json_limited(body);
  if (!parsed) return parsed.err();
  if (!parsed->is_object()) return error{400, "request body must be a JSON object"};
  const json& request = *parsed;
  auto number_field = request.find("card_number");
  if (number_field == request.end() || !number_field->is_string()) {
    return error{400, "card_number is required (a string of digits)"};
  }
  std::optional<std::string> digits = card_digits(number_field->get<std::string>());
  if (!digits || test_card_family(*digits) == nullptr) {
    return error{400, card_number_problem("card_number")};
  }
  bool replace = false;
  auto replace_field = request.find("replace");
  if (replace_field != request.end() && !replace_field->is_null()) {
    if (!replace_field->is_boolean()) return error{400, "replace must be a boolean"};
    replace = replace_field->get<bool>();
  }
  auto user_field = request.find("user_id");
  if (user_field != request.end() && !user_field->is_null()) {
    result<std::string> user_id = required_text(request, "user_id", "user_id");
    if (!user_id) return user_id.err();
    if (*user_id != who.user_id) return not_the_token_user("user_id", *user_id);
  }
  const std::string now_text = format_rfc3339_ms(clock_.now());
  {
    auto lock = db_.lock();
    transaction tx(db_.db());
    if (replace) db_.delete_cards_of(who.user_id);
    db_.insert_card(who.user_id, card_row{*digits, now_text});
    tx.commit();
  }
  // As neutral as a card processor's answer: whether the card is high-risk is the doctor's.
  json card = json::object();
  card["card"] = masked_card(*digits);
  card["brand"] = test_card_family(*digits)->brand;
  card["user_id"] = who.user_id;
  card["registered_at"] = now_text;
  json out = json::object();
  out["card"] = std::move(card);
  return out.dump();
}

result<std::string> sandbox_service::fraud_report(const caller& who,
                                                  const std::optional<std::string>& user_id) {
  if (user_id && *user_id != who.user_id) return not_the_token_user("user_id", *user_id);
  auto lock = db_.lock();
  std::optional<user_row> user = db_.user(who.user_id);
  if (!user) return error{500, "the caller's user is missing"};
  return lq::service::fraud_report(db_, *user).dump();
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
    transaction tx(db_.db());  // the bound and the insert see the same balance
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
    if (!contains(filters.ids, purchase_public_id(row.id))) continue;
    if (filters.location_ids &&
        (!row.location_id || !contains(filters.location_ids, *row.location_id))) {
      continue;
    }
    if (!contains(filters.sources, row.source)) continue;
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

std::string sandbox_service::list_rewards(const caller& who, const reward_filters& filters) {
  std::vector<reward_origin_row> rows;
  {
    auto lock = db_.lock();
    rows = db_.rewards_with_origin_of(who.user_id, who.merchant_id);
  }
  json rewards = json::array();
  for (reward_origin_row& row : rows) {
    if (!contains(filters.states, row.state) || !contains(filters.ids, row.id)) continue;
    if (filters.campaign_ids &&
        (!row.campaign_hashid || !contains(filters.campaign_ids, *row.campaign_hashid))) {
      continue;
    }
    rewards.push_back(reward_view(json::parse(row.record), row.state, who.user_id,
                                  row.campaign_hashid, row.created_at, row.redeemed_at));
  }
  json out = json::object();
  out["rewards"] = std::move(rewards);
  return out.dump();
}

}  // namespace lq::service
