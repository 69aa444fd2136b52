// Explain (contract section 4): every entry, its discount, every failing rule, and the best offer.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <regex>
#include <set>
#include <string>
#include <vector>

#include "lq/answers/reason.hpp"
#include "lq/qualifier.hpp"
#include "lq/request.hpp"
#include "lq/request_reader.hpp"
#include "lq/time/instant.hpp"
#include "model/snapshot.hpp"
#include "readers/snapshot_reader.hpp"
#include "records.hpp"
#include "render/render.hpp"
#include "rules/explain.hpp"
#include "rules/qualify.hpp"

namespace {

using lq_test::points_product;
using lq_test::reward;

using nlohmann::json;
using ids = std::vector<std::string>;

const char* const kNow = "2026-03-02T09:00:00Z";

const std::set<std::string> kRuleNineCodes = {"EMPTY_BASKET",       "DISCOUNT_UNKNOWN",
                                              "UNSUPPORTED_TYPE",   "NO_MATCHING_ITEM",
                                              "ITEM_PRICE_MISSING", "ZERO_DISCOUNT"};

lq::instant at(const std::string& text) {
  const auto t = lq::parse_rfc3339(text);
  REQUIRE(t.has_value());
  return *t;
}

json base_snapshot() {
  return lq_test::base_snapshot(json::array({{{"uid", "main"}, {"id", "h_main"}}}));
}

json snapshot_of(std::initializer_list<json> rewards,
                 std::initializer_list<json> points_products = {}) {
  json snap = base_snapshot();
  for (const auto& r : rewards) snap["rewards"].push_back(r);
  for (const auto& p : points_products) snap["points_products"].push_back(p);
  return snap;
}

lq::qualifier loaded(const json& snap) {
  lq::qualifier q;
  const auto error = q.set_snapshot(snap.dump());
  INFO((error ? error->message : std::string()));
  REQUIRE_FALSE(error.has_value());
  return q;
}

json explain(const json& snap, const json& request, const std::string& now = kNow) {
  const auto body = loaded(snap).explain_json(request.dump(), at(now));
  INFO("request " << request.dump());
  INFO((body.ok() ? std::string() : body.err().message));
  REQUIRE(body.ok());
  return json::parse(*body);
}

json qualify(const json& snap, const json& request, const std::string& now = kNow) {
  const auto body = loaded(snap).qualify_json(request.dump(), at(now));
  INFO((body.ok() ? std::string() : body.err().message));
  REQUIRE(body.ok());
  return json::parse(*body);
}

json entry_of(const json& explained, const std::string& id) {
  for (const auto& entry : explained.at("entries"))
    if (entry.at("id") == id) return entry;
  FAIL("no entry " << id);
  return json();
}

json reason_of(const json& entry, const std::string& code) {
  for (const auto& r : entry.at("reasons"))
    if (r.at("code") == code) return r;
  FAIL("no reason " << code << " in " << entry.dump());
  return json();
}

ids codes_of(const json& entry) {
  ids codes;
  for (const auto& r : entry.at("reasons")) codes.push_back(r.at("code"));
  std::sort(codes.begin(), codes.end());
  return codes;
}

std::set<std::string> keys_of(const json& object) {
  std::set<std::string> keys;
  for (const auto& [key, value] : object.items()) keys.insert(key);
  return keys;
}

const json kSubtotal8 = {{"subtotal", 8}};

/// A snapshot where most rules fail for some offer.
json mixed_snapshot() {
  return snapshot_of(
      {reward("plain"), reward("used", {{"state", "unredeemable"}}),
       reward("theirs", {{"user_id", "v"}}), reward("foreign", {{"merchant_id", "m2"}}),
       reward("gone", {{"retire_at", "2026-03-01T00:00:00Z"}}),
       reward("soon", {{"retire_at", "2026-03-03T00:00:00Z"}, {"value", 2}}),
       reward("future", {{"starts_at", "2026-04-01T00:00:00Z"}}),
       reward("store", {{"redemption_venue", "instore"}}),
       reward("main_only", {{"restriction_location_ids", json::array({"h_main"})}}),
       reward("night",
              {{"time_restrictions", json::array({{{"start", "20:00"}, {"end", "23:00"}}})}}),
       reward("delivery", {{"handoff", "delivery"}}), reward("gated", {{"minimum", 10}}),
       reward("half", {{"type", "percent"}, {"value", 50}}),
       reward("free_latte", {{"type", "item"}, {"products", json::array({"latte"})}}),
       reward("bogo", {{"type", "item"}, {"item_kind", "bogo"}}),
       reward("oat",
              {{"type", "item"}, {"item_kind", "modifier"}, {"products", json::array({"oat"})}}),
       reward("fixed", {{"type", "fixed_price"}, {"value", 1}}),
       reward("bundle", {{"type", "bundle"}})},
      {points_product("cheap", 10), points_product("dear", 1000, {{"value", 9}}),
       points_product("pp_store", 20, {{"redemption_venue", "instore"}}),
       points_product("pp_used", 30,
                      {{"state", "unredeemable"}, {"type", "percent"}, {"value", 10}})});
}

std::vector<json> varied_requests() {
  return {
      json::object(),
      kSubtotal8,
      {{"subtotal", 20}, {"redemption_venue", "instore"}, {"handoff", "DELIVERY"}},
      {{"subtotal", 12}, {"location_uid", "main"}, {"order_timestamp", "2026-03-02T21:00:00Z"}},
      {{"items", json::array({{{"id", "latte"},
                               {"price", "4.20"},
                               {"quantity", 2},
                               {"modifiers", json::array({{{"id", "oat"}, {"price", "0.60"}}})}},
                              {{"id", "bagel"}, {"price", 3}}})}},
      {{"items", json::array({{{"id", "latte"}}})}, {"subtotal", "0.00"}},
      {{"items", json::array({{{"id", "tea"}, {"price", "0.01"}}})}},
  };
}

}  // namespace

TEST_CASE("explain lists every reward and then every points product, in output order") {
  const json snap = snapshot_of(
      {reward("z_never"), reward("b_soon", {{"retire_at", "2026-03-05T00:00:00Z"}}),
       reward("a_gone", {{"retire_at", "2026-03-01T00:00:00Z"}}), reward("c_never")},
      {points_product("mug", 900), points_product("cookie", 100), points_product("bean", 100)});
  const json explained = explain(snap, kSubtotal8);
  ids order;
  ids kinds;
  for (const auto& entry : explained.at("entries")) {
    order.push_back(entry.at("id"));
    kinds.push_back(entry.at("kind"));
  }
  CHECK(order == ids{"a_gone", "b_soon", "c_never", "z_never", "bean", "cookie", "mug"});
  CHECK(kinds == ids{"reward", "reward", "reward", "reward", "points_product", "points_product",
                     "points_product"});
}

TEST_CASE("explain returns entries and best only") {
  const json explained = explain(mixed_snapshot(), kSubtotal8);
  CHECK(keys_of(explained) == std::set<std::string>{"entries", "best"});
  CHECK(explained.at("entries").is_array());
  CHECK(explained.at("entries").size() == 22);
}

TEST_CASE("every explain entry has exactly id, kind, qualifies, discount and reasons") {
  const std::regex money(R"(\d+\.\d\d)");
  for (const json& request : varied_requests()) {
    INFO("request " << request.dump());
    const json entries = explain(mixed_snapshot(), request).at("entries");
    for (const auto& entry : entries) {
      INFO("entry " << entry.dump());
      CHECK(keys_of(entry) ==
            std::set<std::string>{"id", "kind", "qualifies", "discount", "reasons"});
      CHECK(entry.at("id").is_string());
      CHECK(entry.at("qualifies").is_boolean());
      REQUIRE(entry.at("discount").is_string());
      CHECK(std::regex_match(entry.at("discount").get<std::string>(), money));
      REQUIRE(entry.at("reasons").is_array());
      for (const auto& r : entry.at("reasons")) {
        REQUIRE(r.at("code").is_string());
        REQUIRE(r.at("message").is_string());
        CHECK_FALSE(r.at("message").get<std::string>().empty());
        std::set<std::string> expected_keys = {"code", "message"};
        if (r.at("code") == "BELOW_MINIMUM") expected_keys.insert("remaining");
        if (r.at("code") == "INSUFFICIENT_POINTS") expected_keys.insert("points_needed");
        CHECK(keys_of(r) == expected_keys);
      }
    }
  }
}

TEST_CASE("reasons are empty exactly when an entry qualifies") {
  for (const json& request : varied_requests()) {
    INFO("request " << request.dump());
    const json entries = explain(mixed_snapshot(), request).at("entries");
    for (const auto& entry : entries) {
      INFO("entry " << entry.dump());
      CHECK(entry.at("qualifies") == entry.at("reasons").empty());
    }
  }
}

TEST_CASE("qualifies is true exactly for the offers qualify returns, in the same order") {
  const json snap = mixed_snapshot();
  for (const json& request : varied_requests()) {
    INFO("request " << request.dump());
    const json out = qualify(snap, request);
    ids returned;
    for (const auto& r : out.at("rewards")) returned.push_back(r.at("id"));
    for (const auto& p : out.at("points_products")) returned.push_back(p.at("id"));
    ids qualifying;
    const json entries = explain(snap, request).at("entries");
    for (const auto& entry : entries)
      if (entry.at("qualifies") == true) qualifying.push_back(entry.at("id"));
    CHECK(qualifying == returned);
  }
}

TEST_CASE("the discount is what the entry would give, whatever else fails") {
  const json snap = mixed_snapshot();
  const json explained = explain(snap, kSubtotal8);
  for (const char* id : {"plain", "used", "theirs", "foreign", "gone", "future", "store",
                         "main_only", "night", "delivery", "gated"}) {
    INFO("entry " << id);
    CHECK(entry_of(explained, id).at("discount") == "3.00");
  }
  CHECK(entry_of(explained, "used").at("reasons").size() == 1);
  CHECK(entry_of(explained, "used").at("qualifies") == false);
  CHECK(entry_of(explained, "half").at("discount") == "4.00");
  CHECK(entry_of(explained, "dear").at("discount") == "8.00");
  CHECK(entry_of(explained, "pp_used").at("discount") == "0.80");
  CHECK(entry_of(explained, "bundle").at("discount") == "0.00");
}

TEST_CASE("explain names the failing rule of each entry") {
  const json explained = explain(mixed_snapshot(), kSubtotal8);
  const std::vector<std::pair<std::string, ids>> expected = {
      {"plain", {}},
      {"used", {"NOT_REDEEMABLE"}},
      {"theirs", {"NOT_OWNED"}},
      {"foreign", {"OTHER_MERCHANT"}},
      {"gone", {"EXPIRED"}},
      {"soon", {}},
      {"future", {"NOT_STARTED"}},
      {"store", {"VENUE_MISMATCH"}},
      {"main_only", {"LOCATION_REQUIRED"}},
      {"night", {"OUTSIDE_TIME_WINDOW"}},
      {"delivery", {"HANDOFF_REQUIRED"}},
      {"gated", {"BELOW_MINIMUM"}},
      {"half", {}},
      {"free_latte", {"NO_MATCHING_ITEM"}},
      {"bogo", {"NO_MATCHING_ITEM"}},
      {"oat", {"NO_MATCHING_ITEM"}},
      {"fixed", {"NO_MATCHING_ITEM"}},
      {"bundle", {"UNSUPPORTED_TYPE"}},
      {"cheap", {}},
      {"dear", {"INSUFFICIENT_POINTS"}},
      {"pp_store", {"VENUE_MISMATCH"}},
      {"pp_used", {}},
  };
  for (const auto& [id, codes] : expected) {
    INFO("entry " << id);
    CHECK(codes_of(entry_of(explained, id)) == codes);
  }
}

TEST_CASE("an entry whose discount rounds to zero has exactly one rule-9 reason") {
  for (const json& request : varied_requests()) {
    INFO("request " << request.dump());
    const json entries = explain(mixed_snapshot(), request).at("entries");
    for (const auto& entry : entries) {
      INFO("entry " << entry.dump());
      int rule_nine = 0;
      for (const auto& r : entry.at("reasons")) rule_nine += kRuleNineCodes.count(r.at("code"));
      CHECK(rule_nine == (entry.at("discount") == "0.00" ? 1 : 0));
    }
  }
}

TEST_CASE("every entry of an empty basket reports EMPTY_BASKET") {
  const json explained = explain(mixed_snapshot(), json::object());
  for (const auto& entry : explained.at("entries")) {
    INFO("entry " << entry.dump());
    CHECK(entry.at("qualifies") == false);
    CHECK(entry.at("discount") == "0.00");
    const ids codes = codes_of(entry);
    CHECK(std::count(codes.begin(), codes.end(), "EMPTY_BASKET") == 1);
  }
  CHECK(explained.at("best").is_null());
}

TEST_CASE("BELOW_MINIMUM tells the remaining amount, rounded up to the cent") {
  const json snap =
      snapshot_of({reward("ten", {{"minimum", 10}}), reward("odd", {{"minimum", "10.005"}}),
                   reward("thin", {{"minimum", "10.001"}})});
  const auto remaining = [&](const char* id, const json& subtotal) {
    const json entry = entry_of(explain(snap, {{"subtotal", subtotal}}), id);
    const json r = reason_of(entry, "BELOW_MINIMUM");
    REQUIRE(r.at("remaining").is_string());
    return r.at("remaining").get<std::string>();
  };
  CHECK(remaining("ten", "6.50") == "3.50");
  CHECK(remaining("ten", "6.501") == "3.50");
  CHECK(remaining("ten", "6.509") == "3.50");
  CHECK(remaining("ten", "6.499") == "3.51");
  CHECK(remaining("ten", "9.999") == "0.01");
  CHECK(remaining("ten", 0) == "10.00");
  CHECK(remaining("odd", 0) == "10.01");
  CHECK(remaining("thin", 5) == "5.01");
  CHECK(remaining("thin", "10.00") == "0.01");
}

TEST_CASE("SUBTOTAL_REQUIRED carries no remaining amount") {
  const json snap = snapshot_of({reward("ten", {{"minimum", 10}})});
  const json entry =
      entry_of(explain(snap, {{"items", json::array({{{"id", "x"}, {"price", 50}}})}}), "ten");
  CHECK(codes_of(entry) == ids{"SUBTOTAL_REQUIRED"});
  CHECK(entry.at("discount") == "3.00");
}

TEST_CASE("INSUFFICIENT_POINTS tells the points needed") {
  json snap = snapshot_of({}, {points_product("mug", 350),
                               points_product("moon", 7, {{"points_experience_id", "moons"}}),
                               points_product("star", 100, {{"points_experience_id", "stars"}})});
  snap["points"].push_back({{"points_experience_id", "stars"}, {"balance", 1}});
  const json explained = explain(snap, kSubtotal8);
  CHECK(reason_of(entry_of(explained, "mug"), "INSUFFICIENT_POINTS").at("points_needed") == 50);
  CHECK(reason_of(entry_of(explained, "moon"), "INSUFFICIENT_POINTS").at("points_needed") == 7);
  CHECK(reason_of(entry_of(explained, "star"), "INSUFFICIENT_POINTS").at("points_needed") == 99);
  CHECK(reason_of(entry_of(explained, "mug"), "INSUFFICIENT_POINTS")
            .at("points_needed")
            .is_number_integer());
}

TEST_CASE("best is the qualifying entry with the largest discount") {
  const json snap =
      snapshot_of({reward("three"), reward("five_used", {{"value", 5}, {"state", "unredeemable"}}),
                   reward("half", {{"type", "percent"}, {"value", 50}})},
                  {points_product("four_fifty", 10, {{"value", "4.50"}}),
                   points_product("seven_dear", 1000, {{"value", 7}})});
  CHECK(explain(snap, kSubtotal8).at("best") == "four_fifty");
  CHECK(explain(snap, {{"subtotal", 8}, {"redemption_venue", "instore"}}).at("best") ==
        "four_fifty");
  // With 20, half gives 10.
  CHECK(explain(snap, {{"subtotal", 20}}).at("best") == "half");
}

TEST_CASE("best ties go to the earliest expiry, then the id") {
  const json dated =
      snapshot_of({reward("a_late", {{"retire_at", "2026-03-20T00:00:00Z"}}),
                   reward("b_soon", {{"retire_at", "2026-03-10T00:00:00Z"}}), reward("c_never")});
  CHECK(explain(dated, kSubtotal8).at("best") == "b_soon");

  const json undated = snapshot_of({reward("b"), reward("a"), reward("c")});
  CHECK(explain(undated, kSubtotal8).at("best") == "a");

  // x expires at 2026-03-10T00:00Z, w at 01:00Z: time decides, not the text nor the id.
  const json offsets = snapshot_of({reward("w", {{"retire_at", "2026-03-10T01:00:00Z"}}),
                                    reward("x", {{"retire_at", "2026-03-10T05:00:00+05:00"}})});
  CHECK(explain(offsets, kSubtotal8).at("best") == "x");

  const json smaller_discount_sooner =
      snapshot_of({reward("soon", {{"retire_at", "2026-03-03T00:00:00Z"}, {"value", 2}}),
                   reward("later", {{"retire_at", "2026-03-30T00:00:00Z"}})});
  CHECK(explain(smaller_discount_sooner, kSubtotal8).at("best") == "later");
}

TEST_CASE("best ties between points products go to the id") {
  const json snap = snapshot_of({}, {points_product("b", 10), points_product("a", 20)});
  CHECK(explain(snap, kSubtotal8).at("best") == "a");
  // A points product has no retire_at: the key is ignored, so it cannot win a tie.
  const json with_key = snapshot_of(
      {},
      {points_product("b", 10, {{"retire_at", "2026-03-03T00:00:00Z"}}), points_product("a", 20)});
  CHECK(explain(with_key, kSubtotal8).at("best") == "a");
}

TEST_CASE("best is null when nothing qualifies") {
  const json snap =
      snapshot_of({reward("used", {{"state", "unredeemable"}})}, {points_product("dear", 1000)});
  CHECK(explain(snap, kSubtotal8).at("best").is_null());
  CHECK(explain(base_snapshot(), kSubtotal8) ==
        json{{"entries", json::array()}, {"best", nullptr}});
}

TEST_CASE("explain rejects a bad request like qualify does") {
  const lq::qualifier q = loaded(mixed_snapshot());
  const auto venue = q.explain_json(R"({"redemption_venue":"drive-thru"})", at(kNow));
  REQUIRE_FALSE(venue.ok());
  CHECK(venue.err().code == 400);
  CHECK(venue.err().message == "redemption_venue must be one of: instore, online");
  const auto timestamp = q.explain_json(R"({"order_timestamp":"02/03/2026"})", at(kNow));
  REQUIRE_FALSE(timestamp.ok());
  CHECK(timestamp.err().code == 400);
  CHECK_THAT(timestamp.err().message, Catch::Contains("order_timestamp"));
}

TEST_CASE("reason codes have the contract's names") {
  using lq::reason_code;
  const std::vector<std::pair<reason_code, std::string>> names = {
      {reason_code::not_redeemable, "NOT_REDEEMABLE"},
      {reason_code::not_owned, "NOT_OWNED"},
      {reason_code::other_merchant, "OTHER_MERCHANT"},
      {reason_code::expired, "EXPIRED"},
      {reason_code::not_started, "NOT_STARTED"},
      {reason_code::venue_mismatch, "VENUE_MISMATCH"},
      {reason_code::location_required, "LOCATION_REQUIRED"},
      {reason_code::location_mismatch, "LOCATION_MISMATCH"},
      {reason_code::outside_time_window, "OUTSIDE_TIME_WINDOW"},
      {reason_code::handoff_required, "HANDOFF_REQUIRED"},
      {reason_code::handoff_mismatch, "HANDOFF_MISMATCH"},
      {reason_code::subtotal_required, "SUBTOTAL_REQUIRED"},
      {reason_code::below_minimum, "BELOW_MINIMUM"},
      {reason_code::no_matching_item, "NO_MATCHING_ITEM"},
      {reason_code::item_price_missing, "ITEM_PRICE_MISSING"},
      {reason_code::zero_discount, "ZERO_DISCOUNT"},
      {reason_code::insufficient_points, "INSUFFICIENT_POINTS"},
      {reason_code::empty_basket, "EMPTY_BASKET"},
      {reason_code::unsupported_type, "UNSUPPORTED_TYPE"},
      {reason_code::discount_unknown, "DISCOUNT_UNKNOWN"},
      {reason_code::pending_order, "PENDING_ORDER"},
      {reason_code::claimed_elsewhere, "CLAIMED_ELSEWHERE"},
  };
  for (const auto& [code, name] : names) CHECK(std::string(lq::reason_code_name(code)) == name);
}

TEST_CASE("the native explain agrees with its JSON rendering") {
  const json snap_json =
      snapshot_of({reward("ten", {{"minimum", 10}}), reward("plain"),
                   reward("half", {{"type", "percent"}, {"value", 50}})},
                  {points_product("mug", 350), points_product("cookie", 10, {{"value", "0.5"}})});
  auto snap = lq::load_snapshot(snap_json.dump());
  REQUIRE(snap.ok());
  auto request = lq::parse_request(R"({"subtotal": "6.50"})");
  REQUIRE(request.ok());
  const lq::explain_result result = lq::explain(*snap, *request, at(kNow));
  REQUIRE(result.entries.size() == 5);

  ids order;
  for (uint32_t number = 0; number < result.entries.size(); ++number) {
    const lq::explanation& e = result.entries[number];
    CHECK(e.number == number);  // entries are by offer number: rewards, then points products
    CHECK(e.id == snap->offer_at(number).id);
    order.emplace_back(e.id);
  }
  CHECK(order == ids{"half", "plain", "ten", "cookie", "mug"});

  const lq::explanation& ten = result.entries[2];
  CHECK_FALSE(ten.qualifies);
  CHECK(ten.discount_cents == 300);
  REQUIRE(ten.reasons.size() == 1);
  CHECK(ten.reasons[0].code == lq::reason_code::below_minimum);
  CHECK(ten.reasons[0].remaining_cents == std::optional<int64_t>(350));

  const lq::explanation& mug = result.entries[4];
  REQUIRE(mug.reasons.size() == 1);
  CHECK(mug.reasons[0].code == lq::reason_code::insufficient_points);
  CHECK(mug.reasons[0].points_needed == std::optional<int64_t>(50));

  const lq::explanation& half = result.entries[0];
  CHECK(half.qualifies);
  CHECK(half.discount_cents == 325);
  REQUIRE(result.best.has_value());
  CHECK(*result.best == 0);

  const json rendered = json::parse(lq::render_explain(result));
  CHECK(rendered.at("best") == "half");
  CHECK(rendered.at("entries").size() == 5);
  CHECK(rendered.at("entries")[0].at("discount") == "3.25");
  CHECK(reason_of(rendered.at("entries")[2], "BELOW_MINIMUM").at("remaining") == "3.50");

  const lq::qualify_result qualified = lq::qualify(*snap, *request, at(kNow));
  ids returned;
  for (uint32_t i : qualified.rewards) returned.push_back(snap->rewards.at(i).id);
  for (uint32_t i : qualified.points_products) returned.push_back(snap->points_products.at(i).id);
  CHECK(returned == ids{"half", "plain", "cookie"});
  const json body = json::parse(lq::render_qualify(*snap, qualified));
  CHECK(body.at("rewards").size() == 2);
  CHECK(body.at("points_products").size() == 1);
}

TEST_CASE("one offer's outcome is its entry of the explanation; an unknown offer is 404") {
  const json snap_json =
      snapshot_of({reward("ten", {{"minimum", 10}}), reward("plain"),
                   reward("half", {{"type", "percent"}, {"value", 50}})},
                  {points_product("mug", 350), points_product("cookie", 10, {{"value", "0.5"}})});
  lq::qualifier engine;
  REQUIRE_FALSE(engine.set_snapshot(snap_json.dump()));
  const std::string request = R"({"subtotal": "6.50"})";
  const auto explained = engine.explain(request, at(kNow));
  REQUIRE(explained.ok());
  for (const lq::explanation& entry : explained->entries) {
    const auto outcome =
        engine.offer_outcome(request, lq::offer_ref{entry.kind, std::string(entry.id)}, at(kNow));
    REQUIRE(outcome.ok());
    CHECK(outcome->number == entry.number);
    CHECK(outcome->id == entry.id);
    CHECK(outcome->qualifies == entry.qualifies);
    CHECK(outcome->discount_cents == entry.discount_cents);
    REQUIRE(outcome->reasons.size() == entry.reasons.size());
    for (size_t r = 0; r < entry.reasons.size(); ++r) {
      CHECK(outcome->reasons[r].code == entry.reasons[r].code);
      CHECK(outcome->reasons[r].remaining_cents == entry.reasons[r].remaining_cents);
      CHECK(outcome->reasons[r].points_needed == entry.reasons[r].points_needed);
    }
  }
  // "mug" is a points product, not a reward.
  const auto missing =
      engine.offer_outcome(request, lq::offer_ref{lq::offer_kind::reward, "mug"}, at(kNow));
  REQUIRE_FALSE(missing.ok());
  CHECK(missing.err().code == 404);
  CHECK(missing.err().message == "the snapshot has no reward \"mug\"");
  const auto bad =
      engine.offer_outcome("{", lq::offer_ref{lq::offer_kind::reward, "ten"}, at(kNow));
  REQUIRE_FALSE(bad.ok());
  CHECK(bad.err().code == 400);
}
