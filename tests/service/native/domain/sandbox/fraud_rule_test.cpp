// The sandbox fraud rule (service/domain/fraud_rule.*, test_cards.*): which cards are valid and
// which are high-risk, and which campaign rewards the rule withholds, against a real store.
#include <catch2/catch.hpp>

#include <string>

#include "../../temp_dir.hpp"
#include "domain/sandbox/fraud_rule.hpp"
#include "domain/sandbox/test_cards.hpp"
#include "store/store.hpp"

namespace {

using namespace lq::service;
using lq::service::testing::temp_dir;

campaign_row campaign_of(int64_t id, const char* hashid, const char* type) {
  campaign_row row;
  row.id = id;
  row.external_uid_hashid = hashid;
  row.merchant_id = "m_1";
  row.reward_template = R"({"label":"x","type":"amount","value":5})";
  row.reward_type = type;
  return row;
}

void seed(store& db) {
  db.insert_merchant({"m_1", "key-1", "UTC", "1", "points"});
  for (const char* user : {"u_standard", "u_unique", "u_none", "u_twin_a", "u_twin_b"}) {
    db.insert_user({user, "m_1", std::string("at_") + user});
  }
  db.insert_card("u_standard", {"4111111111111111", "2026-01-01T00:00:00Z"});
  db.insert_card("u_unique", {"4111119876541111", "2026-01-01T00:00:00Z"});
  db.insert_card("u_twin_a", {"4242420000004242", "2026-01-01T00:00:00Z"});
  db.insert_card("u_twin_b", {"4242420000004242", "2026-01-01T00:00:00Z"});
}

}  // namespace

TEST_CASE("a registered card keeps the first 6 and last 4 digits of a standard test card",
          "[fraud_rule]") {
  CHECK(card_digits("4111 1198-7654 1111") == std::optional<std::string>("4111119876541111"));
  CHECK_FALSE(card_digits("4111x111111111111"));
  CHECK_FALSE(card_digits("41111111111"));
  CHECK(test_card_family("4111119876541111") != nullptr);
  CHECK(test_card_family("378282999990005") != nullptr);  // American Express, 15 digits
  CHECK(test_card_family("4111119876541112") == nullptr);
  CHECK(test_card_family("41111198765411111") == nullptr);  // another length
  CHECK(standard_test_card("4242424242424242") != nullptr);
  CHECK(standard_test_card("4111119876541111") == nullptr);
  CHECK(masked_card("4111111111111111") == "411111******1111");
}

TEST_CASE("the unique card suggested for a user is in the family, never standard, and stable",
          "[fraud_rule]") {
  for (const test_card& family : standard_test_cards()) {
    const std::string unique = unique_card_for(family, "u_1003");
    CHECK(test_card_family(unique) != nullptr);
    CHECK(standard_test_card(unique) == nullptr);
    CHECK(unique == unique_card_for(family, "u_1003"));
    CHECK(unique.substr(0, 6) == std::string(family.number).substr(0, 6));
  }
  CHECK(unique_card_for(standard_test_cards().front(), "u_a") !=
        unique_card_for(standard_test_cards().front(), "u_b"));
}

TEST_CASE("only intro, birthday, winback and signup are fraud-protected", "[fraud_rule]") {
  for (const char* type : {"intro", "birthday", "winback", "signup"}) {
    CHECK(known_reward_type(type));
    CHECK(fraud_protected(type));
  }
  for (const char* type : {"free_item", "promotion"}) {
    CHECK(known_reward_type(type));
    CHECK_FALSE(fraud_protected(type));
  }
  CHECK_FALSE(known_reward_type("points"));
}

TEST_CASE("a standard or shared card withholds fraud-protected rewards only", "[fraud_rule]") {
  temp_dir dir;
  store db(dir.file("fraud.db"));
  auto lock = db.lock();
  seed(db);
  const campaign_row winback = campaign_of(1, "cmp_w", "winback");
  const campaign_row free_item = campaign_of(2, "cmp_f", "free_item");

  std::optional<withheld_reward> standard = withheld_by_fraud_rule(db, winback, "u_standard");
  REQUIRE(standard);
  CHECK(standard->card == "411111******1111");
  CHECK(standard->rule.find("standard test card 4111111111111111 (Visa)") != std::string::npos);
  CHECK(withheld_reward_log_line(*standard).find(
            "campaign cmp_w (program 1, winback) did not activate for user u_standard: card "
            "411111******1111 is high-risk") != std::string::npos);

  std::optional<withheld_reward> shared = withheld_by_fraud_rule(db, winback, "u_twin_a");
  REQUIRE(shared);
  CHECK(shared->rule == "registered to another user of this merchant too");

  CHECK_FALSE(withheld_by_fraud_rule(db, free_item, "u_standard"));
  CHECK_FALSE(withheld_by_fraud_rule(db, winback, "u_unique"));
  CHECK_FALSE(withheld_by_fraud_rule(db, winback, "u_none"));
}

TEST_CASE("only the merchant's own users make a card shared", "[fraud_rule]") {
  temp_dir dir;
  store db(dir.file("fraud.db"));
  auto lock = db.lock();
  seed(db);
  // A user of another merchant registers u_unique's card.
  db.insert_merchant({"m_2", "key-2", "UTC", "1", "points"});
  db.insert_user({"u_elsewhere", "m_2", "at_u_elsewhere"});
  db.insert_card("u_elsewhere", {"4111119876541111", "2026-01-01T00:00:00Z"});
  const campaign_row winback = campaign_of(1, "cmp_w", "winback");

  CHECK_FALSE(withheld_by_fraud_rule(db, winback, "u_unique"));
  CHECK_FALSE(withheld_by_fraud_rule(db, winback, "u_elsewhere"));
  const std::vector<card_assessment> cards = assess_cards(db, "u_unique");
  REQUIRE(cards.size() == 1);
  CHECK_FALSE(cards.front().high_risk);
  const json report = fraud_report(db, *db.user("u_elsewhere"));
  CHECK(report["cards"][0]["high_risk"] == false);
  CHECK(report["silent_failures"] == 0);

  // Within one merchant a card of two users is still shared.
  db.insert_user({"u_twin_c", "m_1", "at_u_twin_c"});
  db.insert_card("u_twin_c", {"4111119876541111", "2026-01-01T00:00:00Z"});
  REQUIRE(withheld_by_fraud_rule(db, winback, "u_unique"));
  CHECK_FALSE(withheld_by_fraud_rule(db, winback, "u_elsewhere"));
}
