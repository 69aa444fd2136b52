// Output (contract 3.4, API spec 2.2-2.4): entity fields, echoed values, defaults, ordering.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include <regex>
#include <set>
#include <string>
#include <vector>

#include "answer_fields.hpp"
#include "lq/qualifier.hpp"
#include "lq/time/instant.hpp"
#include "records.hpp"

namespace {

using lq_test::kPointsProductFields;
using lq_test::kRewardFields;
using lq_test::points_product;
using lq_test::reward;

using nlohmann::json;
using ids = std::vector<std::string>;

lq::instant now() {
  return *lq::parse_rfc3339("2026-03-02T09:00:00Z");
}

json base_snapshot() {
  return lq_test::base_snapshot(json::array());
}

lq::qualifier loaded(const std::string& snapshot_text) {
  lq::qualifier q;
  const auto error = q.set_snapshot(snapshot_text);
  INFO((error ? error->message : std::string()));
  REQUIRE_FALSE(error.has_value());
  return q;
}

std::string qualify_text(const std::string& snapshot_text, const json& request) {
  const lq::qualifier q = loaded(snapshot_text);
  const auto body = q.qualify_json(request.dump(), now());
  INFO((body.ok() ? std::string() : body.err().message));
  REQUIRE(body.ok());
  return *body;
}

json qualify(const json& snap, const json& request) {
  return json::parse(qualify_text(snap.dump(), request));
}

std::set<std::string> keys_of(const json& object) {
  std::set<std::string> keys;
  for (const auto& [key, value] : object.items()) keys.insert(key);
  return keys;
}

ids ids_of(const json& list) {
  ids out;
  for (const auto& entity : list) out.push_back(entity.at("id"));
  return out;
}

const json kSubtotal8 = {{"subtotal", 8}};

}  // namespace

TEST_CASE("the qualifying response holds exactly rewards and points_products") {
  json snap = base_snapshot();
  snap["rewards"].push_back(reward("a"));
  snap["points_products"].push_back(points_product("p", 10));
  const json out = qualify(snap, kSubtotal8);
  CHECK(keys_of(out) == std::set<std::string>{"rewards", "points_products"});
  CHECK(out.at("rewards").is_array());
  CHECK(out.at("points_products").is_array());
}

TEST_CASE("an empty basket gives two empty lists") {
  json snap = base_snapshot();
  snap["rewards"].push_back(reward("a"));
  snap["points_products"].push_back(points_product("p", 10));
  CHECK(qualify(snap, json::object()) ==
        json{{"rewards", json::array()}, {"points_products", json::array()}});
}

TEST_CASE("a reward entity carries exactly the fields of its table") {
  json snap = base_snapshot();
  snap["rewards"].push_back(
      reward("a", {{"user_id", "u"},
                   {"merchant_id", "m"},
                   {"redemption_venue", "all"},
                   {"handoff", nullptr},
                   {"starts_at", "2026-01-01T00:00:00Z"},
                   {"time_restrictions", json::array({{{"start", "00:00"}, {"end", "24:00"}}})},
                   {"item_kind", "free_item"},
                   {"categories", json::array({"coffee"})},
                   {"campaign", {{"id", 9}}},
                   {"points", 5}}));
  const json out = qualify(
      snap,
      {{"items",
        json::array({{{"id", "x"}, {"price", 8}, {"categories", json::array({"coffee"})}}})}});
  REQUIRE(out.at("rewards").size() == 1);
  CHECK(keys_of(out.at("rewards")[0]) == kRewardFields);
}

TEST_CASE("a points product entity carries exactly its fields, without retire_at") {
  json snap = base_snapshot();
  snap["points_products"].push_back(points_product("p", 10,
                                                   {{"points_experience_id", "pe"},
                                                    {"redemption_venue", "online"},
                                                    {"handoff", nullptr},
                                                    {"time_restrictions", json::array()},
                                                    {"item_kind", "free_item"},
                                                    {"categories", json::array()},
                                                    {"retire_at", "2030-01-01T00:00:00Z"},
                                                    {"sku", "X"}}));
  const json out = qualify(snap, kSubtotal8);
  REQUIRE(out.at("points_products").size() == 1);
  CHECK(keys_of(out.at("points_products")[0]) == kPointsProductFields);
}

TEST_CASE("entity values are echoed as stored, decimals in their JSON type") {
  const json stored_reward = reward("a", {{"value", "5.50"},
                                          {"minimum", "3.00"},
                                          {"maximum", 2.5},
                                          {"label", "Café \"☕\" \\ off\n"},
                                          {"fine_print", "Valid at <main> & online. \t"},
                                          {"products", json::array({"z", "a", "m"})},
                                          {"retire_at", "2026-03-05T01:00:00+05:00"},
                                          {"restriction_location_ids", json::array()}});
  const json stored_product = points_product("p", 100,
                                             {{"value", 4.25},
                                              {"minimum", nullptr},
                                              {"maximum", "9"},
                                              {"state", "unredeemable"},
                                              {"type", "percent"},
                                              {"products", json::array({"latte", "mocha"})},
                                              {"fine_print", "fp"},
                                              {"label", "Ten percent"}});
  json snap = base_snapshot();
  snap["rewards"].push_back(stored_reward);
  snap["points_products"].push_back(stored_product);

  // Both records are restricted to products: the basket holds some.
  const json out = qualify(
      snap,
      {{"subtotal", 16},
       {"items", json::array({{{"id", "z"}, {"price", 8}}, {{"id", "latte"}, {"price", 8}}})}});
  REQUIRE(out.at("rewards").size() == 1);
  REQUIRE(out.at("points_products").size() == 1);
  const json& r = out.at("rewards")[0];
  CHECK(r == stored_reward);
  CHECK(r.at("value").is_string());
  CHECK(r.at("minimum").is_string());
  CHECK(r.at("maximum").is_number());
  const json& p = out.at("points_products")[0];
  CHECK(p == stored_product);
  CHECK(p.at("value").is_number());
  CHECK(p.at("maximum") == "9");
  CHECK(p.at("state") == "unredeemable");
  CHECK(p.at("points").is_number_integer());
}

TEST_CASE("numbers are echoed with their original JSON text") {
  const std::string snapshot = R"({
    "schema_version": 1,
    "merchant": {"id": "m"},
    "user": {"id": "u"},
    "points": [{"points_experience_id": "pe", "balance": 300}],
    "rewards": [{"id": "r", "value": 4.20, "minimum": 1e0, "maximum": 10.500,
                 "label": "r", "state": "redeemable", "type": "amount", "products": [],
                 "fine_print": "", "retire_at": null, "restriction_location_ids": []}],
    "points_products": [{"id": "p", "points": 100, "value": 1.50, "minimum": null,
                         "maximum": 2E1, "label": "p", "state": "redeemable", "type": "amount",
                         "products": [], "fine_print": "", "restriction_location_ids": []}]
  })";
  const std::string body = qualify_text(snapshot, kSubtotal8);
  INFO(body);
  const auto has = [&](const char* pattern) {
    return std::regex_search(body, std::regex(pattern));
  };
  CHECK(has(R"("value"\s*:\s*4\.20[\s,}])"));
  CHECK(has(R"("minimum"\s*:\s*1e0[\s,}])"));
  CHECK(has(R"("maximum"\s*:\s*10\.500[\s,}])"));
  CHECK(has(R"("value"\s*:\s*1\.50[\s,}])"));
  CHECK(has(R"("maximum"\s*:\s*2E1[\s,}])"));
  CHECK(has(R"("points"\s*:\s*100[\s,}])"));

  const lq::qualifier q = loaded(snapshot);
  const std::string entities = q.entities_json();
  CHECK(std::regex_search(entities, std::regex(R"("value"\s*:\s*4\.20[\s,}])")));
}

TEST_CASE("fields missing from a record are output as their defaults") {
  json snap = base_snapshot();
  snap["rewards"].push_back({{"id", "r"}, {"type", "amount"}, {"value", 3}});
  snap["points_products"].push_back(
      {{"id", "p"}, {"points", 10}, {"type", "amount"}, {"value", 1}});
  const json out = qualify(snap, kSubtotal8);
  REQUIRE(out.at("rewards").size() == 1);
  CHECK(out.at("rewards")[0] == json{{"id", "r"},
                                     {"value", 3},
                                     {"minimum", nullptr},
                                     {"maximum", nullptr},
                                     {"label", ""},
                                     {"state", "redeemable"},
                                     {"type", "amount"},
                                     {"products", json::array()},
                                     {"fine_print", ""},
                                     {"retire_at", nullptr},
                                     {"restriction_location_ids", json::array()}});
  REQUIRE(out.at("points_products").size() == 1);
  CHECK(out.at("points_products")[0] == json{{"id", "p"},
                                             {"points", 10},
                                             {"value", 1},
                                             {"minimum", nullptr},
                                             {"maximum", nullptr},
                                             {"label", ""},
                                             {"state", "redeemable"},
                                             {"type", "amount"},
                                             {"products", json::array()},
                                             {"fine_print", ""},
                                             {"restriction_location_ids", json::array()}});
}

TEST_CASE("a record with only an id is listed with value 0 and an empty type") {
  json snap = base_snapshot();
  snap["rewards"].push_back({{"id", "bare"}});
  const lq::qualifier q = loaded(snap.dump());
  const json entities = json::parse(q.entities_json());
  REQUIRE(entities.at("rewards").size() == 1);
  const json& r = entities.at("rewards")[0];
  CHECK(keys_of(r) == kRewardFields);
  CHECK(r.at("value") == 0);
  CHECK(r.at("type") == "");
  CHECK(r.at("label") == "");
  CHECK(r.at("state") == "redeemable");
  CHECK(r.at("retire_at").is_null());
}

TEST_CASE("rewards are ordered by retire_at as time, null last, then id") {
  json snap = base_snapshot();
  for (const json& r : {
           reward("never_b"),
           reward("never_a"),
           reward("z_late", {{"retire_at", "2026-03-04T21:00:00Z"}}),
           reward("y_offset", {{"retire_at", "2026-03-05T01:00:00+05:00"}}),  // 03-04T20:00Z
           reward("x_same", {{"retire_at", "2026-03-04T16:00:00-05:00"}}),    // 03-04T21:00Z
           reward("w_fraction", {{"retire_at", "2026-03-04T21:00:00.5Z"}}),
           reward("B_upper", {{"retire_at", "2026-03-04T21:00:00Z"}}),
           reward("soonest", {{"retire_at", "2026-03-02T09:00:01Z"}}),
       }) {
    snap["rewards"].push_back(r);
  }
  const ids expected = {"soonest", "y_offset",   "B_upper", "x_same",
                        "z_late",  "w_fraction", "never_a", "never_b"};
  CHECK(ids_of(qualify(snap, kSubtotal8).at("rewards")) == expected);

  const lq::qualifier q = loaded(snap.dump());
  CHECK(ids_of(json::parse(q.entities_json()).at("rewards")) == expected);
}

TEST_CASE("points products are ordered by points, then id") {
  json snap = base_snapshot();
  for (const json& p :
       {points_product("mug", 250), points_product("cookie", 100), points_product("b", 200),
        points_product("a", 200), points_product("free", 0), points_product("B", 200)}) {
    snap["points_products"].push_back(p);
  }
  const ids expected = {"free", "cookie", "B", "a", "b", "mug"};
  CHECK(ids_of(qualify(snap, kSubtotal8).at("points_products")) == expected);

  const lq::qualifier q = loaded(snap.dump());
  CHECK(ids_of(json::parse(q.entities_json()).at("points_products")) == expected);
}

TEST_CASE("entities_json lists every offer, qualifying or not") {
  json snap = base_snapshot();
  snap["rewards"].push_back(reward("expired", {{"retire_at", "2020-01-01T00:00:00Z"}}));
  snap["rewards"].push_back(reward("used", {{"state", "unredeemable"}}));
  snap["rewards"].push_back(reward("theirs", {{"user_id", "somebody"}}));
  snap["points_products"].push_back(points_product("costly", 100000));
  const lq::qualifier q = loaded(snap.dump());
  const json entities = json::parse(q.entities_json());
  CHECK(keys_of(entities) == std::set<std::string>{"rewards", "points_products"});
  CHECK(ids_of(entities.at("rewards")) == ids{"expired", "theirs", "used"});
  CHECK(ids_of(entities.at("points_products")) == ids{"costly"});
  for (const auto& r : entities.at("rewards")) CHECK(keys_of(r) == kRewardFields);
  for (const auto& p : entities.at("points_products")) CHECK(keys_of(p) == kPointsProductFields);
  CHECK(entities.at("rewards")[0] == reward("expired", {{"retire_at", "2020-01-01T00:00:00Z"}}));

  const json out = qualify(snap, kSubtotal8);
  CHECK(out.at("rewards").empty());
  CHECK(out.at("points_products").empty());
}

TEST_CASE("the qualifying lists keep output order among the offers that qualify") {
  json snap = base_snapshot();
  snap["rewards"].push_back(reward("c", {{"retire_at", "2026-03-03T00:00:00Z"}}));
  snap["rewards"].push_back(reward("a", {{"retire_at", "2026-03-04T00:00:00Z"}, {"minimum", 50}}));
  snap["rewards"].push_back(reward("b"));
  snap["rewards"].push_back(reward("d", {{"retire_at", "2026-03-05T00:00:00Z"}}));
  snap["points_products"].push_back(points_product("x", 20));
  snap["points_products"].push_back(points_product("y", 10, {{"minimum", 50}}));
  snap["points_products"].push_back(points_product("z", 5));
  const json out = qualify(snap, kSubtotal8);
  CHECK(ids_of(out.at("rewards")) == ids{"c", "d", "b"});
  CHECK(ids_of(out.at("points_products")) == ids{"z", "x"});
}
