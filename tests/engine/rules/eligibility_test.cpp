// Eligibility (contract 3.1 and 3.2): each rule, checked through qualify and explain's reasons.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <initializer_list>
#include <string>
#include <vector>

#include "lq/qualifier.hpp"
#include "lq/time/instant.hpp"
#include "records.hpp"

namespace {

using lq_test::points_product;
using lq_test::reward;

using nlohmann::json;
using codes = std::vector<std::string>;

const char* const kNow = "2026-03-02T09:00:00Z";  // a Monday

/// Merchant `m` (no tz_rule: UTC), user `u`; locations `main` and `side` of `m`, `elsewhere` of
/// `m2`; points experience `pe` with 300 points.
json base_snapshot() {
  return lq_test::base_snapshot(json::array(
      {{{"uid", "main"}, {"id", "h_main"}, {"merchant_id", "m"}},
       {{"uid", "side"}, {"id", "h_side"}},
       {{"uid", "elsewhere"}, {"id", "h_else"}, {"merchant_id", "m2"}, {"tz_rule", "<-03>3"}}}));
}

json with_rewards(std::initializer_list<json> rewards, json snap = base_snapshot()) {
  snap["rewards"] = json::array();
  for (const auto& r : rewards) snap["rewards"].push_back(r);
  return snap;
}

json with_points_products(std::initializer_list<json> products, json snap = base_snapshot()) {
  snap["points_products"] = json::array();
  for (const auto& p : products) snap["points_products"].push_back(p);
  return snap;
}

json at_time(const std::string& order_timestamp, json request = json{{"subtotal", 8}}) {
  request["order_timestamp"] = order_timestamp;
  return request;
}

lq::instant at(const std::string& text) {
  const auto t = lq::parse_rfc3339(text);
  REQUIRE(t.has_value());
  return *t;
}

/// Asserts that offer `id` qualifies exactly when `expected` is empty, both in qualify's output
/// and in explain's entry, and that explain lists exactly the `expected` reason codes.
void check_offer(const json& snap, const json& request, const std::string& id, codes expected,
                 const std::string& now = kNow) {
  lq::qualifier q;
  const auto load_error = q.set_snapshot(snap.dump());
  INFO((load_error ? load_error->message : std::string()));
  REQUIRE_FALSE(load_error.has_value());
  INFO("offer " << id << ", request " << request.dump() << ", now " << now);

  const auto body = q.qualify_json(request.dump(), at(now));
  INFO((body.ok() ? std::string() : body.err().message));
  REQUIRE(body.ok());
  const json out = json::parse(*body);
  bool returned = false;
  for (const char* list : {"rewards", "points_products"})
    for (const auto& entity : out.at(list)) returned = returned || entity.at("id") == id;

  const auto explained = q.explain_json(request.dump(), at(now));
  REQUIRE(explained.ok());
  const json entries = json::parse(*explained).at("entries");
  const auto entry =
      std::find_if(entries.begin(), entries.end(), [&](const json& e) { return e.at("id") == id; });
  REQUIRE(entry != entries.end());
  codes got;
  for (const auto& r : entry->at("reasons")) got.push_back(r.at("code"));
  std::sort(got.begin(), got.end());
  std::sort(expected.begin(), expected.end());

  CHECK(got == expected);
  CHECK(returned == expected.empty());
  CHECK(entry->at("qualifies") == expected.empty());
}

const json kSubtotal8 = {{"subtotal", 8}};

}  // namespace

// ---- Rule 1: state ----

TEST_CASE("only a redeemable reward qualifies") {
  json stateless = reward("stateless");
  stateless.erase("state");
  const json snap =
      with_rewards({reward("ok"), stateless, reward("used", {{"state", "unredeemable"}}),
                    reward("archived", {{"state", "archived"}}), reward("empty", {{"state", ""}})});
  check_offer(snap, kSubtotal8, "ok", {});
  check_offer(snap, kSubtotal8, "stateless", {});
  check_offer(snap, kSubtotal8, "used", {"NOT_REDEEMABLE"});
  check_offer(snap, kSubtotal8, "archived", {"NOT_REDEEMABLE"});
  check_offer(snap, kSubtotal8, "empty", {"NOT_REDEEMABLE"});
}

// ---- Rule 2: ownership and merchant ----

TEST_CASE("a reward owned by another user does not qualify") {
  const json snap =
      with_rewards({reward("mine", {{"user_id", "u"}}), reward("theirs", {{"user_id", "u2"}})});
  check_offer(snap, kSubtotal8, "mine", {});
  check_offer(snap, kSubtotal8, "theirs", {"NOT_OWNED"});
}

TEST_CASE("a reward issued by another merchant does not qualify") {
  const json snap = with_rewards(
      {reward("ours", {{"merchant_id", "m"}}), reward("theirs", {{"merchant_id", "m2"}})});
  check_offer(snap, kSubtotal8, "ours", {});
  check_offer(snap, kSubtotal8, "theirs", {"OTHER_MERCHANT"});
}

// ---- Rule 3: expiry and start ----

TEST_CASE("a reward expires at its retire_at") {
  const json snap = with_rewards({
      reward("at_order_time", {{"retire_at", "2026-03-02T09:00:00Z"}}),
      reward("one_second_later", {{"retire_at", "2026-03-02T09:00:01Z"}}),
      reward("yesterday", {{"retire_at", "2026-03-01T09:00:00Z"}}),
      reward("millisecond_later", {{"retire_at", "2026-03-02T09:00:00.001Z"}}),
  });
  check_offer(snap, kSubtotal8, "at_order_time", {"EXPIRED"});
  check_offer(snap, kSubtotal8, "one_second_later", {});
  check_offer(snap, kSubtotal8, "yesterday", {"EXPIRED"});
  check_offer(snap, kSubtotal8, "millisecond_later", {});
}

TEST_CASE("retire_at is compared as time, not as text") {
  const json snap = with_rewards({
      // Text sorts after the order time, but it is 08:00Z.
      reward("offset_earlier", {{"retire_at", "2026-03-02T10:00:00+02:00"}}),
      // Text sorts before the order time, but it is 10:00Z.
      reward("offset_later", {{"retire_at", "2026-03-02T05:00:00-05:00"}}),
  });
  check_offer(snap, kSubtotal8, "offset_earlier", {"EXPIRED"});
  check_offer(snap, kSubtotal8, "offset_later", {});
}

TEST_CASE("a reward is not usable before its starts_at") {
  const json snap = with_rewards({
      reward("started_now", {{"starts_at", "2026-03-02T09:00:00Z"}}),
      reward("starts_later", {{"starts_at", "2026-03-02T09:00:01Z"}}),
      reward("started_before", {{"starts_at", "2026-02-01T00:00:00Z"}}),
      reward("starts_offset", {{"starts_at", "2026-03-02T08:30:00-01:00"}}),  // 09:30Z
      reward("null_start", {{"starts_at", nullptr}}),
  });
  check_offer(snap, kSubtotal8, "started_now", {});
  check_offer(snap, kSubtotal8, "starts_later", {"NOT_STARTED"});
  check_offer(snap, kSubtotal8, "started_before", {});
  check_offer(snap, kSubtotal8, "starts_offset", {"NOT_STARTED"});
  check_offer(snap, kSubtotal8, "null_start", {});
}

TEST_CASE("the order timestamp, not the clock, decides expiry") {
  const json snap = with_rewards({reward("noon", {{"retire_at", "2026-03-02T12:00:00Z"}})});
  check_offer(snap, kSubtotal8, "noon", {});
  check_offer(snap, kSubtotal8, "noon", {"EXPIRED"}, "2026-03-02T12:00:00Z");
  check_offer(snap, at_time("2026-03-02T13:00:00Z"), "noon", {"EXPIRED"});
  check_offer(snap, at_time("2026-03-02T11:59:59Z"), "noon", {}, "2026-03-03T00:00:00Z");
  check_offer(snap, at_time("2026-03-02T11:59:59.999Z"), "noon", {});
  check_offer(snap, at_time("2026-03-02T13:59:59+02:00"), "noon", {});
}

// ---- Rule 4: venue ----

TEST_CASE("the request venue defaults to online") {
  const json snap = with_rewards({reward("store", {{"redemption_venue", "instore"}}),
                                  reward("web", {{"redemption_venue", "online"}}),
                                  reward("both", {{"redemption_venue", "all"}}), reward("unset")});
  check_offer(snap, kSubtotal8, "store", {"VENUE_MISMATCH"});
  check_offer(snap, kSubtotal8, "web", {});
  check_offer(snap, kSubtotal8, "both", {});
  check_offer(snap, kSubtotal8, "unset", {});
}

TEST_CASE("an instore request matches instore and all rewards") {
  const json snap = with_rewards({reward("store", {{"redemption_venue", "instore"}}),
                                  reward("web", {{"redemption_venue", "online"}}),
                                  reward("both", {{"redemption_venue", "all"}}), reward("unset")});
  const json instore = {{"subtotal", 8}, {"redemption_venue", "instore"}};
  check_offer(snap, instore, "store", {});
  check_offer(snap, instore, "web", {"VENUE_MISMATCH"});
  check_offer(snap, instore, "both", {});
  check_offer(snap, instore, "unset", {});
}

TEST_CASE("a reward venue the engine does not know matches no request venue") {
  const json snap = with_rewards({reward("drive", {{"redemption_venue", "drive-thru"}})});
  check_offer(snap, kSubtotal8, "drive", {"VENUE_MISMATCH"});
  check_offer(snap, {{"subtotal", 8}, {"redemption_venue", "instore"}}, "drive",
              {"VENUE_MISMATCH"});
}

// ---- Rule 5: location ----

TEST_CASE("an unrestricted reward ignores the location") {
  const json snap = with_rewards({reward("any")});
  check_offer(snap, kSubtotal8, "any", {});
  for (const char* uid : {"main", "side", "elsewhere", "nowhere"}) {
    check_offer(snap, {{"subtotal", 8}, {"location_uid", uid}}, "any", {});
  }
}

TEST_CASE("a location-restricted reward needs a location of the snapshot merchant in its list") {
  const json snap = with_rewards(
      {reward("main_only", {{"restriction_location_ids", json::array({"h_main"})}}),
       reward("side_or_main", {{"restriction_location_ids", json::array({"h_main", "h_side"})}})});
  const auto at_location = [](const char* uid) {
    return json{{"subtotal", 8}, {"location_uid", uid}};
  };
  check_offer(snap, at_location("main"), "main_only", {});
  check_offer(snap, at_location("side"), "main_only", {"LOCATION_MISMATCH"});
  check_offer(snap, at_location("side"), "side_or_main", {});
  check_offer(snap, at_location("main"), "side_or_main", {});
}

TEST_CASE("an omitted location matches no restriction") {
  const json snap =
      with_rewards({reward("main_only", {{"restriction_location_ids", json::array({"h_main"})}})});
  check_offer(snap, kSubtotal8, "main_only", {"LOCATION_REQUIRED"});
  check_offer(snap, {{"subtotal", 8}, {"location_uid", nullptr}}, "main_only",
              {"LOCATION_REQUIRED"});
}

TEST_CASE("a location of another merchant is dropped as if omitted") {
  const json snap =
      with_rewards({reward("else_only", {{"restriction_location_ids", json::array({"h_else"})}}),
                    reward("any")});
  const json request = {{"subtotal", 8}, {"location_uid", "elsewhere"}};
  check_offer(snap, request, "else_only", {"LOCATION_REQUIRED"});
  check_offer(snap, request, "any", {});
}

TEST_CASE("an unknown location matches no restriction") {
  const json snap =
      with_rewards({reward("main_only", {{"restriction_location_ids", json::array({"h_main"})}})});
  check_offer(snap, {{"subtotal", 8}, {"location_uid", "nowhere"}}, "main_only",
              {"LOCATION_MISMATCH"});
}

TEST_CASE("restrictions list location ids, not uids") {
  const json snap =
      with_rewards({reward("by_uid", {{"restriction_location_ids", json::array({"main"})}})});
  check_offer(snap, {{"subtotal", 8}, {"location_uid", "main"}}, "by_uid", {"LOCATION_MISMATCH"});
  check_offer(snap, {{"subtotal", 8}, {"location_uid", "h_main"}}, "by_uid", {"LOCATION_MISMATCH"});
}

// ---- Rule 6: time windows ----

TEST_CASE("a time window includes its start and excludes its end") {
  const json snap = with_rewards(
      {reward("breakfast",
              {{"time_restrictions", json::array({{{"start", "07:00"}, {"end", "10:30"}}})}})});
  check_offer(snap, at_time("2026-03-02T06:59:59Z"), "breakfast", {"OUTSIDE_TIME_WINDOW"});
  check_offer(snap, at_time("2026-03-02T07:00:00Z"), "breakfast", {});
  check_offer(snap, at_time("2026-03-02T10:29:59.999Z"), "breakfast", {});
  check_offer(snap, at_time("2026-03-02T10:30:00Z"), "breakfast", {"OUTSIDE_TIME_WINDOW"});
  check_offer(snap, at_time("2026-03-02T19:00:00Z"), "breakfast", {"OUTSIDE_TIME_WINDOW"});
  check_offer(snap, kSubtotal8, "breakfast", {});  // clock: 09:00
  check_offer(snap, kSubtotal8, "breakfast", {"OUTSIDE_TIME_WINDOW"}, "2026-03-02T11:00:00Z");
}

TEST_CASE("a time window applies only on its days") {
  const char* const names[] = {"sun", "mon", "tue", "wed", "thu", "fri", "sat"};
  // 2026-03-01 is a Sunday.
  for (int day = 0; day < 7; ++day) {
    const json snap = with_rewards(
        {reward("one_day", {{"time_restrictions", json::array({{{"days", json::array({names[day]})},
                                                                {"start", "00:00"},
                                                                {"end", "24:00"}}})}})});
    const std::string date = "2026-03-0" + std::to_string(day + 1);
    const std::string next_date = "2026-03-0" + std::to_string(day + 2);
    INFO("day " << names[day]);
    check_offer(snap, at_time(date + "T12:00:00Z"), "one_day", {});
    check_offer(snap, at_time(date + "T00:00:00Z"), "one_day", {});
    check_offer(snap, at_time(date + "T23:59:59Z"), "one_day", {});
    check_offer(snap, at_time(next_date + "T12:00:00Z"), "one_day", {"OUTSIDE_TIME_WINDOW"});
  }
}

TEST_CASE("one matching window is enough") {
  const json snap = with_rewards({reward(
      "split",
      {{"time_restrictions",
        json::array(
            {{{"days", json::array({"tue"})}, {"start", "07:00"}, {"end", "08:00"}},
             {{"days", json::array({"mon", "wed"})}, {"start", "11:00"}, {"end", "12:00"}}})}})});
  check_offer(snap, at_time("2026-03-02T11:30:00Z"), "split", {});                       // Mon
  check_offer(snap, at_time("2026-03-02T07:30:00Z"), "split", {"OUTSIDE_TIME_WINDOW"});  // Mon
  check_offer(snap, at_time("2026-03-03T07:30:00Z"), "split", {});                       // Tue
  check_offer(snap, at_time("2026-03-03T11:30:00Z"), "split", {"OUTSIDE_TIME_WINDOW"});  // Tue
  check_offer(snap, at_time("2026-03-04T11:00:00Z"), "split", {});                       // Wed
}

TEST_CASE("a window that crosses midnight belongs to the day it starts") {
  const json snap = with_rewards({reward(
      "late_friday",
      {{"time_restrictions",
        json::array({{{"days", json::array({"fri"})}, {"start", "22:00"}, {"end", "02:00"}}})}})});
  check_offer(snap, at_time("2026-03-06T21:59:59Z"), "late_friday", {"OUTSIDE_TIME_WINDOW"});
  check_offer(snap, at_time("2026-03-06T22:00:00Z"), "late_friday", {});
  check_offer(snap, at_time("2026-03-06T23:30:00Z"), "late_friday", {});
  check_offer(snap, at_time("2026-03-07T00:00:00Z"), "late_friday", {});  // Saturday
  check_offer(snap, at_time("2026-03-07T01:59:59Z"), "late_friday", {});  // Saturday
  check_offer(snap, at_time("2026-03-07T02:00:00Z"), "late_friday", {"OUTSIDE_TIME_WINDOW"});
  check_offer(snap, at_time("2026-03-06T01:00:00Z"), "late_friday", {"OUTSIDE_TIME_WINDOW"});
  check_offer(snap, at_time("2026-03-07T23:00:00Z"), "late_friday", {"OUTSIDE_TIME_WINDOW"});
}

TEST_CASE("a window whose end equals its start lasts a whole day from its start") {
  const json snap = with_rewards({reward(
      "from_eight",
      {{"time_restrictions",
        json::array({{{"days", json::array({"mon"})}, {"start", "08:00"}, {"end", "08:00"}}})}})});
  check_offer(snap, at_time("2026-03-02T07:59:59Z"), "from_eight", {"OUTSIDE_TIME_WINDOW"});
  check_offer(snap, at_time("2026-03-02T08:00:00Z"), "from_eight", {});
  check_offer(snap, at_time("2026-03-02T23:00:00Z"), "from_eight", {});
  check_offer(snap, at_time("2026-03-03T07:59:59Z"), "from_eight", {});
  check_offer(snap, at_time("2026-03-03T08:00:00Z"), "from_eight", {"OUTSIDE_TIME_WINDOW"});
}

TEST_CASE("a window may end at 24:00") {
  const json snap = with_rewards({reward(
      "evening", {{"time_restrictions", json::array({{{"start", "20:00"}, {"end", "24:00"}}})}})});
  check_offer(snap, at_time("2026-03-02T19:59:59Z"), "evening", {"OUTSIDE_TIME_WINDOW"});
  check_offer(snap, at_time("2026-03-02T20:00:00Z"), "evening", {});
  check_offer(snap, at_time("2026-03-02T23:59:59Z"), "evening", {});
  check_offer(snap, at_time("2026-03-03T00:00:00Z"), "evening", {"OUTSIDE_TIME_WINDOW"});
  check_offer(snap, at_time("2026-03-03T00:30:00Z"), "evening", {"OUTSIDE_TIME_WINDOW"});
}

TEST_CASE("time windows use the merchant's tz_rule when no location resolves") {
  json snap = with_rewards({reward(
      "breakfast",
      {{"time_restrictions",
        json::array({{{"days", json::array({"mon"})}, {"start", "08:00"}, {"end", "09:00"}}})}})});
  snap["merchant"]["tz_rule"] = "<+0530>-5:30";
  // 02:30Z is 08:00 in +05:30.
  check_offer(snap, at_time("2026-03-02T02:30:00Z"), "breakfast", {});
  check_offer(snap, at_time("2026-03-02T03:29:59Z"), "breakfast", {});
  check_offer(snap, at_time("2026-03-02T08:30:00Z"), "breakfast", {"OUTSIDE_TIME_WINDOW"});
  // The order time's own offset does not matter, only the instant.
  check_offer(snap, at_time("2026-03-01T21:30:00-05:00"), "breakfast", {});
  // Another merchant's location and an unknown one both fall back to the merchant's rule.
  json request = at_time("2026-03-02T02:30:00Z");
  request["location_uid"] = "elsewhere";
  check_offer(snap, request, "breakfast", {});
  request["location_uid"] = "nowhere";
  check_offer(snap, request, "breakfast", {});

  json utc = snap;
  utc["merchant"].erase("tz_rule");
  check_offer(utc, at_time("2026-03-02T02:30:00Z"), "breakfast", {"OUTSIDE_TIME_WINDOW"});
  check_offer(utc, at_time("2026-03-02T08:30:00Z"), "breakfast", {});
}

TEST_CASE("the local day of a time window comes from local time") {
  json snap = with_rewards(
      {reward("tuesday_night", {{"time_restrictions", json::array({{{"days", json::array({"tue"})},
                                                                    {"start", "01:00"},
                                                                    {"end", "02:00"}}})}}),
       reward("monday_night", {{"time_restrictions", json::array({{{"days", json::array({"mon"})},
                                                                   {"start", "01:00"},
                                                                   {"end", "02:00"}}})}})});
  snap["merchant"]["tz_rule"] = "<+0530>-5:30";
  // Monday 20:00Z is Tuesday 01:30 in +05:30.
  check_offer(snap, at_time("2026-03-02T20:00:00Z"), "tuesday_night", {});
  check_offer(snap, at_time("2026-03-02T20:00:00Z"), "monday_night", {"OUTSIDE_TIME_WINDOW"});

  json west = snap;
  west["merchant"]["tz_rule"] = "<-03>3";
  // Tuesday 04:30Z is Tuesday 01:30 in -03; Monday 04:30Z is Monday 01:30.
  check_offer(west, at_time("2026-03-03T04:30:00Z"), "tuesday_night", {});
  check_offer(west, at_time("2026-03-02T04:30:00Z"), "monday_night", {});
  check_offer(west, at_time("2026-03-02T01:30:00Z"), "monday_night", {"OUTSIDE_TIME_WINDOW"});
}

TEST_CASE("time windows follow daylight saving time of the tz_rule") {
  json snap = with_rewards({reward(
      "eight_am", {{"time_restrictions", json::array({{{"start", "08:00"}, {"end", "09:00"}}})}})});
  snap["merchant"]["tz_rule"] = "EST5EDT,M3.2.0,M11.1.0";
  // 2026-03-02 is EST (UTC-5); DST starts 2026-03-08, so 2026-03-10 is EDT (UTC-4).
  check_offer(snap, at_time("2026-03-02T13:30:00Z"), "eight_am", {});
  check_offer(snap, at_time("2026-03-02T12:30:00Z"), "eight_am", {"OUTSIDE_TIME_WINDOW"});
  check_offer(snap, at_time("2026-03-10T12:30:00Z"), "eight_am", {});
  check_offer(snap, at_time("2026-03-10T13:30:00Z"), "eight_am", {"OUTSIDE_TIME_WINDOW"});
}

TEST_CASE("time windows use the resolved location's tz_rule over the merchant's") {
  json snap = with_rewards({reward(
      "nine_am", {{"time_restrictions", json::array({{{"start", "08:30"}, {"end", "09:30"}}})}})});
  snap["merchant"]["tz_rule"] = "<+0530>-5:30";
  snap["locations"][0]["tz_rule"] = "<-03>3";  // main
  // 12:00Z is 09:00 at `main` and 17:30 at the merchant.
  json at_main = at_time("2026-03-02T12:00:00Z");
  at_main["location_uid"] = "main";
  check_offer(snap, at_main, "nine_am", {});
  check_offer(snap, at_time("2026-03-02T12:00:00Z"), "nine_am", {"OUTSIDE_TIME_WINDOW"});

  // `side` has no tz_rule: the merchant's applies (03:30Z is 09:00 in +05:30).
  json at_side = at_time("2026-03-02T03:30:00Z");
  at_side["location_uid"] = "side";
  check_offer(snap, at_side, "nine_am", {});
  at_side["order_timestamp"] = "2026-03-02T12:00:00Z";
  check_offer(snap, at_side, "nine_am", {"OUTSIDE_TIME_WINDOW"});

  // `elsewhere` is another merchant's location: dropped, so its -03 rule is not used.
  json at_elsewhere = at_time("2026-03-02T12:00:00Z");
  at_elsewhere["location_uid"] = "elsewhere";
  check_offer(snap, at_elsewhere, "nine_am", {"OUTSIDE_TIME_WINDOW"});
}

// ---- Rule 7: handoff ----

TEST_CASE("a handoff-restricted reward needs the same handoff, ignoring ASCII case") {
  const json snap = with_rewards({reward("delivery", {{"handoff", "delivery"}}),
                                  reward("curbside", {{"handoff", "CurbSide"}}), reward("any"),
                                  reward("null_handoff", {{"handoff", nullptr}})});
  const auto with_handoff = [](const char* handoff) {
    return json{{"subtotal", 8}, {"handoff", handoff}};
  };
  check_offer(snap, with_handoff("delivery"), "delivery", {});
  check_offer(snap, with_handoff("DELIVERY"), "delivery", {});
  check_offer(snap, with_handoff("Delivery"), "delivery", {});
  check_offer(snap, with_handoff("pickup"), "delivery", {"HANDOFF_MISMATCH"});
  check_offer(snap, with_handoff("deliveryx"), "delivery", {"HANDOFF_MISMATCH"});
  check_offer(snap, with_handoff("curbside"), "curbside", {});
  check_offer(snap, with_handoff("delivery"), "curbside", {"HANDOFF_MISMATCH"});
  check_offer(snap, with_handoff("pickup"), "any", {});
  check_offer(snap, with_handoff("pickup"), "null_handoff", {});
}

TEST_CASE("handoff case folding is ASCII only") {
  const json snap = with_rewards({reward("emporter", {{"handoff", "à-emporter"}})});
  check_offer(snap, {{"subtotal", 8}, {"handoff", "À-EMPORTER"}}, "emporter", {"HANDOFF_MISMATCH"});
  check_offer(snap, {{"subtotal", 8}, {"handoff", "à-EMPORTER"}}, "emporter", {});
}

TEST_CASE("an omitted handoff fails every handoff-restricted reward") {
  const json snap = with_rewards({reward("delivery", {{"handoff", "delivery"}}), reward("any")});
  check_offer(snap, kSubtotal8, "delivery", {"HANDOFF_REQUIRED"});
  check_offer(snap, {{"subtotal", 8}, {"handoff", nullptr}}, "delivery", {"HANDOFF_REQUIRED"});
  check_offer(snap, kSubtotal8, "any", {});
}

// ---- Rule 8: minimum ----

TEST_CASE("minimum-gated reward needs an explicit subtotal") {
  const json snap = with_rewards({reward("gated", {{"minimum", 5}}), reward("open")});
  const json items_only = {{"items", json::array({{{"id", "latte"}, {"price", "20.00"}}})}};
  check_offer(snap, items_only, "gated", {"SUBTOTAL_REQUIRED"});
  check_offer(snap, items_only, "open", {});
}

TEST_CASE("a zero minimum still needs a subtotal") {
  const json snap = with_rewards({reward("zero_minimum", {{"minimum", 0}})});
  check_offer(snap, {{"items", json::array({{{"id", "latte"}, {"price", "20.00"}}})}},
              "zero_minimum", {"SUBTOTAL_REQUIRED"});
  check_offer(snap, kSubtotal8, "zero_minimum", {});
}

TEST_CASE("the subtotal must reach the minimum") {
  const json snap =
      with_rewards({reward("five", {{"minimum", 5}}), reward("five_string", {{"minimum", "5.00"}}),
                    reward("exact", {{"minimum", "5.001"}})});
  for (const char* id : {"five", "five_string"}) {
    check_offer(snap, {{"subtotal", "4.99"}}, id, {"BELOW_MINIMUM"});
    check_offer(snap, {{"subtotal", 5}}, id, {});
    check_offer(snap, {{"subtotal", "5.00"}}, id, {});
    check_offer(snap, {{"subtotal", "5.01"}}, id, {});
  }
  check_offer(snap, {{"subtotal", "5.00"}}, "exact", {"BELOW_MINIMUM"});
  check_offer(snap, {{"subtotal", "5.001"}}, "exact", {});
}

// ---- Rule 9: positive discount ----

TEST_CASE("a reward must give a discount that rounds above zero") {
  const json snap = with_rewards({
      reward("nothing", {{"value", 0}}),
      reward("tenth_percent", {{"type", "percent"}, {"value", "0.4"}}),  // 0.004 on 1.00
      reward("half_percent", {{"type", "percent"}, {"value", "0.5"}}),   // 0.005 on 1.00
  });
  const json one_dollar = {{"subtotal", "1.00"}};
  check_offer(snap, one_dollar, "nothing", {"ZERO_DISCOUNT"});
  check_offer(snap, one_dollar, "tenth_percent", {"ZERO_DISCOUNT"});
  check_offer(snap, one_dollar, "half_percent", {});
}

TEST_CASE("no items and no subtotal qualifies nothing") {
  const json snap = with_rewards({reward("a")}, with_points_products({points_product("p", 10)}));
  check_offer(snap, json::object(), "a", {"EMPTY_BASKET"});
  check_offer(snap, json::object(), "p", {"EMPTY_BASKET"});
  check_offer(snap, {{"items", json::array()}}, "a", {"EMPTY_BASKET"});
  check_offer(snap, {{"items", json::array()}, {"redemption_venue", "instore"}}, "p",
              {"EMPTY_BASKET"});
}

TEST_CASE("a zero subtotal is not an empty basket") {
  const json snap = with_rewards({reward("a")});
  check_offer(snap, {{"subtotal", 0}}, "a", {"ZERO_DISCOUNT"});
}

// ---- Points products (3.2) ----

TEST_CASE("a points product needs enough points in its experience") {
  json snap =
      with_points_products({points_product("exact", 300), points_product("over", 301),
                            points_product("stars", 40, {{"points_experience_id", "stars"}}),
                            points_product("moons", 1, {{"points_experience_id", "moons"}}),
                            points_product("free_moons", 0, {{"points_experience_id", "moons"}})});
  snap["points"].push_back({{"points_experience_id", "stars"}, {"balance", 40}});
  check_offer(snap, kSubtotal8, "exact", {});
  check_offer(snap, kSubtotal8, "over", {"INSUFFICIENT_POINTS"});
  check_offer(snap, kSubtotal8, "stars", {});
  check_offer(snap, kSubtotal8, "moons", {"INSUFFICIENT_POINTS"});
  check_offer(snap, kSubtotal8, "free_moons", {});
}

TEST_CASE("a points product's state is not a filter") {
  const json snap =
      with_points_products({points_product("unredeemable", 10, {{"state", "unredeemable"}}),
                            points_product("redeemable", 10)});
  check_offer(snap, kSubtotal8, "unredeemable", {});
  check_offer(snap, kSubtotal8, "redeemable", {});
}

TEST_CASE("ownership, merchant and dates do not filter points products") {
  const json snap = with_points_products({points_product("p", 10,
                                                         {{"user_id", "u2"},
                                                          {"merchant_id", "m2"},
                                                          {"retire_at", "2020-01-01T00:00:00Z"},
                                                          {"starts_at", "2030-01-01T00:00:00Z"}})});
  check_offer(snap, kSubtotal8, "p", {});
}

TEST_CASE("points products follow rules 4 to 9") {
  const json snap = with_points_products({
      points_product("store", 10, {{"redemption_venue", "instore"}}),
      points_product("main_only", 10, {{"restriction_location_ids", json::array({"h_main"})}}),
      points_product(
          "night", 10,
          {{"time_restrictions", json::array({{{"start", "20:00"}, {"end", "23:00"}}})}}),
      points_product("delivery", 10, {{"handoff", "delivery"}}),
      points_product("gated", 10, {{"minimum", 10}}),
      points_product("nothing", 10, {{"value", 0}}),
      points_product("fine", 10),
  });
  check_offer(snap, kSubtotal8, "store", {"VENUE_MISMATCH"});
  check_offer(snap, kSubtotal8, "main_only", {"LOCATION_REQUIRED"});
  check_offer(snap, {{"subtotal", 8}, {"location_uid", "side"}}, "main_only",
              {"LOCATION_MISMATCH"});
  check_offer(snap, {{"subtotal", 8}, {"location_uid", "main"}}, "main_only", {});
  check_offer(snap, kSubtotal8, "night", {"OUTSIDE_TIME_WINDOW"});
  check_offer(snap, at_time("2026-03-02T21:00:00Z"), "night", {});
  check_offer(snap, kSubtotal8, "delivery", {"HANDOFF_REQUIRED"});
  check_offer(snap, {{"subtotal", 8}, {"handoff", "pickup"}}, "delivery", {"HANDOFF_MISMATCH"});
  check_offer(snap, {{"subtotal", 8}, {"handoff", "Delivery"}}, "delivery", {});
  check_offer(snap, kSubtotal8, "gated", {"BELOW_MINIMUM"});
  check_offer(snap, {{"items", json::array({{{"id", "x"}, {"price", 20}}})}}, "gated",
              {"SUBTOTAL_REQUIRED"});
  check_offer(snap, {{"subtotal", 10}}, "gated", {});
  check_offer(snap, kSubtotal8, "nothing", {"ZERO_DISCOUNT"});
  check_offer(snap, kSubtotal8, "fine", {});
}

TEST_CASE("every failing rule is reported together") {
  const json snap = with_rewards(
      {reward("bad", {{"state", "unredeemable"},
                      {"user_id", "u2"},
                      {"merchant_id", "m2"},
                      {"retire_at", "2026-01-01T00:00:00Z"},
                      {"redemption_venue", "instore"},
                      {"restriction_location_ids", json::array({"h_main"})},
                      {"time_restrictions", json::array({{{"start", "20:00"}, {"end", "21:00"}}})},
                      {"handoff", "delivery"},
                      {"minimum", 5}})});
  check_offer(
      snap, {{"items", json::array({{{"id", "x"}, {"price", 8}}})}}, "bad",
      {"NOT_REDEEMABLE", "NOT_OWNED", "OTHER_MERCHANT", "EXPIRED", "VENUE_MISMATCH",
       "LOCATION_REQUIRED", "OUTSIDE_TIME_WINDOW", "HANDOFF_REQUIRED", "SUBTOTAL_REQUIRED"});
  check_offer(snap,
              {{"subtotal", 1},
               {"location_uid", "side"},
               {"handoff", "pickup"},
               {"redemption_venue", "online"}},
              "bad",
              {"NOT_REDEEMABLE", "NOT_OWNED", "OTHER_MERCHANT", "EXPIRED", "VENUE_MISMATCH",
               "LOCATION_MISMATCH", "OUTSIDE_TIME_WINDOW", "HANDOFF_MISMATCH", "BELOW_MINIMUM"});

  const json points = with_points_products({points_product(
      "costly", 1000, {{"redemption_venue", "instore"}, {"handoff", "delivery"}, {"value", 0}})});
  check_offer(points, kSubtotal8, "costly",
              {"INSUFFICIENT_POINTS", "VENUE_MISMATCH", "HANDOFF_REQUIRED", "ZERO_DISCOUNT"});
}
