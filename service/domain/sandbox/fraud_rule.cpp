#include "domain/sandbox/fraud_rule.hpp"

#include <cstdio>

namespace lq::service {

namespace {

constexpr const char* kProtectedTypes[] = {"intro", "birthday", "winback", "signup"};
constexpr const char* kOtherTypes[] = {"free_item", "promotion"};

constexpr const char* kRuleText =
    "a standard test card number, or a card registered to more than one user of the merchant, "
    "is flagged "
    "high-risk; on a user with such a card the rewards of the fraud-protected reward types "
    "(intro, birthday, winback, signup) silently fail to activate (grant) or to be earned "
    "(campaign trigger), with no error; points products and free_item or promotion rewards "
    "are not affected";

// A card is shared when another user of the same merchant has it too: the rule sees only the
// merchant's own users, so another merchant's users neither affect it nor can learn from it.
std::optional<std::string> risk_of(store& db, const std::string& number,
                                   const std::string& user_id) {
  if (const test_card* standard = standard_test_card(number)) {
    return std::string("the standard test card ") + standard->number + " (" + standard->brand +
           "), shared by every integrator";
  }
  if (db.card_holder_count(number, user_id) > 1) {
    return std::string("registered to another user of this merchant too");
  }
  return std::nullopt;
}

const card_assessment* first_high_risk(const std::vector<card_assessment>& cards) {
  for (const card_assessment& card : cards) {
    if (card.high_risk) return &card;
  }
  return nullptr;
}

std::string label_of(const campaign_row& campaign) {
  const json reward = json::parse(campaign.reward_template, nullptr, false);
  auto label = reward.is_object() ? reward.find("label") : reward.end();
  return label != reward.end() && label->is_string() ? label->get<std::string>() : "";
}

}  // namespace

bool known_reward_type(const std::string& type) {
  for (const char* known : kProtectedTypes) {
    if (type == known) return true;
  }
  for (const char* known : kOtherTypes) {
    if (type == known) return true;
  }
  return false;
}

bool fraud_protected(const std::string& reward_type) {
  for (const char* known : kProtectedTypes) {
    if (reward_type == known) return true;
  }
  return false;
}

std::vector<card_assessment> assess_cards(store& db, const std::string& user_id) {
  std::vector<card_assessment> cards;
  for (const card_row& row : db.cards_of(user_id)) {
    card_assessment card;
    card.number = row.number;
    card.family = test_card_family(row.number);
    card.high_risk = risk_of(db, row.number, user_id);
    cards.push_back(std::move(card));
  }
  return cards;
}

std::optional<withheld_reward> withheld_by_fraud_rule(store& db, const campaign_row& campaign,
                                                      const std::string& user_id) {
  if (!fraud_protected(campaign.reward_type)) return std::nullopt;
  const std::vector<card_assessment> cards = assess_cards(db, user_id);
  const card_assessment* flagged = first_high_risk(cards);
  if (flagged == nullptr) return std::nullopt;
  withheld_reward withheld;
  withheld.user_id = user_id;
  withheld.campaign_hashid = campaign.external_uid_hashid;
  withheld.program_id = campaign.id;
  withheld.reward_type = campaign.reward_type;
  withheld.card = masked_card(flagged->number);
  withheld.rule = *flagged->high_risk;
  return withheld;
}

std::string withheld_reward_log_line(const withheld_reward& withheld) {
  return "loyalty_service: sandbox fraud rule: the reward of campaign " + withheld.campaign_hashid +
         " (program " + std::to_string(withheld.program_id) + ", " + withheld.reward_type +
         ") did not activate for user " + withheld.user_id + ": card " + withheld.card +
         " is high-risk (" + withheld.rule +
         "); register a unique card number for this user (loyalty-qualifier sandbox doctor)";
}

void log_withheld_reward(const withheld_reward& withheld) {
  std::fprintf(stderr, "%s\n", withheld_reward_log_line(withheld).c_str());
}

json fraud_report(store& db, const user_row& user) {
  const std::vector<card_assessment> cards = assess_cards(db, user.id);
  const card_assessment* flagged = first_high_risk(cards);

  json card_list = json::array();
  int high_risk_cards = 0;
  for (const card_assessment& card : cards) {
    if (card.high_risk) ++high_risk_cards;
    json entry = json::object();
    entry["card"] = masked_card(card.number);
    entry["brand"] = card.family ? json(card.family->brand) : json(nullptr);
    entry["high_risk"] = card.high_risk.has_value();
    entry["reason"] = card.high_risk ? json(*card.high_risk) : json(nullptr);
    card_list.push_back(std::move(entry));
  }

  json campaigns = json::array();
  int failing = 0;
  for (const campaign_row& campaign : db.campaigns_of(user.merchant_id)) {
    const bool protected_type = fraud_protected(campaign.reward_type);
    const bool activates = !(protected_type && flagged != nullptr);
    if (!activates) ++failing;
    json entry = json::object();
    entry["campaign_id"] = campaign.external_uid_hashid;
    entry["program_id"] = campaign.id;
    entry["label"] = label_of(campaign);
    entry["reward_type"] = campaign.reward_type;
    entry["fraud_protected"] = protected_type;
    entry["issued_by"] = campaign.purchase_trigger ? json::array({"grant", "purchase trigger"})
                                                   : json::array({"grant"});
    entry["activates"] = activates;
    entry["reason"] = activates ? json(nullptr)
                                : json("card " + masked_card(flagged->number) + " is high-risk (" +
                                       *flagged->high_risk + ")");
    campaigns.push_back(std::move(entry));
  }

  json fix = nullptr;
  if (flagged != nullptr) {
    const test_card& family = flagged->family ? *flagged->family : standard_test_cards().front();
    const std::string unique = unique_card_for(family, user.id);
    fix = json::object();
    fix["card_number"] = unique;
    fix["replace"] = true;
    fix["message"] = "register a unique card number for " + user.id +
                     " in place of its high-risk card" + (high_risk_cards == 1 ? "" : "s") +
                     ": the first 6 and last 4 digits of a standard test card, middle digits "
                     "of your own, the same on every run (e.g. " +
                     unique +
                     "); points products and free_item or promotion rewards work either way";
  }

  json report = json::object();
  report["user_id"] = user.id;
  report["merchant_id"] = user.merchant_id;
  report["rule"] = kRuleText;
  report["cards"] = std::move(card_list);
  report["campaigns"] = std::move(campaigns);
  report["silent_failures"] = failing;
  report["fix"] = std::move(fix);
  return report;
}

}  // namespace lq::service
