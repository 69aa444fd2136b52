// Discounts (contract 3.3): exact decimals, caps (maximum, then base), half-up cents, rule 9 codes.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <string>
#include <vector>

#include "lq/qualifier.hpp"
#include "lq/time/instant.hpp"
#include "readers/snapshot_reader.hpp"
#include "records.hpp"

namespace {

using nlohmann::json;
using codes = std::vector<std::string>;

json base_snapshot() {
  return lq_test::base_snapshot(json::array());
}

json reward(const json& fields) {
  json r = {{"id", "r"},
            {"value", 0},
            {"minimum", nullptr},
            {"maximum", nullptr},
            {"label", "r"},
            {"state", "redeemable"},
            {"type", "amount"},
            {"products", json::array()},
            {"fine_print", ""},
            {"retire_at", nullptr},
            {"restriction_location_ids", json::array()}};
  r.update(fields);
  return r;
}

json item(const std::string& id, const json& fields = json::object()) {
  json i = {{"id", id}, {"name", id}, {"categories", json::array()}};
  i.update(fields);
  return i;
}

json items(std::initializer_list<json> list) {
  json request = {{"items", json::array()}};
  for (const auto& i : list) request["items"].push_back(i);
  return request;
}

json with_subtotal(json request, const json& subtotal) {
  request["subtotal"] = subtotal;
  return request;
}

struct outcome {
  std::string discount;
  codes reasons;
  bool qualifies = false;
  bool returned = false;
};

/// The explain entry and qualify membership of the one offer in `snap`.
outcome evaluate(const json& snap, const json& request, const std::string& id = "r") {
  lq::qualifier q;
  const auto load_error = q.set_snapshot(snap.dump());
  INFO((load_error ? load_error->message : std::string()));
  REQUIRE_FALSE(load_error.has_value());
  const lq::instant now = *lq::parse_rfc3339("2026-03-02T09:00:00Z");

  const auto body = q.qualify_json(request.dump(), now);
  INFO((body.ok() ? std::string() : body.err().message));
  REQUIRE(body.ok());
  const json out = json::parse(*body);
  outcome o;
  for (const char* list : {"rewards", "points_products"})
    for (const auto& entity : out.at(list)) o.returned = o.returned || entity.at("id") == id;

  const auto explained = q.explain_json(request.dump(), now);
  REQUIRE(explained.ok());
  const json entries = json::parse(*explained).at("entries");
  for (const auto& entry : entries) {
    if (entry.at("id") != id) continue;
    o.discount = entry.at("discount").get<std::string>();
    o.qualifies = entry.at("qualifies");
    for (const auto& r : entry.at("reasons")) o.reasons.push_back(r.at("code"));
  }
  std::sort(o.reasons.begin(), o.reasons.end());
  return o;
}

/// Asserts the discount of reward `record` on `request`, and that it qualifies exactly when
/// `expected_reasons` is empty.
void check_discount(const json& record, const json& request, const std::string& expected_discount,
                    codes expected_reasons = {}) {
  json snap = base_snapshot();
  snap["rewards"].push_back(record);
  INFO("reward " << record.dump() << "\nrequest " << request.dump());
  const outcome o = evaluate(snap, request);
  std::sort(expected_reasons.begin(), expected_reasons.end());
  CHECK(o.discount == expected_discount);
  CHECK(o.reasons == expected_reasons);
  CHECK(o.qualifies == expected_reasons.empty());
  CHECK(o.returned == expected_reasons.empty());
}

/// latte 4.20 x2 with oat milk 0.50 (full price 4.70 a unit), bagel 3.00: 12.40 in all.
json cafe_basket() {
  return items({item("latte", {{"price", "4.20"},
                               {"quantity", 2},
                               {"categories", json::array({"coffee"})},
                               {"modifiers", json::array({{{"id", "oat"}, {"price", "0.50"}}})}}),
                item("bagel", {{"price", 3}, {"categories", json::array({"food"})}})});
}

}  // namespace

// ---- amount ----

TEST_CASE("an amount reward takes its value, capped by the base") {
  check_discount(reward({{"value", 3}}), {{"subtotal", 8}}, "3.00");
  check_discount(reward({{"value", "5.50"}}), {{"subtotal", 8}}, "5.50");
  check_discount(reward({{"value", 10}}), {{"subtotal", 8}}, "8.00");
  check_discount(reward({{"value", "3.333"}}), {{"subtotal", 8}}, "3.33");
  check_discount(reward({{"value", "3.335"}}), {{"subtotal", 8}}, "3.34");
  check_discount(reward({{"value", 0}}), {{"subtotal", 8}}, "0.00", {"ZERO_DISCOUNT"});
}

TEST_CASE("without a subtotal the base is the sum of every unit's full price") {
  check_discount(reward({{"value", 100}}), cafe_basket(), "12.40");
  check_discount(reward({{"value", 100}, {"type", "percent"}}), cafe_basket(), "12.40");
  check_discount(reward({{"value", 10}, {"type", "percent"}}), cafe_basket(), "1.24");
}

TEST_CASE("a subtotal replaces the item sum as the base") {
  check_discount(reward({{"value", 100}}), with_subtotal(cafe_basket(), 5), "5.00");
  check_discount(reward({{"value", 10}, {"type", "percent"}}), with_subtotal(cafe_basket(), 5),
                 "0.50");
  check_discount(reward({{"value", 10}, {"type", "percent"}}), with_subtotal(cafe_basket(), 50),
                 "5.00");
}

TEST_CASE("an item without a price counts 0 in the base") {
  check_discount(reward({{"value", 100}}), items({item("latte"), item("bagel", {{"price", 3}})}),
                 "3.00");
}

TEST_CASE("modifiers belong to each unit of their item") {
  check_discount(
      reward({{"value", 100}}),
      items({item("bagel", {{"price", 3},
                            {"quantity", 2},
                            {"modifiers", json::array({{{"id", "cheese"}, {"price", "0.5"}},
                                                       {{"id", "jam"}}})}})}),
      "7.00");
}

TEST_CASE("a restricted amount is capped by the matching units' full prices") {
  const json big_subtotal = with_subtotal(cafe_basket(), 100);
  check_discount(reward({{"value", 100}, {"products", json::array({"latte"})}}), big_subtotal,
                 "9.40");
  check_discount(reward({{"value", 5}, {"products", json::array({"latte"})}}), big_subtotal,
                 "5.00");
  check_discount(reward({{"value", 100}, {"categories", json::array({"food"})}}), big_subtotal,
                 "3.00");
  check_discount(reward({{"value", 100},
                         {"products", json::array({"latte"})},
                         {"categories", json::array({"food"})}}),
                 big_subtotal, "12.40");
  check_discount(reward({{"value", 100},
                         {"products", json::array({"bagel"})},
                         {"categories", json::array({"food"})}}),
                 big_subtotal, "3.00");
}

TEST_CASE("the base caps a restricted discount too") {
  check_discount(reward({{"value", 100}, {"products", json::array({"latte"})}}),
                 with_subtotal(cafe_basket(), 6), "6.00");
  check_discount(
      reward({{"value", 100}, {"products", json::array({"latte"})}, {"type", "percent"}}),
      with_subtotal(cafe_basket(), 6), "6.00");
}

// ---- percent ----

TEST_CASE("a percent reward takes a share of the base") {
  check_discount(reward({{"type", "percent"}, {"value", 10}}), {{"subtotal", "8.25"}}, "0.83");
  check_discount(reward({{"type", "percent"}, {"value", 15}}), {{"subtotal", "9.99"}}, "1.50");
  check_discount(reward({{"type", "percent"}, {"value", "12.5"}}), {{"subtotal", "10.01"}}, "1.25");
  check_discount(reward({{"type", "percent"}, {"value", "33.33"}}), {{"subtotal", 10}}, "3.33");
  check_discount(reward({{"type", "percent"}, {"value", 100}}), {{"subtotal", "7.77"}}, "7.77");
}

TEST_CASE("a percent over 100 is capped by the base") {
  check_discount(reward({{"type", "percent"}, {"value", 150}}), {{"subtotal", 10}}, "10.00");
}

TEST_CASE("a restricted percent applies to the matching units only") {
  const json basket = with_subtotal(cafe_basket(), 100);
  check_discount(reward({{"type", "percent"}, {"value", 50}, {"products", json::array({"latte"})}}),
                 basket, "4.70");
  check_discount(
      reward({{"type", "percent"}, {"value", 50}, {"categories", json::array({"food", "tea"})}}),
      basket, "1.50");
  check_discount(
      reward({{"type", "percent"}, {"value", 10}, {"products", json::array({"latte"})}}),
      items({item("latte", {{"price", 2}, {"quantity", 3}}), item("cake", {{"price", 9}})}),
      "0.60");
}

TEST_CASE("discounts round half-up to cents from the exact figure") {
  // 1.005 is the classic binary floating point trap.
  check_discount(reward({{"type", "percent"}, {"value", 50}}), {{"subtotal", "2.01"}}, "1.01");
  check_discount(reward({{"type", "percent"}, {"value", 10}}), {{"subtotal", "10.05"}}, "1.01");
  check_discount(reward({{"type", "percent"}, {"value", 50}}), {{"subtotal", "2.009"}}, "1.00");
  check_discount(reward({{"type", "percent"}, {"value", 1}}), {{"subtotal", "0.50"}}, "0.01");
  check_discount(reward({{"type", "percent"}, {"value", 1}}), {{"subtotal", "0.49"}}, "0.00",
                 {"ZERO_DISCOUNT"});
}

TEST_CASE("0.1 + 0.2 is exactly 0.30 in a basket") {
  const json basket = items({item("a", {{"price", 0.1}}), item("b", {{"price", 0.2}})});
  check_discount(reward({{"value", 100}}), basket, "0.30");
  check_discount(reward({{"type", "percent"}, {"value", 100}}), basket, "0.30");
  check_discount(reward({{"type", "percent"}, {"value", 50}}), basket, "0.15");
}

TEST_CASE("large baskets stay exact") {
  const json basket = items({item("crate", {{"price", "999999.99"}, {"quantity", 1000000000}})});
  check_discount(reward({{"type", "percent"}, {"value", 100}}), basket, "999999990000000.00");
  check_discount(reward({{"value", "0.01"}}), basket, "0.01");
}

// ---- maximum ----

TEST_CASE("maximum caps the discount before the base, and before rounding") {
  check_discount(reward({{"type", "percent"}, {"value", 50}, {"maximum", 4}}), {{"subtotal", 20}},
                 "4.00");
  check_discount(reward({{"type", "percent"}, {"value", 50}, {"maximum", "2.505"}}),
                 {{"subtotal", 20}}, "2.51");
  check_discount(reward({{"type", "percent"}, {"value", 50}, {"maximum", "2.5049"}}),
                 {{"subtotal", 20}}, "2.50");
  check_discount(reward({{"value", 10}, {"maximum", 20}}), {{"subtotal", 6}}, "6.00");
  check_discount(reward({{"value", 10}, {"maximum", nullptr}}), {{"subtotal", 60}}, "10.00");
  check_discount(reward({{"value", 10}, {"maximum", 0}}), {{"subtotal", 60}}, "0.00",
                 {"ZERO_DISCOUNT"});
  check_discount(reward({{"value", 10}, {"maximum", "0.004"}}), {{"subtotal", 60}}, "0.00",
                 {"ZERO_DISCOUNT"});
  check_discount(reward({{"type", "item"}, {"value", 0}, {"maximum", 2}}),
                 items({item("latte", {{"price", "4.20"}})}), "2.00");
}

// ---- item: free_item ----

namespace {

/// latte 4.20 + an extra shot 1.00 (full price 5.20), mocha 4.80, bagel 3.00.
json coffee_basket() {
  return items({item("latte", {{"price", "4.20"},
                               {"categories", json::array({"coffee"})},
                               {"modifiers", json::array({{{"id", "shot"}, {"price", "1.00"}}})}}),
                item("mocha", {{"price", "4.80"}, {"categories", json::array({"coffee"})}}),
                item("bagel", {{"price", "3.00"}, {"categories", json::array({"food"})}})});
}

}  // namespace

TEST_CASE("a free item is the most expensive matching unit, by unit price") {
  const json latte_or_mocha = {{"type", "item"}, {"products", json::array({"latte", "mocha"})}};
  json record = reward(latte_or_mocha);
  check_discount(record, coffee_basket(), "4.80");
  record["value"] = 4;
  check_discount(record, coffee_basket(), "4.00");
  record["value"] = 10;
  check_discount(record, coffee_basket(), "4.80");
  record["item_kind"] = "free_item";
  check_discount(record, coffee_basket(), "4.80");
  check_discount(reward({{"type", "item"}, {"products", json::array({"latte"})}}), coffee_basket(),
                 "4.20");
  check_discount(reward({{"type", "item"}, {"categories", json::array({"food"})}}), coffee_basket(),
                 "3.00");
}

TEST_CASE("an unrestricted free item matches every unit") {
  check_discount(reward({{"type", "item"}}), coffee_basket(), "4.80");
}

TEST_CASE("a free item is one unit, whatever the quantity") {
  check_discount(reward({{"type", "item"}, {"products", json::array({"latte"})}}),
                 items({item("latte", {{"price", "4.20"}, {"quantity", 3}})}), "4.20");
}

TEST_CASE("a free item is capped by the base") {
  check_discount(reward({{"type", "item"}, {"products", json::array({"mocha"})}}),
                 with_subtotal(coffee_basket(), 3), "3.00");
}

TEST_CASE("a free item needs a priced matching unit") {
  const json free_latte =
      reward({{"type", "item"}, {"value", 5}, {"products", json::array({"latte"})}});
  check_discount(free_latte, items({item("latte"), item("bagel", {{"price", 3}})}), "0.00",
                 {"ITEM_PRICE_MISSING"});
  check_discount(free_latte, with_subtotal(items({item("latte")}), 20), "0.00",
                 {"ITEM_PRICE_MISSING"});
  check_discount(free_latte, items({item("bagel", {{"price", 3}})}), "0.00", {"NO_MATCHING_ITEM"});
  check_discount(free_latte, {{"subtotal", 20}}, "0.00", {"NO_MATCHING_ITEM"});
  check_discount(free_latte, items({item("latte", {{"price", 0}})}), "0.00", {"ZERO_DISCOUNT"});
  check_discount(free_latte, items({item("latte", {{"price", "0.004"}})}), "0.00",
                 {"ZERO_DISCOUNT"});
  check_discount(free_latte, items({item("latte", {{"price", "0.005"}})}), "0.01");
  // One priced matching unit is enough.
  check_discount(free_latte, items({item("latte"), item("latte", {{"price", "4.20"}})}), "4.20");
}

// ---- item: bogo ----

TEST_CASE("bogo needs two matching units") {
  const json bogo =
      reward({{"type", "item"}, {"item_kind", "bogo"}, {"products", json::array({"bagel"})}});
  check_discount(bogo, items({item("bagel", {{"price", 3}})}), "0.00", {"NO_MATCHING_ITEM"});
  check_discount(
      bogo, items({item("bagel", {{"price", 3}}), item("coffee", {{"price", 2}, {"quantity", 5}})}),
      "0.00", {"NO_MATCHING_ITEM"});
  check_discount(bogo, items({item("bagel", {{"price", 3}, {"quantity", 2}})}), "3.00");
  check_discount(bogo, items({item("bagel", {{"price", 3}}), item("bagel", {{"price", 3}})}),
                 "3.00");
}

TEST_CASE("bogo gives the second most expensive matching unit, by unit price") {
  const json bogo = reward(
      {{"type", "item"}, {"item_kind", "bogo"}, {"products", json::array({"bagel", "croissant"})}});
  check_discount(bogo, items({item("bagel", {{"price", 3}}), item("croissant", {{"price", 4}})}),
                 "3.00");
  check_discount(
      bogo,
      items({item("bagel", {{"price", 3}}), item("croissant", {{"price", 4}, {"quantity", 2}})}),
      "4.00");
  // Unit prices 4, 3, 3; full prices would be 4, 4.50, 4.50.
  check_discount(
      bogo,
      items({item("croissant", {{"price", 4}}),
             item("bagel", {{"price", 3},
                            {"quantity", 2},
                            {"modifiers", json::array({{{"id", "cream"}, {"price", "1.50"}}})}})}),
      "3.00");
  json capped = bogo;
  capped["value"] = 2;
  check_discount(capped, items({item("bagel", {{"price", 3}}), item("croissant", {{"price", 4}})}),
                 "2.00");
  check_discount(reward({{"type", "item"}, {"item_kind", "bogo"}}),
                 items({item("tea", {{"price", "2.50"}}), item("cake", {{"price", 6}})}), "2.50");
}

TEST_CASE("bogo needs priced matching units") {
  const json bogo =
      reward({{"type", "item"}, {"item_kind", "bogo"}, {"products", json::array({"bagel"})}});
  check_discount(bogo, items({item("bagel", {{"quantity", 2}})}), "0.00", {"ITEM_PRICE_MISSING"});
  check_discount(bogo, items({item("bagel")}), "0.00", {"NO_MATCHING_ITEM"});
}

// ---- item: modifier ----

namespace {

/// latte 4.20 with oat 0.60, shot 0.90, syrup 0.50.
json modifier_basket() {
  return items(
      {item("latte", {{"price", "4.20"},
                      {"categories", json::array({"coffee"})},
                      {"modifiers", json::array({{{"id", "oat"}, {"price", "0.60"}},
                                                 {{"id", "shot"}, {"price", "0.90"}},
                                                 {{"id", "syrup"}, {"price", "0.50"}}})}})});
}

json modifier_reward(const json& fields) {
  json r = reward({{"type", "item"}, {"item_kind", "modifier"}});
  r.update(fields);
  return r;
}

}  // namespace

TEST_CASE("a modifier reward gives the most expensive modifier listed in products") {
  check_discount(modifier_reward({{"products", json::array({"oat", "syrup"})}}), modifier_basket(),
                 "0.60");
  check_discount(modifier_reward({{"products", json::array({"oat", "syrup"})}, {"value", "0.55"}}),
                 modifier_basket(), "0.55");
  check_discount(modifier_reward({{"products", json::array({"shot"})}, {"value", 5}}),
                 modifier_basket(), "0.90");
}

TEST_CASE("a modifier reward without products or categories matches every modifier") {
  check_discount(modifier_reward(json::object()), modifier_basket(), "0.90");
}

TEST_CASE("a modifier reward with only categories matches no modifier") {
  check_discount(modifier_reward({{"categories", json::array({"coffee"})}}), modifier_basket(),
                 "0.00", {"NO_MATCHING_ITEM"});
}

TEST_CASE("a modifier reward matches modifier ids, not item ids") {
  check_discount(modifier_reward({{"products", json::array({"latte"})}}), modifier_basket(), "0.00",
                 {"NO_MATCHING_ITEM"});
  check_discount(modifier_reward(
                     {{"products", json::array({"oat"})}, {"categories", json::array({"coffee"})}}),
                 modifier_basket(), "0.60");
  check_discount(modifier_reward({{"products", json::array({"oat"})}}),
                 items({item("latte", {{"price", "4.20"}})}), "0.00", {"NO_MATCHING_ITEM"});
}

TEST_CASE("a modifier reward looks at the modifiers of every item") {
  const json basket =
      items({item("latte",
                  {{"price", 4}, {"modifiers", json::array({{{"id", "oat"}, {"price", "0.60"}}})}}),
             item("mocha", {{"price", 5},
                            {"quantity", 3},
                            {"modifiers", json::array({{{"id", "oat"}, {"price", "0.70"}}})}})});
  check_discount(modifier_reward({{"products", json::array({"oat"})}}), basket, "0.70");
}

TEST_CASE("a modifier reward needs a priced matching modifier") {
  const json basket =
      items({item("latte", {{"price", 4}, {"modifiers", json::array({{{"id", "oat"}}})}})});
  check_discount(modifier_reward({{"products", json::array({"oat"})}}), basket, "0.00",
                 {"ITEM_PRICE_MISSING"});
}

TEST_CASE("a modifier discount on an item without a price resolves to 0") {
  // API spec 2.1: without the item's price, a modifier discount resolves to 0.
  json snap = base_snapshot();
  snap["rewards"].push_back(modifier_reward({{"products", json::array({"oat"})}}));
  const outcome o = evaluate(
      snap,
      items({item("latte", {{"modifiers", json::array({{{"id", "oat"}, {"price", "0.60"}}})}})}));
  CHECK(o.discount == "0.00");
  CHECK_FALSE(o.qualifies);
  CHECK_FALSE(o.returned);
  CHECK(o.reasons.size() == 1);
}

// ---- fixed_price ----

TEST_CASE("a fixed price discounts the most expensive matching unit down to the value") {
  const json latte =
      reward({{"type", "fixed_price"}, {"value", 2}, {"products", json::array({"latte"})}});
  check_discount(latte, cafe_basket(), "2.70");  // full price 4.70
  check_discount(latte, items({item("latte", {{"price", "4.20"}})}), "2.20");
  check_discount(
      reward({{"type", "fixed_price"}, {"value", 2}, {"products", json::array({"bagel"})}}),
      cafe_basket(), "1.00");
  check_discount(
      reward({{"type", "fixed_price"}, {"value", 0}, {"products", json::array({"bagel"})}}),
      cafe_basket(), "3.00");
}

TEST_CASE("an unrestricted fixed price applies to every unit") {
  check_discount(reward({{"type", "fixed_price"}, {"value", 2}}), cafe_basket(), "2.70");
  check_discount(reward({{"type", "fixed_price"}, {"value", 2}}),
                 items({item("bagel", {{"price", 3}}), item("cake", {{"price", "6.10"}})}), "4.10");
}

TEST_CASE("a fixed price never goes below zero") {
  check_discount(
      reward({{"type", "fixed_price"}, {"value", 5}, {"products", json::array({"latte"})}}),
      cafe_basket(), "0.00", {"ZERO_DISCOUNT"});
  check_discount(
      reward({{"type", "fixed_price"}, {"value", "4.70"}, {"products", json::array({"latte"})}}),
      cafe_basket(), "0.00", {"ZERO_DISCOUNT"});
  check_discount(
      reward({{"type", "fixed_price"}, {"value", "4.695"}, {"products", json::array({"latte"})}}),
      cafe_basket(), "0.01");
}

TEST_CASE("a fixed price is capped by maximum and base") {
  check_discount(reward({{"type", "fixed_price"}, {"value", 2}, {"maximum", 1}}), cafe_basket(),
                 "1.00");
  check_discount(reward({{"type", "fixed_price"}, {"value", 2}}),
                 with_subtotal(cafe_basket(), "0.5"), "0.50");
}

TEST_CASE("a fixed price with no matching unit gives nothing") {
  check_discount(
      reward({{"type", "fixed_price"}, {"value", 2}, {"products", json::array({"tea"})}}),
      cafe_basket(), "0.00", {"NO_MATCHING_ITEM"});
}

// ---- unsupported ----

TEST_CASE("an unknown type or item_kind never qualifies") {
  check_discount(reward({{"type", "bundle"}, {"value", 3}}), {{"subtotal", 8}}, "0.00",
                 {"UNSUPPORTED_TYPE"});
  check_discount(reward({{"type", "item"}, {"item_kind", "mystery"}, {"value", 3}}), cafe_basket(),
                 "0.00", {"UNSUPPORTED_TYPE"});
  check_discount(reward({{"type", "AMOUNT"}, {"value", 3}}), {{"subtotal", 8}}, "0.00",
                 {"UNSUPPORTED_TYPE"});
  json untyped = reward({{"value", 3}});
  untyped.erase("type");
  check_discount(untyped, {{"subtotal", 8}}, "0.00", {"UNSUPPORTED_TYPE"});
}

// ---- discount unknown ----

TEST_CASE("a record marked discount_unknown never qualifies, whatever its fields") {
  check_discount(reward({{"type", "amount"}, {"value", 3}, {"discount_unknown", true}}),
                 {{"subtotal", 8}}, "0.00", {"DISCOUNT_UNKNOWN"});
  json bare = reward({{"discount_unknown", true}});
  bare.erase("type");
  bare.erase("value");
  check_discount(bare, cafe_basket(), "0.00", {"DISCOUNT_UNKNOWN"});
  // false and null are the default: computed as usual.
  check_discount(reward({{"value", 3}, {"discount_unknown", false}}), {{"subtotal", 8}}, "3.00");
  check_discount(reward({{"value", 3}, {"discount_unknown", nullptr}}), {{"subtotal", 8}}, "3.00");
}

TEST_CASE("discount_unknown ranks after an empty basket and before every other rule-9 code") {
  check_discount(reward({{"type", "bundle"}, {"discount_unknown", true}}), json::object(), "0.00",
                 {"EMPTY_BASKET"});
  check_discount(
      reward({{"type", "bundle"}, {"products", json::array({"tea"})}, {"discount_unknown", true}}),
      cafe_basket(), "0.00", {"DISCOUNT_UNKNOWN"});
}

TEST_CASE("a points product of unknown discount: affordable or not, other rules still reported") {
  json snap = base_snapshot();
  snap["points"] = json::array({{{"points_experience_id", "pe"}, {"balance", 100}}});
  json mug = lq_test::points_product("mug", 50);
  mug.erase("type");
  mug.erase("value");
  mug["discount_unknown"] = true;
  json dear = mug;
  dear["id"] = "dear";
  dear["points"] = 500;
  dear["redemption_venue"] = "instore";
  snap["points_products"] = json::array({mug, dear});
  lq::qualifier engine;
  REQUIRE_FALSE(engine.set_snapshot(snap.dump()));
  auto explained =
      engine.explain_json(R"({"subtotal": "20.00", "items": [{"id": "x", "price": 20}]})",
                          *lq::parse_rfc3339("2026-03-02T09:00:00Z"));
  REQUIRE(explained.ok());
  const json entries = json::parse(explained.value())["entries"];
  REQUIRE(entries.size() == 2);
  CHECK(entries[0]["id"] == "mug");
  CHECK(entries[0]["qualifies"] == false);
  CHECK(entries[0]["reasons"].size() == 1);
  CHECK(entries[0]["reasons"][0]["code"] == "DISCOUNT_UNKNOWN");
  CHECK(entries[0]["reasons"][0]["message"] ==
        "Its discount is not known here: the service decides when confirming.");
  std::vector<std::string> codes;
  for (const json& why : entries[1]["reasons"]) codes.push_back(why["code"]);
  CHECK(codes ==
        std::vector<std::string>{"VENUE_MISMATCH", "INSUFFICIENT_POINTS", "DISCOUNT_UNKNOWN"});
  auto answer =
      engine.qualify_json(R"({"subtotal": "20.00"})", *lq::parse_rfc3339("2026-03-02T09:00:00Z"));
  REQUIRE(answer.ok());
  CHECK(json::parse(answer.value())["points_products"] == json::array());
}

TEST_CASE("discount_unknown must be a boolean") {
  json snap = base_snapshot();
  snap["rewards"].push_back(reward({{"discount_unknown", "yes"}}));
  auto loaded = lq::load_snapshot(snap.dump());
  REQUIRE_FALSE(loaded.ok());
  CHECK(loaded.err().code == 422);
  CHECK(loaded.err().message == "rewards[0].discount_unknown must be true or false");
}

// ---- one rule-9 code, by priority ----

TEST_CASE("an empty basket outranks every other rule-9 code") {
  check_discount(reward({{"type", "bundle"}, {"value", 3}}), json::object(), "0.00",
                 {"EMPTY_BASKET"});
  check_discount(reward({{"type", "item"}, {"products", json::array({"latte"})}}), json::object(),
                 "0.00", {"EMPTY_BASKET"});
  check_discount(reward({{"value", 3}}), json::object(), "0.00", {"EMPTY_BASKET"});
}

TEST_CASE("an unsupported type outranks a missing match") {
  check_discount(reward({{"type", "bundle"}, {"products", json::array({"tea"})}}), cafe_basket(),
                 "0.00", {"UNSUPPORTED_TYPE"});
}

TEST_CASE("a restricted reward without a matching unit reports NO_MATCHING_ITEM") {
  check_discount(reward({{"type", "percent"}, {"value", 10}, {"products", json::array({"tea"})}}),
                 with_subtotal(cafe_basket(), 20), "0.00", {"NO_MATCHING_ITEM"});
  check_discount(reward({{"value", 10}, {"categories", json::array({"tea"})}}),
                 with_subtotal(cafe_basket(), 20), "0.00", {"NO_MATCHING_ITEM"});
}

TEST_CASE("a missing match outranks a missing price") {
  // One unpriced matching bagel: bogo lacks units before it lacks prices.
  check_discount(
      reward({{"type", "item"}, {"item_kind", "bogo"}, {"products", json::array({"bagel"})}}),
      items({item("bagel")}), "0.00", {"NO_MATCHING_ITEM"});
}

TEST_CASE("a missing price outranks a zero discount") {
  check_discount(
      reward({{"type", "fixed_price"}, {"value", 2}, {"products", json::array({"tea"})}}),
      items({item("tea"), item("bagel", {{"price", 3}})}), "0.00", {"ITEM_PRICE_MISSING"});
}

// ---- points products compute discounts the same way ----

TEST_CASE("a points product's discount follows its type") {
  json snap = base_snapshot();
  snap["points_products"] = json::array({{{"id", "p"},
                                          {"points", 10},
                                          {"value", 50},
                                          {"type", "percent"},
                                          {"products", json::array({"latte"})}},
                                         {{"id", "q"},
                                          {"points", 10},
                                          {"value", 0},
                                          {"type", "item"},
                                          {"item_kind", "bogo"},
                                          {"categories", json::array({"coffee"})}}});
  const outcome p = evaluate(snap, cafe_basket(), "p");
  CHECK(p.discount == "4.70");
  CHECK(p.qualifies);
  CHECK(p.returned);
  const outcome q = evaluate(snap, cafe_basket(), "q");
  CHECK(q.discount == "4.20");
  CHECK(q.qualifies);
  CHECK(q.returned);
  const outcome none = evaluate(snap, items({item("latte", {{"price", 4}})}), "q");
  CHECK(none.discount == "0.00");
  CHECK(none.reasons == codes{"NO_MATCHING_ITEM"});
  CHECK_FALSE(none.returned);
}
