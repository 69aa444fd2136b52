// The service's JSON documents (service/domain/json_document.*): read by the engine's reader alone,
// so a sandbox body or a fixture is judged, worded and built exactly as the engine reads JSON.
#include <catch2/catch.hpp>

#include <cstdint>
#include <string>

#include "domain/json_document.hpp"

namespace {

using lq::service::json;
using lq::service::parse_json_limited;

std::string refusal(const std::string& text) {
  auto parsed = parse_json_limited(text);
  REQUIRE_FALSE(parsed.ok());
  CHECK(parsed.err().code == 400);
  return parsed.err().message;
}

}  // namespace

TEST_CASE("syntax errors and the depth limit are the engine's, with their offsets") {
  CHECK(refusal(R"({"items":[})") == "request body is not valid JSON: unexpected '}' at offset 10");
  CHECK(refusal("") == "request body is not valid JSON: unexpected end of input at offset 0");
  CHECK(refusal("{} x") ==
        "request body is not valid JSON: unexpected text after the JSON value at offset 3");
  CHECK(refusal(std::string(65, '[') + std::string(65, ']')) ==
        "request body nests deeper than 64 levels at offset 64");
  auto fixture = parse_json_limited("{", "the fixture");
  REQUIRE_FALSE(fixture.ok());
  CHECK(fixture.err().message ==
        "the fixture is not valid JSON: expected a member name at offset 1");
}

TEST_CASE("a number beyond a double is refused; every other number keeps its value") {
  CHECK(refusal(R"({"amount":1e400})") == "request body holds a number out of range");
  CHECK(refusal("-1e400") == "request body holds a number out of range");
  auto parsed = parse_json_limited(
      R"({"a":-9223372036854775808,"b":18446744073709551615,"c":18446744073709551616,"d":1.5e-400,"e":12.50})");
  REQUIRE(parsed.ok());
  const json& value = parsed.value();
  CHECK(value["a"].is_number_integer());
  CHECK(value["a"].get<long long>() == INT64_MIN);
  CHECK(value["b"].is_number_unsigned());
  CHECK(value["b"].get<unsigned long long>() == UINT64_MAX);
  CHECK(value["c"].is_number_float());
  CHECK(value["d"].get<double>() == 0.0);
  CHECK(value["e"].get<double>() == 12.5);
}

TEST_CASE("the value is built as the text says: escapes, order, a repeated name's last value") {
  auto parsed =
      parse_json_limited(R"({"b":"caf\u00e9 \"x\"","a":[true,false,null,{}],"b":"again"})");
  REQUIRE(parsed.ok());
  const json& value = parsed.value();
  CHECK(value.dump() == R"({"b":"again","a":[true,false,null,{}]})");
  auto escaped = parse_json_limited(R"(["caf\u00e9 \"x\""])");
  REQUIRE(escaped.ok());
  CHECK(escaped.value()[0].get<std::string>() == "caf\xc3\xa9 \"x\"");
}
