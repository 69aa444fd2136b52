// The store (service/store/store.*) against a real SQLite file in a temporary directory: seeding
// that never overwrites, the conditional updates that arbitrate redemptions, and purchases that
// land (and credit their points) once.
#include <catch2/catch.hpp>

#include <optional>
#include <string>

#include "../temp_dir.hpp"
#include "store/migrations.hpp"
#include "store/store.hpp"

namespace {

using lq::service::testing::temp_dir;

using namespace lq::front;
using namespace lq::service;

// One merchant (2 points per dollar into "pe_1") and one user of it.
void seed(store& db) {
  REQUIRE(db.insert_merchant({"m_1", "key-1", "America/New_York", "2", "pe_1"}));
  REQUIRE(db.insert_user({"u_1", "m_1", "token-1"}));
}

purchase_row pending(const std::string& basket_id, int64_t points, int64_t due_at) {
  purchase_row row;
  row.source = "basket";
  row.merchant_id = "m_1";
  row.user_id = "u_1";
  row.basket_id = basket_id;
  row.amount = "10.00";
  row.points = points;
  row.points_experience_id = "pe_1";
  row.purchased_at = "2026-01-01T10:00:00Z";
  row.received_at = due_at - 1000;
  row.due_at = due_at;
  return row;
}

}  // namespace

TEST_CASE("a new file is created at the current schema and reopens with its data", "[store]") {
  temp_dir dir;
  const std::string path = dir.file("service.db");
  {
    store db(path);
    CHECK(db.opened_version() == 0);
    seed(db);
  }
  store reopened(path);
  CHECK(reopened.opened_version() == kSchemaVersion);
  REQUIRE(reopened.merchant("m_1"));
  CHECK(reopened.merchant("m_1")->points_per_dollar == "2");
  REQUIRE(reopened.user("u_1"));
  CHECK(reopened.user("u_1")->access_token == "token-1");
}

TEST_CASE("seeding a record whose key exists is refused and keeps the first record", "[store]") {
  temp_dir dir;
  store db(dir.file("service.db"));
  seed(db);
  CHECK_FALSE(db.insert_merchant({"m_1", "key-2", "Europe/Paris", "5", "pe_2"}));
  CHECK(db.merchant("m_1")->time_zone == "America/New_York");
  CHECK_FALSE(db.insert_user({"u_1", "m_1", "token-2"}));
  CHECK(db.user("u_1")->access_token == "token-1");

  CHECK(db.insert_location({"loc-uid", "loc_1", "m_1", std::nullopt}));
  CHECK_FALSE(db.insert_location({"loc-uid", "loc_2", "m_1", std::string("UTC")}));
  REQUIRE(db.locations_of("m_1").size() == 1);
  CHECK(db.locations_of("m_1")[0].id == "loc_1");
  CHECK_FALSE(db.locations_of("m_1")[0].time_zone);

  CHECK(db.insert_client("any", std::nullopt));
  CHECK(db.insert_client("own", std::string("m_1")));
  CHECK_FALSE(db.insert_client("own", std::nullopt));
  REQUIRE(db.clients().size() == 2);
  CHECK(db.clients()[1].merchant_id == std::optional<std::string>("m_1"));

  CHECK(db.insert_points_product("pp_1", "m_1", "{\"cost\":1}"));
  CHECK_FALSE(db.insert_points_product("pp_1", "m_1", "{\"cost\":2}"));
  CHECK(db.points_products_of("m_1")[0].record == "{\"cost\":1}");

  CHECK(db.insert_campaign({7, "camp_hash", "m_1", "{}", std::string("{\"min\":\"5\"}")}));
  CHECK_FALSE(db.insert_campaign({7, "other_hash", "m_1", "{}", std::nullopt}));
  REQUIRE(db.campaign_by_id(7));
  CHECK(db.campaign_by_id(7)->external_uid_hashid == "camp_hash");
  CHECK(db.triggered_campaigns_of("m_1").size() == 1);
}

TEST_CASE("points balances are listed in the order they were first seeded", "[store]") {
  temp_dir dir;
  store db(dir.file("service.db"));
  seed(db);
  CHECK(db.insert_points_balance("u_1", {"pe_b", 5}));
  CHECK(db.insert_points_balance("u_1", {"pe_a", 7}));
  CHECK_FALSE(db.insert_points_balance("u_1", {"pe_b", 99}));
  auto points = db.points_of("u_1");
  REQUIRE(points.size() == 2);
  CHECK(points[0].points_experience_id == "pe_b");
  CHECK(points[0].balance == 5);
  CHECK(points[1].points_experience_id == "pe_a");
}

TEST_CASE("a reward is redeemed once, by the first basket that asks", "[store]") {
  temp_dir dir;
  store db(dir.file("service.db"));
  seed(db);
  CHECK(db.insert_reward({"r_1", "u_1", "m_1", "redeemable", "{}", std::nullopt,
                          "2026-01-01T00:00:00Z", std::nullopt}));
  CHECK_FALSE(db.insert_reward(
      {"r_1", "u_1", "m_1", "expired", "{}", std::nullopt, "2026-01-02T00:00:00Z", std::nullopt}));
  CHECK(db.redeem_reward("r_1", "u_1", "b_1", "2026-01-03T00:00:00Z"));
  CHECK_FALSE(db.redeem_reward("r_1", "u_1", "b_2", "2026-01-03T00:00:01Z"));
  auto rewards = db.rewards_with_origin_of("u_1", "m_1");
  REQUIRE(rewards.size() == 1);
  CHECK(rewards[0].state == "redeemed");
  CHECK(rewards[0].redeemed_at == std::optional<std::string>("2026-01-03T00:00:00Z"));
  CHECK_FALSE(db.redeem_reward("r_missing", "u_1", "b_3", "2026-01-03T00:00:02Z"));
}

TEST_CASE("points are debited only when the balance covers them", "[store]") {
  temp_dir dir;
  store db(dir.file("service.db"));
  seed(db);
  REQUIRE(db.insert_points_balance("u_1", {"pe_1", 100}));
  CHECK_FALSE(db.debit_points("u_1", "pe_1", 101, "b_1", "2026-01-01T00:00:00Z"));
  CHECK(db.points_of("u_1")[0].balance == 100);
  CHECK(db.debit_points("u_1", "pe_1", 100, "b_1", "2026-01-01T00:00:00Z"));
  CHECK(db.points_of("u_1")[0].balance == 0);
  CHECK_FALSE(db.debit_points("u_1", "pe_1", 1, "b_2", "2026-01-01T00:00:01Z"));
  CHECK_FALSE(db.debit_points("u_1", "pe_other", 0, "b_3", "2026-01-01T00:00:02Z"));
}

TEST_CASE("a pending purchase counts toward the balance's bound and lands once", "[store]") {
  temp_dir dir;
  store db(dir.file("service.db"));
  seed(db);
  REQUIRE(db.insert_points_balance("u_1", {"pe_1", 10}));
  const int64_t first = db.insert_purchase(pending("b_1", 20, 5000));
  const int64_t second = db.insert_purchase(pending("b_2", 30, 9000));
  CHECK(second > first);
  CHECK(db.committed_and_pending_points("u_1", "pe_1") == 60);
  CHECK(db.next_due_ms() == std::optional<int64_t>(5000));

  auto due = db.due_purchases(5000);
  REQUIRE(due.size() == 1);
  CHECK(due[0].id == first);
  CHECK(due[0].basket_id == std::optional<std::string>("b_1"));
  CHECK_FALSE(due[0].location_id);
  CHECK(db.land_purchase(due[0], 5001, "2026-01-01T10:00:05Z"));
  CHECK_FALSE(db.land_purchase(due[0], 5002, "2026-01-01T10:00:05Z"));
  CHECK(db.points_of("u_1")[0].balance == 30);
  CHECK(db.committed_and_pending_points("u_1", "pe_1") == 60);
  CHECK(db.next_due_ms() == std::optional<int64_t>(9000));
  auto landed = db.landed_purchases_of("u_1");
  REQUIRE(landed.size() == 1);
  CHECK(landed[0].landed_at == std::optional<int64_t>(5001));
}

TEST_CASE("a purchase landing in a new points experience opens its balance", "[store]") {
  temp_dir dir;
  store db(dir.file("service.db"));
  seed(db);
  purchase_row row = pending("b_1", 4, 100);
  row.points_experience_id = "pe_new";
  row.id = db.insert_purchase(row);
  CHECK(db.land_purchase(row, 100, "2026-01-01T10:00:00Z"));
  auto points = db.points_of("u_1");
  REQUIRE(points.size() == 1);
  CHECK(points[0].points_experience_id == "pe_new");
  CHECK(points[0].balance == 4);
}

TEST_CASE("a basket is billed into the purchases once", "[store]") {
  temp_dir dir;
  store db(dir.file("service.db"));
  seed(db);
  db.insert_purchase(pending("b_1", 1, 100));
  CHECK_THROWS_AS(db.insert_purchase(pending("b_1", 1, 200)), database_error);
}

TEST_CASE("a reward triggered by a purchase is listed with it", "[store]") {
  temp_dir dir;
  store db(dir.file("service.db"));
  seed(db);
  REQUIRE(db.insert_campaign({7, "camp_hash", "m_1", "{}", std::nullopt}));
  const int64_t purchase = db.insert_purchase(pending("b_1", 1, 100));
  CHECK(db.insert_reward({"r_plain", "u_1", "m_1", "redeemable", "{}", std::nullopt,
                          "2026-01-01T00:00:00Z", std::nullopt}));
  CHECK(db.insert_reward(
      {"r_won", "u_1", "m_1", "redeemable", "{}", int64_t{7}, "2026-01-01T00:00:01Z", purchase}));
  auto triggered = db.triggered_rewards_of("u_1");
  REQUIRE(triggered.size() == 1);
  CHECK(triggered[0].first == purchase);
  CHECK(triggered[0].second == "r_won");
  CHECK(db.has_campaign_reward("u_1", 7));
  auto rewards = db.rewards_with_origin_of("u_1", "m_1");
  REQUIRE(rewards.size() == 2);
  CHECK_FALSE(rewards[0].campaign_hashid);
  CHECK(rewards[1].campaign_hashid == std::optional<std::string>("camp_hash"));
}

TEST_CASE("saving a basket again updates it, and only stale open baskets are dropped", "[store]") {
  temp_dir dir;
  store db(dir.file("service.db"));
  seed(db);
  basket_row old_open{"u_1",
                      "b_old",
                      "m_1",
                      "checkout",
                      "{}",
                      std::nullopt,
                      std::nullopt,
                      0,
                      std::nullopt,
                      "2026-01-01T00:00:00Z",
                      "2026-01-01T00:00:00Z"};
  basket_row billed = old_open;
  billed.id = "b_billed";
  billed.state = "billed";
  billed.billed_at = "2026-01-01T00:00:00Z";
  basket_row fresh = old_open;
  fresh.id = "b_fresh";
  fresh.updated_at = "2026-01-02T00:00:00Z";
  db.save_basket(old_open);
  db.save_basket(billed);
  db.save_basket(fresh);

  fresh.state = "placed";
  fresh.body = "{\"x\":1}";
  fresh.discount_cents = 250;
  db.save_basket(fresh);
  auto saved = db.basket("u_1", "b_fresh");
  REQUIRE(saved);
  CHECK(saved->state == "placed");
  CHECK(saved->discount_cents == 250);
  CHECK(db.open_baskets_of("u_1").count == 2);
  CHECK(db.open_baskets_of("u_1").bytes == 2 + 7);

  db.delete_open_baskets_before("u_1", "2026-01-01T12:00:00Z");
  CHECK_FALSE(db.basket("u_1", "b_old"));
  CHECK(db.basket("u_1", "b_billed"));
  CHECK(db.basket("u_1", "b_fresh"));
}

TEST_CASE("writes of a transaction that is not committed are not kept", "[store]") {
  temp_dir dir;
  store db(dir.file("service.db"));
  seed(db);
  {
    transaction tx(db.db());
    CHECK(db.insert_points_balance("u_1", {"pe_1", 10}));
  }
  CHECK(db.points_of("u_1").empty());
  {
    transaction tx(db.db());
    CHECK(db.insert_points_balance("u_1", {"pe_1", 10}));
    tx.commit();
  }
  CHECK(db.points_of("u_1").size() == 1);
}
