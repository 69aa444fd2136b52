// The sandbox's fraud rule (API spec 7), emulated in sandbox mode only. A high-risk card on a
// user — a standard test card number (test_cards.hpp), or any card registered to more than one
// user, i.e. shared — makes the rewards of the fraud-protected reward types (intro, birthday,
// winback, signup) silently fail to activate (a grant) or to be earned (a campaign trigger): the
// caller gets exactly the answer of an activated reward, and nothing is issued. Points products
// and the other reward types (free_item, promotion) are not fraud-protected. This file is the
// only place the rule is written: the grant, the triggers and the doctor's report all ask it.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "domain/json_document.hpp"
#include "domain/sandbox/test_cards.hpp"
#include "store/store.hpp"

namespace lq::service {

/// The reward types a campaign may have (fixture `reward_type`), as listed in messages.
constexpr const char* kRewardTypes = "intro, birthday, winback, signup, free_item, promotion";
/// A campaign without `reward_type`.
constexpr const char* kDefaultRewardType = "promotion";

bool known_reward_type(const std::string& type);
/// intro, birthday, winback and signup.
bool fraud_protected(const std::string& reward_type);

/// One registered card as the rule sees it.
struct card_assessment {
  std::string number;                    // digits
  const test_card* family = nullptr;     // the standard test card it is a variant of
  std::optional<std::string> high_risk;  // why the card is flagged; nullopt: it is fine
};

/// The user's registered cards, each assessed. The caller holds the store lock.
std::vector<card_assessment> assess_cards(store& db, const std::string& user_id);

/// A campaign reward the rule withheld from a user.
struct withheld_reward {
  std::string user_id;
  std::string campaign_hashid;
  int64_t program_id = 0;
  std::string reward_type;
  std::string card;  // masked
  std::string rule;  // why the card is high-risk
};

/// nullopt when the campaign's reward activates for the user; otherwise why it silently does
/// not. The caller holds the store lock.
std::optional<withheld_reward> withheld_by_fraud_rule(store& db, const campaign_row& campaign,
                                                      const std::string& user_id);

/// The one log line of a withheld reward (without the trailing newline).
std::string withheld_reward_log_line(const withheld_reward& withheld);
/// Writes that line to stderr.
void log_withheld_reward(const withheld_reward& withheld);

/// The doctor's report for the user: its cards, every campaign of its merchant and whether its
/// reward would activate, the count of silent failures and the fix (docs/service.md). The caller
/// holds the store lock.
json fraud_report(store& db, const user_row& user);

}  // namespace lq::service
