// The sandbox's rewards (sandbox.hpp): POST /rewards/grant issues a campaign's reward (or
// withholds it under the fraud rule), GET /rewards lists the user's rewards with their origin.
#include <algorithm>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "domain/json_document.hpp"
#include "domain/purchases/campaigns.hpp"
#include "domain/sandbox/fraud_rule.hpp"
#include "domain/sandbox/sandbox.hpp"
#include "domain/sandbox/sandbox_request.hpp"

namespace lq::service {

namespace {

bool all_digits(const std::string& text) {
  return !text.empty() && text.size() <= 18 &&
         std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; });
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

}  // namespace

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
      front::transaction tx(db_.db());
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

std::string sandbox_service::list_rewards(const caller& who, const reward_filters& filters) {
  std::vector<reward_origin_row> rows;
  {
    auto lock = db_.lock();
    rows = db_.rewards_with_origin_of(who.user_id, who.merchant_id);
  }
  json rewards = json::array();
  for (reward_origin_row& row : rows) {
    if (!filter_admits(filters.states, row.state) || !filter_admits(filters.ids, row.id)) continue;
    if (filters.campaign_ids &&
        (!row.campaign_hashid || !filter_admits(filters.campaign_ids, *row.campaign_hashid))) {
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
