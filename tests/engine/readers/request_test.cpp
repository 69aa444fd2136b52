// The qualifying request (API spec 2.1, contract sections 2 and 5): 400 errors name the field path.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include <string>
#include <utility>
#include <vector>

#include "lq/decimal.hpp"
#include "lq/qualifier.hpp"
#include "lq/request.hpp"
#include "lq/request_reader.hpp"
#include "lq/time/instant.hpp"
#include "render/render.hpp"

namespace {

using nlohmann::json;

const char* const kVenueMessage = "redemption_venue must be one of: instore, online";

lq::basket_request parsed(const std::string& body) {
  auto result = lq::parse_request(body);
  INFO("request: " << body);
  INFO((result.ok() ? std::string() : result.err().message));
  REQUIRE(result.ok());
  return std::move(result.value());
}

lq::basket_request parsed(const json& body) {
  return parsed(body.dump());
}

/// Asserts a 400 whose message names `path`.
void require_request_error(const std::string& body, const std::string& path) {
  const auto result = lq::parse_request(body);
  INFO("request: " << body);
  REQUIRE_FALSE(result.ok());
  CHECK(result.err().code == 400);
  CHECK_THAT(result.err().message, Catch::Contains(path));
}

void require_request_error(const json& body, const std::string& path) {
  require_request_error(body.dump(), path);
}

void require_venue_error(const json& body) {
  const auto result = lq::parse_request(body.dump());
  INFO("request: " << body.dump());
  REQUIRE_FALSE(result.ok());
  CHECK(result.err().code == 400);
  CHECK(result.err().message == kVenueMessage);
}

lq::decimal dec(const char* text) {
  const auto d = lq::decimal::parse(text);
  REQUIRE(d.has_value());
  return *d;
}

json item(const std::string& id, const json& fields = json::object()) {
  json i = {{"id", id}, {"name", id}, {"price", "1.00"}, {"categories", json::array()}};
  i.update(fields);
  return i;
}

json basket_with(const json& third_item_fields) {
  return json{{"items", json::array({item("a"), item("b"), item("c", third_item_fields)})}};
}

}  // namespace

TEST_CASE("an empty request takes every default") {
  const lq::basket_request r = parsed(std::string("{}"));
  CHECK(r.redemption_venue == lq::venue::online);
  CHECK_FALSE(r.order_timestamp.has_value());
  CHECK_FALSE(r.location_uid.has_value());
  CHECK_FALSE(r.handoff.has_value());
  CHECK_FALSE(r.subtotal.has_value());
  CHECK(r.items.empty());
}

TEST_CASE("a body that is not a JSON object is a 400") {
  for (const char* bad : {"", "not json", "{", "[]", "5", "null", "\"items\"", "{\"a\":1,}"}) {
    INFO("body: '" << bad << "'");
    const auto result = lq::parse_request(bad);
    REQUIRE_FALSE(result.ok());
    CHECK(result.err().code == 400);
    CHECK_FALSE(result.err().message.empty());
  }
}

TEST_CASE("text after the request object is a syntax error named at its first byte") {
  for (const auto& [body, offset] : std::vector<std::pair<std::string, int>>{
           {"{} x", 3}, {"{\"items\":[]}}", 12}, {"[] []", 3}, {"{}\n\t{}", 4}}) {
    INFO("body: '" << body << "'");
    const auto result = lq::parse_request(body);
    REQUIRE_FALSE(result.ok());
    CHECK(result.err().code == 400);
    CHECK(result.err().message ==
          "request body is not valid JSON: unexpected text after the JSON value at offset " +
              std::to_string(offset));
  }
}

TEST_CASE("a syntax error anywhere outranks a field's complaint, with its offset") {
  const std::string deep = std::string(64, '[') + std::string(64, ']');
  const std::vector<std::pair<std::string, std::string>> cases = {
      // The reader stops at items[0] ('}' is no value); the text stops being JSON there.
      {R"({"items":[})", "request body is not valid JSON: unexpected '}' at offset 10"},
      {R"({"items":[)", "request body is not valid JSON: unexpected end of input at offset 10"},
      // The field is wrong, and the text after it is not JSON.
      {R"({"items":5,"x":[1,]})", "request body is not valid JSON: unexpected ']' at offset 18"},
      {R"({"redemption_venue":"x","a":tru})",
       "request body is not valid JSON: invalid literal at offset 28"},
      {R"({"items":[{"price":"-1"}]} x)",
       "request body is not valid JSON: unexpected text after the JSON value at offset 27"},
      {"{\"items\":1,\"x\":" + deep + "}",
       "request body nests deeper than 64 levels at offset " + std::to_string(15 + 63)},
      {"[" + deep + "]", "request body nests deeper than 64 levels at offset 64"},
      // A UTF-8 byte-order mark before the object: refused, named (docs/decisions.md).
      {"\xEF\xBB\xBF{\"items\":[]}",
       "request body is not valid JSON: unexpected byte-order mark (U+FEFF) at offset 0"},
      // Valid JSON: the field's complaint stands.
      {R"({"items":[5]})", "items[0] must be an object"},
      {R"({"items":[{"price":1e400}],"x":1e400})",
       "items[0].price must be a non-negative decimal (a JSON number or numeric string, at most "
       "18 decimal places, below 10^15)"},
  };
  for (const auto& [body, message] : cases) {
    INFO("body: " << body);
    const auto result = lq::parse_request(body);
    REQUIRE_FALSE(result.ok());
    CHECK(result.err().code == 400);
    CHECK(result.err().message == message);
  }
  // A number of any size where no field reads it is JSON, and ignored.
  CHECK(lq::parse_request(R"({"x":1e400,"y":-123456789012345678901234567890})").ok());
}

TEST_CASE("every field of a full request is read") {
  const lq::basket_request r = parsed(
      json{{"redemption_venue", "instore"},
           {"order_timestamp", "2026-03-02T10:00:00+01:00"},
           {"location_uid", "cafe-main"},
           {"handoff", "Delivery"},
           {"subtotal", "12.34"},
           {"items",
            json::array({{{"id", "latte"},
                          {"name", "Latte"},
                          {"price", 4.2},
                          {"categories", json::array({"coffee", "hot"})},
                          {"quantity", 3},
                          {"modifiers", json::array({{{"id", "oat"},
                                                      {"name", "Oat milk"},
                                                      {"price", "0.60"},
                                                      {"item_base_price", 4.2}},
                                                     {{"id", "shot"}, {"name", "Extra shot"}}})}},
                         {{"id", "bagel"}}})}});
  CHECK(r.redemption_venue == lq::venue::instore);
  REQUIRE(r.order_timestamp.has_value());
  CHECK(*r.order_timestamp == *lq::parse_rfc3339("2026-03-02T09:00:00Z"));
  CHECK(r.location_uid == std::optional<std::string>("cafe-main"));
  REQUIRE(r.handoff.has_value());
  REQUIRE(r.subtotal.has_value());
  CHECK(*r.subtotal == dec("12.34"));
  REQUIRE(r.items.size() == 2);
  const lq::basket_item& latte = r.items[0];
  CHECK(latte.id == "latte");
  REQUIRE(latte.price.has_value());
  CHECK(*latte.price == dec("4.20"));
  CHECK(latte.categories == std::vector<std::string>{"coffee", "hot"});
  CHECK(latte.quantity == 3);
  REQUIRE(latte.modifiers.size() == 2);
  CHECK(latte.modifiers[0].id == "oat");
  REQUIRE(latte.modifiers[0].price.has_value());
  CHECK(*latte.modifiers[0].price == dec("0.6"));
  CHECK(latte.modifiers[1].id == "shot");
  CHECK_FALSE(latte.modifiers[1].price.has_value());
  const lq::basket_item& bagel = r.items[1];
  CHECK(bagel.id == "bagel");
  CHECK_FALSE(bagel.price.has_value());
  CHECK(bagel.quantity == 1);
  CHECK(bagel.categories.empty());
  CHECK(bagel.modifiers.empty());
}

TEST_CASE("redemption_venue accepts instore and online only, with the exact message") {
  CHECK(parsed(json{{"redemption_venue", "online"}}).redemption_venue == lq::venue::online);
  CHECK(parsed(json{{"redemption_venue", "instore"}}).redemption_venue == lq::venue::instore);
  for (const json& bad :
       {json("drive-thru"), json("all"), json(""), json("online "), json(5), json(true),
        json(nullptr), json::array({"online"}), json::object({{"venue", "online"}})}) {
    require_venue_error(json{{"subtotal", 8}, {"redemption_venue", bad}});
  }
}

TEST_CASE("a malformed order_timestamp is a 400 naming the field") {
  for (const json& bad :
       {json("02/03/2026"), json("2026-02-30T09:00:00Z"), json("2026-03-02T09:00:00"), json(""),
        json(1772442000), json(true), json::array({"2026-03-02T09:00:00Z"})}) {
    require_request_error(json{{"order_timestamp", bad}}, "order_timestamp");
  }
  const lq::basket_request r = parsed(json{{"order_timestamp", "2026-03-02T09:00:00.5z"}});
  REQUIRE(r.order_timestamp.has_value());
  CHECK(r.order_timestamp->seconds == 1772442000);
  CHECK(r.order_timestamp->nanos == 500000000);
}

TEST_CASE("items must be an array of objects") {
  for (const json& bad : {json("latte"), json(5), json::object({{"id", "latte"}}), json(true)}) {
    require_request_error(json{{"items", bad}}, "items");
  }
  require_request_error(json{{"items", json::array({item("a"), "b"})}}, "items[1]");
  require_request_error(json{{"items", json::array({item("a"), item("b"), 3})}}, "items[2]");
  CHECK(parsed(json{{"items", json::array()}}).items.empty());
}

TEST_CASE("an item price that is not a decimal is a 400 naming items[i].price") {
  for (const json& bad :
       {json("abc"), json(true), json("4,20"), json(" 4.20"), json("$4.20"), json::array({4.2}),
        json::object(), json("1000000000000000"), json("0.1234567890123456789")}) {
    INFO("price: " << bad.dump());
    require_request_error(basket_with({{"price", bad}}), "items[2].price");
  }
}

TEST_CASE("a negative item price is a 400 naming items[i].price") {
  require_request_error(basket_with({{"price", -1}}), "items[2].price");
  require_request_error(basket_with({{"price", "-0.01"}}), "items[2].price");
}

TEST_CASE("item prices may be JSON numbers or numeric strings") {
  const lq::basket_request r = parsed(
      json{{"items", json::array({item("a", {{"price", 4.2}}), item("b", {{"price", "4.20"}}),
                                  item("c", {{"price", "42e-1"}}), item("d", {{"price", 0}})})}});
  REQUIRE(r.items.size() == 4);
  for (int i = 0; i < 3; ++i) {
    REQUIRE(r.items[i].price.has_value());
    CHECK(*r.items[i].price == dec("4.2"));
  }
  REQUIRE(r.items[3].price.has_value());
  CHECK(r.items[3].price->is_zero());
}

TEST_CASE("a raw JSON number keeps its exact decimal value") {
  const lq::basket_request r =
      parsed(std::string(R"({"subtotal": 1.005, "items": [{"id": "a", "price": 0.1}]})"));
  REQUIRE(r.subtotal.has_value());
  CHECK(*r.subtotal == dec("1.005"));
  REQUIRE(r.items.size() == 1);
  REQUIRE(r.items[0].price.has_value());
  CHECK(*r.items[0].price == dec("0.1"));
}

TEST_CASE("quantity must be a positive integer") {
  for (const json& bad : {json(0), json(-1), json(1.5), json("2"), json(true), json(1000000001),
                          json(1e10), json::array({2})}) {
    INFO("quantity: " << bad.dump());
    require_request_error(basket_with({{"quantity", bad}}), "items[2].quantity");
  }
  const lq::basket_request r = parsed(json{
      {"items", json::array({item("a", {{"quantity", 2.0}}), item("b", {{"quantity", 1000000000}}),
                             item("c", {{"quantity", nullptr}}), item("d", {{"quantity", 7}})})}});
  REQUIRE(r.items.size() == 4);
  CHECK(r.items[0].quantity == 2);
  CHECK(r.items[1].quantity == 1000000000);
  CHECK(r.items[2].quantity == 1);
  CHECK(r.items[3].quantity == 7);
}

TEST_CASE("an integral quantity written with an exponent is accepted") {
  const lq::basket_request r = parsed(
      std::string(R"({"items": [{"id": "a", "quantity": 1e3}, {"id": "b", "quantity": 2.0}]})"));
  REQUIRE(r.items.size() == 2);
  CHECK(r.items[0].quantity == 1000);
  CHECK(r.items[1].quantity == 2);
}

TEST_CASE("subtotal must be a non-negative decimal") {
  for (const json& bad : {json("abc"), json(-1), json("-0.01"), json(true), json::array({8}),
                          json("1e15"), json(1e15)}) {
    INFO("subtotal: " << bad.dump());
    require_request_error(json{{"subtotal", bad}}, "subtotal");
  }
  CHECK(*parsed(json{{"subtotal", "8.00"}}).subtotal == dec("8"));
  CHECK(*parsed(json{{"subtotal", 8}}).subtotal == dec("8"));
  CHECK(parsed(json{{"subtotal", 0}}).subtotal->is_zero());
}

TEST_CASE("location_uid and handoff must be strings") {
  require_request_error(json{{"location_uid", 5}}, "location_uid");
  require_request_error(json{{"location_uid", json::array({"a"})}}, "location_uid");
  require_request_error(json{{"handoff", 5}}, "handoff");
  require_request_error(json{{"handoff", json::object()}}, "handoff");
}

TEST_CASE("null optional fields count as omitted, except redemption_venue") {
  const lq::basket_request r = parsed(json{{"order_timestamp", nullptr},
                                           {"location_uid", nullptr},
                                           {"handoff", nullptr},
                                           {"subtotal", nullptr},
                                           {"items", nullptr}});
  CHECK_FALSE(r.order_timestamp.has_value());
  CHECK_FALSE(r.location_uid.has_value());
  CHECK_FALSE(r.handoff.has_value());
  CHECK_FALSE(r.subtotal.has_value());
  CHECK(r.items.empty());
  CHECK(r.redemption_venue == lq::venue::online);

  const lq::basket_request items = parsed(json{{"items", json::array({{{"id", "a"},
                                                                       {"name", nullptr},
                                                                       {"price", nullptr},
                                                                       {"categories", nullptr},
                                                                       {"modifiers", nullptr},
                                                                       {"quantity", nullptr}}})}});
  REQUIRE(items.items.size() == 1);
  CHECK_FALSE(items.items[0].price.has_value());
  CHECK(items.items[0].categories.empty());
  CHECK(items.items[0].modifiers.empty());
  CHECK(items.items[0].quantity == 1);

  require_venue_error(json{{"redemption_venue", nullptr}});
}

TEST_CASE("item fields of the wrong type are 400s naming the path") {
  require_request_error(basket_with({{"id", 5}}), "items[2].id");
  require_request_error(basket_with({{"name", json::array()}}), "items[2].name");
  require_request_error(basket_with({{"categories", "coffee"}}), "items[2].categories");
  require_request_error(basket_with({{"categories", json::array({"coffee", 5})}}),
                        "items[2].categories[1]");
  require_request_error(basket_with({{"modifiers", "oat"}}), "items[2].modifiers");
  require_request_error(basket_with({{"modifiers", json::array({{{"id", "oat"}}, 5})}}),
                        "items[2].modifiers[1]");
  require_request_error(basket_with({{"modifiers", json::array({{{"id", 5}}})}}),
                        "items[2].modifiers[0].id");
}

TEST_CASE("a modifier price that is not a decimal or negative is a 400 naming its path") {
  for (const json& bad : {json("oat"), json(-0.5), json("-0.50"), json(false)}) {
    INFO("modifier price: " << bad.dump());
    require_request_error(
        basket_with({{"modifiers", json::array({{{"id", "oat"}, {"price", "0.50"}},
                                                {{"id", "shot"}, {"price", bad}}})}}),
        "items[2].modifiers[1].price");
  }
}

TEST_CASE("unknown request fields are ignored") {
  const lq::basket_request r = parsed(json{
      {"tip", 2},
      {"customer", {{"name", "Ada"}, {"ids", json::array({1, 2})}}},
      {"subtotal", 8},
      {"items",
       json::array({item(
           "a", {{"sku", 99},
                 {"notes", json::object()},
                 {"modifiers",
                  json::array({{{"id", "oat"}, {"price", "0.5"}, {"group", {{"x", 1}}}}})}})})}});
  REQUIRE(r.items.size() == 1);
  CHECK(r.items[0].modifiers.size() == 1);
  CHECK(*r.subtotal == dec("8"));
}

TEST_CASE("request errors reach the qualifier's callers as error bodies") {
  lq::qualifier q;
  const std::string snapshot =
      R"({"schema_version":1,"merchant":{"id":"m"},"user":{"id":"u"},"rewards":[]})";
  REQUIRE_FALSE(q.set_snapshot(snapshot).has_value());
  const lq::instant now = *lq::parse_rfc3339("2026-03-02T09:00:00Z");

  const auto venue = q.qualify_json(R"({"redemption_venue":"drive-thru"})", now);
  REQUIRE_FALSE(venue.ok());
  CHECK(venue.err().code == 400);
  CHECK(venue.err().message == kVenueMessage);
  const json body = json::parse(lq::render_error(venue.err()));
  CHECK(body == json{{"code", 400}, {"message", kVenueMessage}});

  const auto explained = q.explain_json(R"({"items":[{"price":-1}]})", now);
  REQUIRE_FALSE(explained.ok());
  CHECK(explained.err().code == 400);
  CHECK_THAT(explained.err().message, Catch::Contains("items[0].price"));

  const auto indices = q.qualify(R"({"order_timestamp":"yesterday"})", now);
  REQUIRE_FALSE(indices.ok());
  CHECK(indices.err().code == 400);
  CHECK_THAT(indices.err().message, Catch::Contains("order_timestamp"));
}

TEST_CASE("render_error escapes the message as JSON") {
  const lq::error e{422, "bad \"rewards[0].id\"\n\\ é"};
  const json body = json::parse(lq::render_error(e));
  CHECK(body.size() == 2);
  CHECK(body.at("code") == 422);
  CHECK(body.at("message") == "bad \"rewards[0].id\"\n\\ é");
}
