// Campaigns (fixture `campaigns`): the reward a sandbox grant issues (API spec 4.2) and the
// purchase trigger that issues it when a matching purchase lands (API spec 4.3).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "domain/json_document.hpp"
#include "domain/sandbox/fraud_rule.hpp"
#include "lq/qualifier.hpp"
#include "store/store.hpp"

namespace lq::service {

/// `{"type": "purchase", "minimum_amount": "25.00", "location_ids": [...], "once_per_user": true}`
struct purchase_trigger {
  decimal minimum_amount;                 // default 0: any purchase
  std::vector<std::string> location_ids;  // location hashids; empty: any location (or none)
  bool once_per_user = false;             // no reward when the user already has one of it
};

/// Validates a trigger; errors (422) name `path` and the field.
result<purchase_trigger> parse_purchase_trigger(const json& trigger, const std::string& path);

/// The reward record of `campaign` for a user: the template with the given id, the template's
/// state (default `redeemable`), the user and the campaign's merchant.
json campaign_reward_record(const campaign_row& campaign, const std::string& reward_id,
                            const std::string& user_id);

/// A reward that must load in the engine: nullopt, or why it does not (the engine's message).
std::optional<std::string> reward_record_problem(const json& record, const std::string& merchant);

/// Issues the campaign's reward to the user under a fresh id, inside the caller's transaction
/// (the caller holds the store lock); returns the record inserted.
json issue_campaign_reward(store& db, const campaign_row& campaign, const std::string& user_id,
                           const std::string& at, std::optional<int64_t> trigger_purchase_id);

/// The record a grant answers when the fraud rule withholds the reward: the campaign's record
/// under a fresh id, exactly as if issued, but never stored.
json withheld_campaign_reward(const campaign_row& campaign, const std::string& user_id);

/// What the triggers of a landed purchase did.
struct triggered_rewards {
  std::vector<std::string> issued;        // reward ids
  std::vector<withheld_reward> withheld;  // silently not earned (sandbox fraud rule)
};

/// Issues the reward of every campaign of the purchase's merchant whose trigger it matches;
/// called in the transaction that lands the purchase, so it happens exactly once. With
/// `fraud_rule` (sandbox mode), a reward the rule withholds is not issued.
triggered_rewards issue_triggered_rewards(store& db, const purchase_row& purchase,
                                          const std::string& at, bool fraud_rule);

}  // namespace lq::service
