// Held rewards (a reward record's `hold`): a reward an order not confirmed yet has used never
// qualifies, with PENDING_ORDER (this device) or CLAIMED_ELSEWHERE (another kiosk); qualify,
// explain and best follow.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

#include "lq/qualifier.hpp"
#include "lq/time/instant.hpp"
#include "records.hpp"

namespace {

using lq_test::points_product;
using lq_test::reward;
using nlohmann::json;

const char* const kNow = "2026-03-02T09:00:00Z";

struct answers {
  json qualify;
  json explain;
};

answers ask(const json& snap, const json& request = {{"subtotal", 8}}) {
  lq::qualifier q;
  const auto load_error = q.set_snapshot(snap.dump());
  INFO((load_error ? load_error->message : std::string()));
  REQUIRE_FALSE(load_error.has_value());
  const lq::instant now = *lq::parse_rfc3339(kNow);
  const auto qualified = q.qualify_json(request.dump(), now);
  REQUIRE(qualified.ok());
  const auto explained = q.explain_json(request.dump(), now);
  REQUIRE(explained.ok());
  return {json::parse(*qualified), json::parse(*explained)};
}

json entry_of(const json& explain, const std::string& id) {
  for (const auto& entry : explain.at("entries")) {
    if (entry.at("id") == id) return entry;
  }
  FAIL("no entry " << id);
  return {};
}

std::vector<std::string> ids_of(const json& list) {
  std::vector<std::string> out;
  for (const auto& entity : list) out.push_back(entity.at("id"));
  return out;
}

}  // namespace

TEST_CASE("a reward held by a pending order does not qualify: PENDING_ORDER, and best moves on") {
  json snap = lq_test::base_snapshot();
  snap["rewards"] = json::array({reward("latte", {{"value", 5}, {"hold", "PENDING_ORDER"}}),
                                 reward("small", {{"value", 1}})});
  const answers a = ask(snap);
  CHECK(ids_of(a.qualify.at("rewards")) == std::vector<std::string>{"small"});
  const json latte = entry_of(a.explain, "latte");
  CHECK(latte.at("qualifies") == false);
  CHECK(latte.at("discount") == "5.00");  // what it would give, were it not held
  REQUIRE(latte.at("reasons").size() == 1);
  CHECK(latte.at("reasons")[0] ==
        json{{"code", "PENDING_ORDER"},
             {"message", "Already used by an order waiting to be confirmed."}});
  CHECK(a.explain.at("best") == "small");
}

TEST_CASE("a reward claimed at another kiosk does not qualify: CLAIMED_ELSEWHERE") {
  json snap = lq_test::base_snapshot();
  snap["rewards"] = json::array({reward("latte", {{"hold", "CLAIMED_ELSEWHERE"}})});
  const answers a = ask(snap);
  CHECK(a.qualify.at("rewards").empty());
  const json latte = entry_of(a.explain, "latte");
  REQUIRE(latte.at("reasons").size() == 1);
  CHECK(latte.at("reasons")[0] ==
        json{{"code", "CLAIMED_ELSEWHERE"}, {"message", "Already used at another kiosk."}});
  CHECK(a.explain.at("best").is_null());
}

TEST_CASE("hold null or absent holds nothing, and the held reward's entity does not echo it") {
  json snap = lq_test::base_snapshot();
  snap["rewards"] = json::array({reward("a", {{"hold", nullptr}}), reward("b")});
  const answers a = ask(snap);
  CHECK(ids_of(a.qualify.at("rewards")) == std::vector<std::string>{"a", "b"});
  snap["rewards"][0]["hold"] = "PENDING_ORDER";
  const answers held = ask(snap, json::object());  // kept alive: the loop reads into it
  for (const auto& entity : held.qualify.at("rewards")) {
    CHECK_FALSE(entity.contains("hold"));
  }
}

TEST_CASE("a held reward lists its other failing rules too") {
  json snap = lq_test::base_snapshot();
  snap["rewards"] = json::array(
      {reward("latte", {{"minimum", 20}, {"state", "redeemed"}, {"hold", "PENDING_ORDER"}})});
  const json latte = entry_of(ask(snap).explain, "latte");
  std::vector<std::string> codes;
  for (const auto& r : latte.at("reasons")) {
    codes.push_back(r.at("code"));
  }
  CHECK(codes == std::vector<std::string>{"NOT_REDEEMABLE", "PENDING_ORDER", "BELOW_MINIMUM"});
}

TEST_CASE("hold must be one of its two codes or null") {
  json snap = lq_test::base_snapshot();
  snap["rewards"] = json::array({reward("latte", {{"hold", "SOMEWHERE"}})});
  lq::qualifier q;
  auto error = q.set_snapshot(snap.dump());
  REQUIRE(error.has_value());
  CHECK(error->code == 422);
  CHECK(error->message == "rewards[0].hold must be PENDING_ORDER, CLAIMED_ELSEWHERE or null");
  snap["rewards"][0]["hold"] = true;
  error = q.set_snapshot(snap.dump());
  REQUIRE(error.has_value());
  CHECK(error->message.rfind("rewards[0].hold", 0) == 0);
}

TEST_CASE("points held by pending orders are taken off the balance: INSUFFICIENT_POINTS") {
  // 450 beans, two 200-bean orders pending: the hybrid gives the engine 50.
  json snap = lq_test::base_snapshot();
  snap["points"] = json::array({{{"points_experience_id", "pe"}, {"balance", 50}}});
  snap["points_products"] = json::array({points_product("two_off", 200)});
  const json entry = entry_of(ask(snap).explain, "two_off");
  REQUIRE(entry.at("reasons").size() == 1);
  CHECK(entry.at("reasons")[0].at("code") == "INSUFFICIENT_POINTS");
  CHECK(entry.at("reasons")[0].at("points_needed") == 150);
}
