// Loading the account snapshot (contract section 1, section 5): errors, defaults, ordering.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

#include "lq/decimal.hpp"
#include "lq/qualifier.hpp"
#include "lq/time/instant.hpp"
#include "model/snapshot.hpp"
#include "readers/snapshot_reader.hpp"
#include "records.hpp"

namespace {

using lq_test::points_product;
using lq_test::reward;

using nlohmann::json;

json base_snapshot() {
  return lq_test::base_snapshot(json::array());
}

lq::snapshot loaded(const json& snap) {
  auto result = lq::load_snapshot(snap.dump());
  INFO((result.ok() ? std::string() : result.err().message));
  REQUIRE(result.ok());
  return std::move(result.value());
}

/// Asserts a load error 422 whose message names `path`.
void require_load_error(const std::string& snapshot_text, const std::string& path) {
  const auto result = lq::load_snapshot(snapshot_text);
  INFO("snapshot: " << snapshot_text);
  REQUIRE_FALSE(result.ok());
  CHECK(result.err().code == 422);
  CHECK_THAT(result.err().message, Catch::Contains(path));
}

void require_load_error(const json& snap, const std::string& path) {
  require_load_error(snap.dump(), path);
}

lq::decimal dec(const char* text) {
  const auto d = lq::decimal::parse(text);
  REQUIRE(d.has_value());
  return *d;
}

lq::instant at(const char* text) {
  const auto t = lq::parse_rfc3339(text);
  REQUIRE(t.has_value());
  return *t;
}

std::vector<std::string> reward_ids(const lq::snapshot& snap) {
  std::vector<std::string> ids;
  for (const auto& r : snap.rewards) ids.push_back(r.id);
  return ids;
}

std::vector<std::string> points_product_ids(const lq::snapshot& snap) {
  std::vector<std::string> ids;
  for (const auto& p : snap.points_products) ids.push_back(p.id);
  return ids;
}

std::vector<std::string> qualifying_reward_ids(const lq::qualifier& q) {
  const auto body = q.qualify_json(R"({"subtotal": 8})", at("2026-03-02T09:00:00Z"));
  INFO((body.ok() ? std::string() : body.err().message));
  REQUIRE(body.ok());
  std::vector<std::string> ids;
  const json rewards = json::parse(*body).at("rewards");
  for (const auto& r : rewards) ids.push_back(r.at("id"));
  return ids;
}

}  // namespace

TEST_CASE("a snapshot that is not valid JSON is a 422 load error") {
  for (const char* bad : {"", "{", "{\"schema_version\": 1,}", "not json", "{'a': 1}"}) {
    INFO("snapshot: '" << bad << "'");
    const auto result = lq::load_snapshot(bad);
    REQUIRE_FALSE(result.ok());
    CHECK(result.err().code == 422);
    CHECK_FALSE(result.err().message.empty());
  }
}

TEST_CASE("a snapshot's syntax error outranks a complaint about a field before it") {
  for (const auto& [text, message] : std::vector<std::pair<std::string, std::string>>{
           {"[1,]", "snapshot is not valid JSON: unexpected ']' at offset 3"},
           {"{\"schema_version\":\"x\",\"a\":[}",
            "snapshot is not valid JSON: unexpected '}' at offset 27"},
           {"{\"rewards\":[5", "snapshot is not valid JSON: expected ',' or ']' at offset 13"},
           // A UTF-8 byte-order mark before a snapshot that is valid after it (docs/decisions.md).
           {"\xEF\xBB\xBF" +
                std::string(R"({"schema_version":1,"merchant":{"id":"m"},"user":{"id":"u"}})"),
            "snapshot is not valid JSON: unexpected byte-order mark (U+FEFF) at offset 0"}}) {
    INFO("snapshot: " << text);
    const auto result = lq::load_snapshot(text);
    REQUIRE_FALSE(result.ok());
    CHECK(result.err().code == 422);
    CHECK(result.err().message == message);
  }
}

TEST_CASE("text after the snapshot object is a 422 naming its first byte") {
  const auto result = lq::load_snapshot("{} x");
  REQUIRE_FALSE(result.ok());
  CHECK(result.err().code == 422);
  CHECK_THAT(
      result.err().message,
      Catch::EndsWith("is not valid JSON: unexpected text after the JSON value at offset 3"));
}

TEST_CASE("a snapshot that is not a JSON object is a 422 load error") {
  for (const char* bad : {"[]", "1", "null", "\"snapshot\""}) {
    INFO("snapshot: " << bad);
    const auto result = lq::load_snapshot(bad);
    REQUIRE_FALSE(result.ok());
    CHECK(result.err().code == 422);
  }
}

TEST_CASE("schema_version must be 1") {
  json missing = base_snapshot();
  missing.erase("schema_version");
  require_load_error(missing, "schema_version");

  for (const json& version : {json(2), json(0), json("1"), json(nullptr), json(1.5)}) {
    json snap = base_snapshot();
    snap["schema_version"] = version;
    require_load_error(snap, "schema_version");
  }
}

TEST_CASE("merchant.id and user.id are required") {
  json no_merchant = base_snapshot();
  no_merchant.erase("merchant");
  require_load_error(no_merchant, "merchant");

  json no_merchant_id = base_snapshot();
  no_merchant_id["merchant"].erase("id");
  require_load_error(no_merchant_id, "merchant.id");

  json no_user_id = base_snapshot();
  no_user_id["user"] = json::object();
  require_load_error(no_user_id, "user.id");

  json numeric_user_id = base_snapshot();
  numeric_user_id["user"]["id"] = 42;
  require_load_error(numeric_user_id, "user.id");
}

TEST_CASE("a record without a string id is a load error naming the record path") {
  json reward_without_id = base_snapshot();
  reward_without_id["rewards"] = json::array({reward("ok"), reward("x")});
  reward_without_id["rewards"][1].erase("id");
  require_load_error(reward_without_id, "rewards[1].id");

  json numeric_id = base_snapshot();
  numeric_id["rewards"] = json::array({reward("a"), reward("b"), reward("c")});
  numeric_id["rewards"][2]["id"] = 7;
  require_load_error(numeric_id, "rewards[2].id");

  json null_id = base_snapshot();
  null_id["rewards"] = json::array({reward("a")});
  null_id["rewards"][0]["id"] = nullptr;
  require_load_error(null_id, "rewards[0].id");

  json product_without_id = base_snapshot();
  product_without_id["points_products"] = json::array({points_product("p", 10)});
  product_without_id["points_products"][0].erase("id");
  require_load_error(product_without_id, "points_products[0].id");
}

TEST_CASE("a record that is not an object is a load error naming its path") {
  json snap = base_snapshot();
  snap["rewards"] = json::array({reward("a"), "b"});
  require_load_error(snap, "rewards[1]");

  json not_a_list = base_snapshot();
  not_a_list["rewards"] = json::object();
  require_load_error(not_a_list, "rewards");
}

TEST_CASE("a known field of the wrong type is a load error naming its path") {
  const std::vector<std::pair<json, std::string>> bad_fields = {
      {{{"value", true}}, "rewards[0].value"},
      {{{"value", "abc"}}, "rewards[0].value"},
      {{{"value", "5,50"}}, "rewards[0].value"},
      {{{"value", " 5"}}, "rewards[0].value"},
      {{{"value", json::array({5})}}, "rewards[0].value"},
      {{{"minimum", "ten"}}, "rewards[0].minimum"},
      {{{"maximum", false}}, "rewards[0].maximum"},
      {{{"products", "latte"}}, "rewards[0].products"},
      {{{"restriction_location_ids", "hash"}}, "rewards[0].restriction_location_ids"},
      {{{"categories", 3}}, "rewards[0].categories"},
      {{{"time_restrictions", "always"}}, "rewards[0].time_restrictions"},
      {{{"retire_at", 5}}, "rewards[0].retire_at"},
  };
  for (const auto& [fields, path] : bad_fields) {
    json snap = base_snapshot();
    snap["rewards"] = json::array({reward("a", fields)});
    INFO("fields: " << fields.dump());
    require_load_error(snap, path);
  }

  json bad_points = base_snapshot();
  bad_points["points_products"] = json::array({points_product("p", 10, {{"points", "many"}})});
  require_load_error(bad_points, "points_products[0].points");
}

TEST_CASE("negative value, minimum, maximum and points are load errors") {
  const std::vector<std::pair<json, std::string>> bad_fields = {
      {{{"value", -1}}, "rewards[0].value"},
      {{{"value", "-0.01"}}, "rewards[0].value"},
      {{{"minimum", -5}}, "rewards[0].minimum"},
      {{{"maximum", "-2"}}, "rewards[0].maximum"},
  };
  for (const auto& [fields, path] : bad_fields) {
    json snap = base_snapshot();
    snap["rewards"] = json::array({reward("a", fields)});
    INFO("fields: " << fields.dump());
    require_load_error(snap, path);
  }
  json bad_points = base_snapshot();
  bad_points["points_products"] = json::array({points_product("p", 10), points_product("q", -10)});
  require_load_error(bad_points, "points_products[1].points");
}

TEST_CASE("decimals out of range in a snapshot are load errors") {
  json too_big = base_snapshot();
  too_big["rewards"] = json::array({reward("a", {{"value", "1000000000000000"}})});
  require_load_error(too_big, "rewards[0].value");

  json too_precise = base_snapshot();
  too_precise["rewards"] = json::array({reward("a", {{"value", "0.1234567890123456789"}})});
  require_load_error(too_precise, "rewards[0].value");
}

TEST_CASE("malformed time windows are load errors naming the window") {
  const std::vector<json> bad_windows = {
      {{"start", "7:00"}, {"end", "10:00"}},
      {{"start", "07:00"}, {"end", "10:0"}},
      {{"start", "25:00"}, {"end", "10:00"}},
      {{"start", "07:60"}, {"end", "10:00"}},
      {{"start", "07:00"}, {"end", "24:01"}},
      {{"start", "0700"}, {"end", "10:00"}},
      {{"start", 7}, {"end", "10:00"}},
      {{"end", "10:00"}},
      {{"start", "07:00"}},
      {{"days", json::array({"monday"})}, {"start", "07:00"}, {"end", "10:00"}},
      {{"days", json::array({"mon", "xyz"})}, {"start", "07:00"}, {"end", "10:00"}},
      {{"days", "mon"}, {"start", "07:00"}, {"end", "10:00"}},
  };
  for (const auto& window : bad_windows) {
    json snap = base_snapshot();
    json ok_window = {{"start", "01:00"}, {"end", "02:00"}};
    snap["rewards"] =
        json::array({reward("a", {{"time_restrictions", json::array({ok_window, window})}})});
    INFO("window: " << window.dump());
    require_load_error(snap, "rewards[0].time_restrictions[1]");
  }

  json product = base_snapshot();
  product["points_products"] = json::array({points_product(
      "p", 10, {{"time_restrictions", json::array({{{"start", "7am"}, {"end", "10:00"}}})}})});
  require_load_error(product, "points_products[0].time_restrictions[0]");
}

TEST_CASE("time windows are loaded as days and minutes, 24:00 as an end") {
  json snap = base_snapshot();
  snap["rewards"] = json::array({reward(
      "a",
      {{"time_restrictions",
        json::array(
            {{{"days", json::array({"mon", "wed"})}, {"start", "07:30"}, {"end", "24:00"}},
             {{"start", "22:00"}, {"end", "02:15"}},
             {{"days", json::array({"sun", "sat"})}, {"start", "00:00"}, {"end", "23:59"}}})}})});
  const lq::snapshot s = loaded(snap);
  REQUIRE(s.rewards.size() == 1);
  const auto& windows = s.rewards[0].time_restrictions;
  REQUIRE(windows.size() == 3);
  CHECK(windows[0].days == ((1 << 1) | (1 << 3)));
  CHECK(windows[0].start_minute == 7 * 60 + 30);
  CHECK(windows[0].end_minute == 24 * 60);
  CHECK(windows[1].days == 0x7f);
  CHECK(windows[1].start_minute == 22 * 60);
  CHECK(windows[1].end_minute == 2 * 60 + 15);
  CHECK(windows[2].days == ((1 << 0) | (1 << 6)));
  CHECK(windows[2].end_minute == 23 * 60 + 59);
}

TEST_CASE("malformed tz_rule, retire_at and starts_at are load errors") {
  json merchant_tz = base_snapshot();
  merchant_tz["merchant"]["tz_rule"] = "Not/AZone";
  require_load_error(merchant_tz, "merchant.tz_rule");

  json location_tz = base_snapshot();
  location_tz["locations"] = json::array(
      {{{"uid", "a"}, {"id", "ha"}}, {{"uid", "b"}, {"id", "hb"}, {"tz_rule", "EST5EDT,M3"}}});
  require_load_error(location_tz, "locations[1].tz_rule");

  json retire = base_snapshot();
  retire["rewards"] =
      json::array({reward("a"), reward("b", {{"retire_at", "2026-02-30T00:00:00Z"}})});
  require_load_error(retire, "rewards[1].retire_at");

  json starts = base_snapshot();
  starts["rewards"] = json::array({reward("a", {{"starts_at", "tomorrow"}})});
  require_load_error(starts, "rewards[0].starts_at");
}

TEST_CASE("the previous snapshot stays in force after a failed load") {
  lq::qualifier q;
  CHECK_FALSE(q.has_snapshot());

  json bad = base_snapshot();
  bad["schema_version"] = 2;
  const auto first_error = q.set_snapshot(bad.dump());
  REQUIRE(first_error.has_value());
  CHECK(first_error->code == 422);
  CHECK_FALSE(q.has_snapshot());

  json first = base_snapshot();
  first["rewards"] = json::array({reward("first")});
  REQUIRE_FALSE(q.set_snapshot(first.dump()).has_value());
  CHECK(qualifying_reward_ids(q) == std::vector<std::string>{"first"});

  for (const std::string& broken :
       {std::string("{"), bad.dump(), std::string(R"({"schema_version":1,"merchant":{}})")}) {
    const auto error = q.set_snapshot(broken);
    REQUIRE(error.has_value());
    CHECK(error->code == 422);
    REQUIRE(q.has_snapshot());
    CHECK(qualifying_reward_ids(q) == std::vector<std::string>{"first"});
  }

  json second = base_snapshot();
  second["rewards"] = json::array({reward("second")});
  REQUIRE_FALSE(q.set_snapshot(second.dump()).has_value());
  CHECK(qualifying_reward_ids(q) == std::vector<std::string>{"second"});
}

TEST_CASE("a snapshot needs only schema_version, merchant.id, user.id and one offer list") {
  const json minimal{{"schema_version", 1},
                     {"merchant", {{"id", "m"}}},
                     {"user", {{"id", "u"}}},
                     {"rewards", json::array()}};
  const lq::snapshot s = loaded(minimal);
  CHECK(s.merchant_id == "m");
  CHECK(s.user_id == "u");
  CHECK(s.rewards.empty());
  CHECK(s.points_products.empty());
  CHECK(s.locations.empty());
}

TEST_CASE("a snapshot with neither rewards nor points_products is a 422 naming both") {
  json neither = base_snapshot();
  neither.erase("rewards");
  neither.erase("points_products");
  // A misspelt list is ignored as an unknown key: without the check it would load as no offers.
  neither["rewrds"] = json::array({reward("a")});
  const auto result = lq::load_snapshot(neither.dump());
  REQUIRE_FALSE(result.ok());
  CHECK(result.err().code == 422);
  CHECK(result.err().message ==
        "rewards or points_products is required ([] when the user has none)");
}

TEST_CASE("either offer list alone, or one given as null, is a snapshot") {
  for (const char* dropped : {"rewards", "points_products"}) {
    json one = base_snapshot();
    one.erase(dropped);
    INFO("without " << dropped);
    CHECK(loaded(one).rewards.empty());
  }
  json only_rewards = base_snapshot();
  only_rewards.erase("points_products");
  only_rewards["rewards"] = json::array({reward("a")});
  CHECK(reward_ids(loaded(only_rewards)) == std::vector<std::string>{"a"});

  json only_points = base_snapshot();
  only_points.erase("rewards");
  only_points["points_products"] = json::array({points_product("p", 10)});
  CHECK(points_product_ids(loaded(only_points)) == std::vector<std::string>{"p"});

  json named_null = base_snapshot();
  named_null["rewards"] = nullptr;
  named_null["points_products"] = nullptr;
  CHECK(loaded(named_null).points_products.empty());
}

TEST_CASE("unknown keys anywhere are ignored") {
  json snap = base_snapshot();
  snap["future_top_level"] = {{"nested", json::array({1, 2})}};
  snap["merchant"]["brand_color"] = "#ff0000";
  snap["user"]["email"] = "u@example.com";
  snap["points"][0]["tier"] = "gold";
  snap["locations"] = json::array({{{"uid", "l"}, {"id", "hl"}, {"address", {{"city", "X"}}}}});
  snap["rewards"] = json::array({reward(
      "a", {{"campaign", {{"id", 5}}},
            {"time_restrictions",
             json::array({{{"start", "00:00"}, {"end", "24:00"}, {"note", "all day"}}})}})});
  snap["points_products"] = json::array({points_product("p", 10, {{"sku", 99}})});
  const lq::snapshot s = loaded(snap);
  CHECK(reward_ids(s) == std::vector<std::string>{"a"});
  CHECK(points_product_ids(s) == std::vector<std::string>{"p"});
  CHECK(s.locations.size() == 1);
}

TEST_CASE("decimals in a snapshot may be JSON numbers or numeric strings") {
  json snap = base_snapshot();
  snap["rewards"] = json::array({
      reward("as_number", {{"value", 5.5}, {"minimum", 10}, {"maximum", 2.25}}),
      reward("as_string", {{"value", "5.50"}, {"minimum", "10"}, {"maximum", "2.250"}}),
      reward("as_exponent", {{"value", "55e-1"}, {"minimum", "1e1"}, {"maximum", "0.225e1"}}),
  });
  const lq::snapshot s = loaded(snap);
  REQUIRE(s.rewards.size() == 3);
  for (const auto& r : s.rewards) {
    INFO("reward " << r.id);
    CHECK(r.value == dec("5.5"));
    REQUIRE(r.minimum.has_value());
    CHECK(*r.minimum == dec("10"));
    REQUIRE(r.maximum.has_value());
    CHECK(*r.maximum == dec("2.25"));
  }
}

TEST_CASE("missing or null minimum and maximum mean none") {
  json snap = base_snapshot();
  json bare = reward("bare");
  bare.erase("minimum");
  bare.erase("maximum");
  snap["rewards"] = json::array({bare, reward("nulls")});
  const lq::snapshot s = loaded(snap);
  for (const auto& r : s.rewards) {
    INFO("reward " << r.id);
    CHECK_FALSE(r.minimum.has_value());
    CHECK_FALSE(r.maximum.has_value());
  }
}

TEST_CASE("eligibility fields default to the snapshot's user, merchant and every venue") {
  json snap = base_snapshot();
  snap["rewards"] = json::array({
      reward("defaults"),
      reward("mine", {{"user_id", "u"}, {"merchant_id", "m"}}),
      reward("theirs", {{"user_id", "someone"}, {"merchant_id", "other"}}),
      reward("instore", {{"redemption_venue", "instore"}}),
      reward("online", {{"redemption_venue", "online"}}),
      reward("all", {{"redemption_venue", "all"}}),
      reward("drive", {{"redemption_venue", "drive-thru"}}),
  });
  const lq::snapshot s = loaded(snap);
  const auto find = [&](const std::string& id) -> const lq::offer& {
    for (const auto& r : s.rewards)
      if (r.id == id) return r;
    FAIL("no reward " << id);
    return s.rewards.front();
  };
  CHECK(find("defaults").owned);
  CHECK(find("defaults").same_merchant);
  CHECK(find("defaults").redeemable);
  CHECK(find("defaults").redemption_venue == lq::venue::all);
  CHECK_FALSE(find("defaults").handoff.has_value());
  CHECK(find("defaults").time_restrictions.empty());
  CHECK_FALSE(find("defaults").retire_at.has_value());
  CHECK_FALSE(find("defaults").starts_at.has_value());
  CHECK(find("defaults").kind == lq::offer_kind::reward);
  CHECK(find("mine").owned);
  CHECK(find("mine").same_merchant);
  CHECK_FALSE(find("theirs").owned);
  CHECK_FALSE(find("theirs").same_merchant);
  CHECK(find("instore").redemption_venue == lq::venue::instore);
  CHECK(find("online").redemption_venue == lq::venue::online);
  CHECK(find("all").redemption_venue == lq::venue::all);
  CHECK(find("drive").redemption_venue == lq::venue::unknown);
}

TEST_CASE("a missing state counts as redeemable, any other state does not") {
  json snap = base_snapshot();
  json stateless = reward("stateless");
  stateless.erase("state");
  snap["rewards"] = json::array({stateless, reward("used", {{"state", "unredeemable"}}),
                                 reward("odd", {{"state", "archived"}}), reward("ok")});
  const lq::snapshot s = loaded(snap);
  for (const auto& r : s.rewards) {
    INFO("reward " << r.id);
    CHECK(r.redeemable == (r.id == "stateless" || r.id == "ok"));
  }
}

TEST_CASE("type and item_kind fold into the discount rule") {
  json snap = base_snapshot();
  snap["rewards"] = json::array({
      reward("amount"),
      reward("percent", {{"type", "percent"}}),
      reward("fixed", {{"type", "fixed_price"}}),
      reward("item", {{"type", "item"}}),
      reward("free", {{"type", "item"}, {"item_kind", "free_item"}}),
      reward("bogo", {{"type", "item"}, {"item_kind", "bogo"}}),
      reward("modifier", {{"type", "item"}, {"item_kind", "modifier"}}),
      reward("mystery_kind", {{"type", "item"}, {"item_kind", "mystery"}}),
      reward("mystery_type", {{"type", "bundle"}}),
      reward("amount_with_kind", {{"type", "amount"}, {"item_kind", "bogo"}}),
  });
  const lq::snapshot s = loaded(snap);
  const auto rule_of = [&](const std::string& id) {
    for (const auto& r : s.rewards)
      if (r.id == id) return r.rule;
    FAIL("no reward " << id);
    return lq::discount_rule::unsupported;
  };
  CHECK(rule_of("amount") == lq::discount_rule::amount);
  CHECK(rule_of("percent") == lq::discount_rule::percent);
  CHECK(rule_of("fixed") == lq::discount_rule::fixed_price);
  CHECK(rule_of("item") == lq::discount_rule::free_item);
  CHECK(rule_of("free") == lq::discount_rule::free_item);
  CHECK(rule_of("bogo") == lq::discount_rule::bogo);
  CHECK(rule_of("modifier") == lq::discount_rule::modifier);
  CHECK(rule_of("mystery_kind") == lq::discount_rule::unsupported);
  CHECK(rule_of("mystery_type") == lq::discount_rule::unsupported);
  CHECK(rule_of("amount_with_kind") == lq::discount_rule::amount);
}

TEST_CASE("a points product's balance comes from its points experience") {
  json snap = base_snapshot();
  snap["points"] = json::array({{{"points_experience_id", "beans"}, {"balance", 300}},
                                {{"points_experience_id", "stars"}, {"balance", 45}}});
  snap["points_products"] = json::array({
      points_product("default", 1),
      points_product("stars", 2, {{"points_experience_id", "stars"}}),
      points_product("unknown", 3, {{"points_experience_id", "moons"}}),
  });
  const lq::snapshot s = loaded(snap);
  REQUIRE(points_product_ids(s) == std::vector<std::string>{"default", "stars", "unknown"});
  CHECK(s.points_products[0].balance == 300);
  CHECK(s.points_products[1].balance == 45);
  CHECK(s.points_products[2].balance == 0);
  CHECK(s.points_products[0].points == 1);
  CHECK(s.points_products[0].kind == lq::offer_kind::points_product);
}

TEST_CASE("without any points entry every balance is 0") {
  json snap = base_snapshot();
  snap.erase("points");
  snap["points_products"] = json::array({points_product("p", 5)});
  const lq::snapshot s = loaded(snap);
  REQUIRE(s.points_products.size() == 1);
  CHECK(s.points_products[0].balance == 0);
}

TEST_CASE("a location's merchant defaults to the snapshot merchant") {
  json snap = base_snapshot();
  snap["locations"] = json::array({{{"uid", "own"}, {"id", "h_own"}},
                                   {{"uid", "explicit"}, {"id", "h_exp"}, {"merchant_id", "m"}},
                                   {{"uid", "other"}, {"id", "h_other"}, {"merchant_id", "m2"}}});
  const lq::snapshot s = loaded(snap);
  REQUIRE(s.locations.size() == 3);
  for (const auto& loc : s.locations) {
    INFO("location " << loc.uid);
    CHECK(loc.of_snapshot_merchant == (loc.uid != "other"));
  }
  REQUIRE(s.location_by_uid.count("explicit") == 1);
  CHECK(s.locations[s.location_by_uid.at("explicit")].id == "h_exp");
}

TEST_CASE("loaded rewards are ordered by retire_at as time, null last, then id") {
  json snap = base_snapshot();
  snap["rewards"] = json::array({
      reward("never_b"),
      reward("never_a"),
      reward("z_late", {{"retire_at", "2026-03-04T21:00:00Z"}}),
      // 2026-03-04T20:00:00Z, written later in text
      reward("y_offset", {{"retire_at", "2026-03-05T01:00:00+05:00"}}),
      reward("x_same_instant", {{"retire_at", "2026-03-04T16:00:00-05:00"}}),
      reward("w_fraction", {{"retire_at", "2026-03-04T21:00:00.5Z"}}),
      reward("B_upper", {{"retire_at", "2026-03-04T21:00:00Z"}}),
  });
  const lq::snapshot s = loaded(snap);
  CHECK(reward_ids(s) == std::vector<std::string>{"y_offset", "B_upper", "x_same_instant", "z_late",
                                                  "w_fraction", "never_a", "never_b"});
  REQUIRE(s.rewards[0].retire_at.has_value());
  CHECK(*s.rewards[0].retire_at == at("2026-03-04T20:00:00Z"));
}

TEST_CASE("loaded points products are ordered by points, then id") {
  json snap = base_snapshot();
  snap["points_products"] = json::array({
      points_product("mug", 900),
      points_product("cookie", 100),
      points_product("b", 250),
      points_product("a", 250),
      points_product("free", 0),
      points_product("big", 1000000),
  });
  const lq::snapshot s = loaded(snap);
  CHECK(points_product_ids(s) ==
        std::vector<std::string>{"free", "cookie", "a", "b", "mug", "big"});
}
