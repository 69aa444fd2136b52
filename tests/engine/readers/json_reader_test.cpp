// The pull reader under the request and the snapshot: every token kind, every error with its
// offset, the nesting limit and UTF-8 (RFC 8259, RFC 3629).
#include <catch2/catch.hpp>

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "lq/decimal.hpp"
#include "lq/json/json_fields.hpp"
#include "lq/json/json_reader.hpp"

namespace {

using lq::json_reader;
using lq::json_type;

// Skips one value and requires the rest to be white space; "" when the text is one JSON value,
// else the reader's error message.
std::string error_of(std::string_view text) {
  json_reader reader(text);
  if (reader.skip_value() && reader.at_end()) return "";
  return reader.failed() ? reader.error_message() : "trailing content";
}

// The decoded string value of a JSON string literal; fails the test on a reader error.
std::string decoded(std::string_view text) {
  json_reader reader(text);
  std::string out;
  INFO("text: " << text);
  REQUIRE(reader.read_string(out));
  REQUIRE(reader.at_end());
  return out;
}

std::string nested_arrays(int depth) {
  return std::string(static_cast<size_t>(depth), '[') +
         std::string(static_cast<size_t>(depth), ']');
}

}  // namespace

TEST_CASE("peek tells each token kind, skipping white space") {
  const std::pair<const char*, json_type> cases[] = {
      {" {}", json_type::object},    {"\t[]", json_type::array},  {"\n\"a\"", json_type::string},
      {"\r-1", json_type::number},   {"0", json_type::number},    {"true", json_type::boolean},
      {"false", json_type::boolean}, {"null", json_type::null},   {"", json_type::invalid},
      {"  ", json_type::invalid},    {"+1", json_type::invalid},  {".5", json_type::invalid},
      {"x", json_type::invalid},     {"'a'", json_type::invalid},
  };
  for (const auto& [text, type] : cases) {
    INFO("text: '" << text << "'");
    json_reader reader(text);
    CHECK(reader.peek() == type);
    CHECK_FALSE(reader.failed());  // peeking never fails
  }
}

TEST_CASE("objects give their keys in order, decoded") {
  json_reader reader(R"({"a":1, "b\u0063" : [true,false,null] ,"":"x"})");
  REQUIRE(reader.begin_object());
  std::string_view key;
  REQUIRE(reader.next_member(key));
  CHECK(key == "a");
  std::string_view number;
  REQUIRE(reader.read_number(number));
  CHECK(number == "1");
  REQUIRE(reader.next_member(key));
  CHECK(key == "bc");
  REQUIRE(reader.begin_array());
  bool flag = false;
  REQUIRE(reader.next_element());
  REQUIRE(reader.read_bool(flag));
  CHECK(flag);
  REQUIRE(reader.next_element());
  REQUIRE(reader.read_bool(flag));
  CHECK_FALSE(flag);
  REQUIRE(reader.next_element());
  REQUIRE(reader.read_null());
  CHECK_FALSE(reader.next_element());
  REQUIRE(reader.next_member(key));
  CHECK(key.empty());
  std::string text;
  REQUIRE(reader.read_string(text));
  CHECK(text == "x");
  CHECK_FALSE(reader.next_member(key));
  CHECK_FALSE(reader.failed());
  CHECK(reader.at_end());
}

TEST_CASE("empty containers end at once") {
  json_reader reader("[ {} , [ ] ]");
  REQUIRE(reader.begin_array());
  REQUIRE(reader.next_element());
  REQUIRE(reader.begin_object());
  std::string_view key;
  CHECK_FALSE(reader.next_member(key));
  REQUIRE(reader.next_element());
  REQUIRE(reader.begin_array());
  CHECK_FALSE(reader.next_element());
  CHECK_FALSE(reader.next_element());
  CHECK_FALSE(reader.failed());
  CHECK(reader.at_end());
}

TEST_CASE("a number is kept as its exact source text") {
  for (const char* text :
       {"0", "-0", "12", "-0.5", "1e400", "1E+2", "2.50e-3", "123456789012345678901234567890"}) {
    json_reader reader(text);
    std::string_view number;
    REQUIRE(reader.read_number(number));
    CHECK(number == text);
    CHECK(reader.at_end());
  }
}

TEST_CASE("every well-formed value skips and leaves the reader at the end") {
  for (const char* text :
       {"{}", "[]", "\"\"", "0", "true", "false", "null", " [1, \"a\", {\"k\": [null]}] ",
        R"({"a":{"b":{"c":[1,2,{"d":"\u00e9"}]}}})"}) {
    INFO("text: " << text);
    CHECK(error_of(text).empty());
  }
}

TEST_CASE("every syntax error names what went wrong and its byte offset") {
  const std::pair<const char*, const char*> cases[] = {
      {"", "unexpected end of input at offset 0"},
      {"   ", "unexpected end of input at offset 3"},
      {"x", "unexpected 'x' at offset 0"},
      {"[1,]", "unexpected ']' at offset 3"},
      {"[1 2]", "expected ',' or ']' at offset 3"},
      {"[1", "expected ',' or ']' at offset 2"},
      {"{\"a\":1 \"b\":2}", "expected ',' or '}' at offset 7"},
      {"{\"a\":1", "expected ',' or '}' at offset 6"},
      {"{1:2}", "expected a member name at offset 1"},
      {"{\"a\":1,}", "expected a member name at offset 7"},
      {"{\"a\" 1}", "expected ':' at offset 5"},
      {"{\"a\"", "expected ':' at offset 4"},
      {"{\"a\":}", "unexpected '}' at offset 5"},
      {"\"abc", "unterminated string at offset 4"},
      {"\"ab\\", "unterminated string at offset 3"},
      {"\"a\tb\"", "control character in string at offset 2"},
      {"\"a\\x\"", "invalid escape in string at offset 4"},
      {"\"\\u12\"", "invalid \\u escape at offset 3"},
      {"\"\\u12G4\"", "invalid \\u escape at offset 3"},
      {"\"\\ude00\"", "unpaired surrogate in string at offset 7"},
      {"\"\\ud83d\"", "unpaired surrogate in string at offset 7"},
      {"\"\\ud83dx\"", "unpaired surrogate in string at offset 7"},
      {"\"\\ud83d\\u0041\"", "unpaired surrogate in string at offset 13"},
      {"\"\xff\"", "invalid UTF-8 in string at offset 1"},
      {"-", "invalid number at offset 1"},
      {"-a", "invalid number at offset 1"},
      {"1.", "invalid number at offset 2"},
      {"1.e3", "invalid number at offset 2"},
      {"1e", "invalid number at offset 2"},
      {"1e+", "invalid number at offset 3"},
      {"tru", "invalid literal at offset 0"},
      {"nul", "invalid literal at offset 0"},
      {"True", "unexpected 'T' at offset 0"},
      {"fals", "invalid literal at offset 0"},
      {"[1,\x01]", "unexpected byte 0x01 at offset 3"},
      {"[\xff]", "unexpected byte 0xff at offset 1"},
      {"{\"a\": }", "unexpected '}' at offset 6"},
      {"{\"a\": ", "unexpected end of input at offset 6"},
      {"[1,", "unexpected end of input at offset 3"},
  };
  for (const auto& [text, message] : cases) {
    INFO("text: " << text);
    CHECK(error_of(text) == message);
  }
}

TEST_CASE("content after the value is not the end, and is named at its first byte") {
  const std::vector<std::pair<std::string, int>> cases = {{"1 2", 2}, {"{} {}", 3},  {"nulll", 4},
                                                          {"01", 1},  {"\"a\"x", 3}, {"{}\n x", 4}};
  for (const auto& [text, offset] : cases) {
    INFO("text: " << text);
    CHECK(error_of(text) ==
          "unexpected text after the JSON value at offset " + std::to_string(offset));
  }
}

TEST_CASE("a UTF-8 byte-order mark is no JSON value: refused and named, wherever a value starts") {
  // RFC 8259 lets a reader ignore a leading BOM or refuse it; this one refuses it, as JSON.parse
  // refuses a string that starts with U+FEFF (docs/decisions.md).
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"\xEF\xBB\xBF"
       "2",
       "unexpected byte-order mark (U+FEFF) at offset 0"},
      {"\xEF\xBB\xBF{}", "unexpected byte-order mark (U+FEFF) at offset 0"},
      {"\xEF\xBB\xBF", "unexpected byte-order mark (U+FEFF) at offset 0"},
      {" \xEF\xBB\xBF{}", "unexpected byte-order mark (U+FEFF) at offset 1"},
      {"[1,\xEF\xBB\xBF"
       "2]",
       "unexpected byte-order mark (U+FEFF) at offset 3"},
      {"{} \xEF\xBB\xBF", "unexpected text after the JSON value at offset 3"},
      // Cut short, it is just a byte.
      {"\xEF\xBB", "unexpected byte 0xef at offset 0"},
  };
  for (const auto& [text, message] : cases) {
    INFO("text: " << text);
    CHECK(error_of(text) == message);
  }
  // Inside a string U+FEFF is a character like any other.
  CHECK(decoded("\"\xEF\xBB\xBF\"") == "\xEF\xBB\xBF");
  CHECK(decoded("\"\\ufeff\"") == "\xEF\xBB\xBF");
}

TEST_CASE("reading the wrong kind fails with what was expected") {
  {
    json_reader reader("[]");
    CHECK_FALSE(reader.begin_object());
    CHECK(reader.error_message() == "expected an object at offset 0");
  }
  {
    json_reader reader("{}");
    CHECK_FALSE(reader.begin_array());
    CHECK(reader.error_message() == "expected an array at offset 0");
  }
  {
    json_reader reader(" 1");
    std::string out;
    CHECK_FALSE(reader.read_string(out));
    CHECK(reader.error_message() == "expected a string at offset 1");
  }
}

TEST_CASE("the first error sticks: later calls fail and peek is invalid") {
  json_reader reader("[1 2, 3]");
  REQUIRE(reader.begin_array());
  REQUIRE(reader.next_element());
  std::string_view number;
  REQUIRE(reader.read_number(number));
  CHECK_FALSE(reader.next_element());
  CHECK(reader.failed());
  CHECK(reader.peek() == json_type::invalid);
  CHECK_FALSE(reader.skip_value());
  CHECK_FALSE(reader.at_end());
  CHECK(reader.error_message() == "expected ',' or ']' at offset 3");
}

TEST_CASE("nesting at 64 levels is read, at 65 it is refused") {
  CHECK(error_of(nested_arrays(64)).empty());
  CHECK(error_of(nested_arrays(65)) == "nests deeper than 64 levels at offset 64");

  std::string objects;
  for (int i = 0; i < 64; ++i) objects += "{\"a\":";
  CHECK(error_of(objects + "1" + std::string(64, '}')).empty());
  CHECK(error_of(objects + "{}" + std::string(64, '}')) ==
        "nests deeper than 64 levels at offset " + std::to_string(64 * 5));
}

TEST_CASE("the nesting limit is told apart from a syntax error") {
  const std::string too_deep_text = nested_arrays(65);
  const std::string deepest_text = nested_arrays(64);
  json_reader deep(too_deep_text);
  CHECK_FALSE(deep.read_document());
  CHECK(deep.too_deep());
  json_reader broken("[1,]");
  CHECK_FALSE(broken.read_document());
  CHECK_FALSE(broken.too_deep());
  json_reader valid(deepest_text);
  CHECK(valid.read_document());
  CHECK_FALSE(valid.too_deep());
}

TEST_CASE("at 64 levels every level still checks its own commas") {
  // Depth 64 shares a bit of the first-element mask with depth 0: the outer levels must keep
  // their own state across the innermost one.
  std::string text;
  for (int i = 0; i < 63; ++i) text += "[0,";
  text += "[1,2,3]";
  for (int i = 0; i < 63; ++i) text += ",4]";
  CHECK(error_of(text).empty());

  std::string missing_comma;
  for (int i = 0; i < 63; ++i) missing_comma += "[0,";
  missing_comma += "[1 2]";
  for (int i = 0; i < 63; ++i) missing_comma += "]";
  CHECK(error_of(missing_comma) == "expected ',' or ']' at offset " + std::to_string(63 * 3 + 3));
}

TEST_CASE("valid UTF-8 of every length passes through unchanged") {
  CHECK(decoded("\"caf\xc3\xa9\"") == "caf\xc3\xa9");            // 2 bytes
  CHECK(decoded("\"\xe2\x82\xac\"") == "\xe2\x82\xac");          // 3 bytes: euro sign
  CHECK(decoded("\"\xef\xbf\xbf\"") == "\xef\xbf\xbf");          // U+FFFF
  CHECK(decoded("\"\xf0\x9f\x98\x80\"") == "\xf0\x9f\x98\x80");  // 4 bytes: emoji
  CHECK(decoded("\"\xf4\x8f\xbf\xbf\"") == "\xf4\x8f\xbf\xbf");  // U+10FFFF, the last
  CHECK(decoded("\"\xc2\x80\"") == "\xc2\x80");                  // U+0080, the first of 2
  CHECK(decoded("\"\xe0\xa0\x80\"") == "\xe0\xa0\x80");          // U+0800, the first of 3
}

TEST_CASE("escapes decode to UTF-8, surrogate pairs to one code point") {
  CHECK(decoded(R"("\"\\\/\b\f\n\r\t")") == "\"\\/\b\f\n\r\t");
  CHECK(decoded(R"("\u0041\u00e9\u20AC")") == "A\xc3\xa9\xe2\x82\xac");
  CHECK(decoded(R"("\ud83d\ude00")") == "\xf0\x9f\x98\x80");
  CHECK(decoded(R"("\uDBFF\uDFFF")") == "\xf4\x8f\xbf\xbf");
  CHECK(decoded(R"("a\u0000b")") == std::string("a\0b", 3));
}

TEST_CASE("malformed UTF-8 is refused: overlong, surrogate, beyond U+10FFFF, cut short") {
  const char* cases[] = {
      "\"\xc0\x80\"",          // overlong NUL
      "\"\xc1\xbf\"",          // overlong 2-byte
      "\"\xe0\x80\x80\"",      // overlong 3-byte
      "\"\xf0\x80\x80\x80\"",  // overlong 4-byte
      "\"\xed\xa0\x80\"",      // U+D800, a surrogate
      "\"\xed\xbf\xbf\"",      // U+DFFF
      "\"\xf4\x90\x80\x80\"",  // U+110000
      "\"\xf5\x80\x80\x80\"",  // lead byte beyond F4
      "\"\x80\"",              // a lone continuation byte
      "\"\xc3\"",              // cut short by the closing quote
      "\"\xe2\x82\"",          // cut short
      "\"\xc3(\"",             // a continuation byte missing
  };
  for (const char* text : cases) {
    INFO("text: " << text);
    CHECK(error_of(text) == "invalid UTF-8 in string at offset 1");
  }
  // Cut short by the end of the text.
  CHECK(error_of("\"\xf0\x9f\x98") == "invalid UTF-8 in string at offset 1");
}

TEST_CASE("member names are decoded and checked like strings") {
  json_reader reader("{\"caf\xc3\xa9\":1,\"\\u0041\":2}");
  REQUIRE(reader.begin_object());
  std::string_view key;
  REQUIRE(reader.next_member(key));
  CHECK(key == "caf\xc3\xa9");
  REQUIRE(reader.skip_value());
  REQUIRE(reader.next_member(key));
  CHECK(key == "A");
  REQUIRE(reader.skip_value());
  CHECK_FALSE(reader.next_member(key));
  CHECK(reader.at_end());

  CHECK(error_of("{\"\xff\":1}") == "invalid UTF-8 in string at offset 2");
  CHECK(error_of("{\"a\nb\":1}") == "control character in string at offset 3");
}

TEST_CASE("read_string_view views a plain string in place and decodes an escaped one") {
  const std::string text = R"(["plain caf)"
                           "\xc3\xa9"
                           R"(", "with \"escape\" and \u00e9 after", "tail"])";
  json_reader reader(text);
  REQUIRE(reader.begin_array());
  std::string_view value;
  REQUIRE(reader.next_element());
  REQUIRE(reader.read_string_view(value));
  CHECK(value == "plain caf\xc3\xa9");
  CHECK(value.data() == text.data() + 2);  // in place: nothing copied
  REQUIRE(reader.next_element());
  REQUIRE(reader.read_string_view(value));
  CHECK(value == "with \"escape\" and \xc3\xa9 after");
  REQUIRE(reader.next_element());
  REQUIRE(reader.read_string_view(value));
  CHECK(value == "tail");
  CHECK_FALSE(reader.next_element());
  CHECK(reader.at_end());

  // Errors after a plain run keep their offsets.
  CHECK(error_of("\"abc\x01\"") == "control character in string at offset 4");
  CHECK(error_of("\"abc\\q\"") == "invalid escape in string at offset 6");
  CHECK(error_of("\"abc") == "unterminated string at offset 4");
  CHECK(error_of("\"ab\xc3\xa9\xff\"") == "invalid UTF-8 in string at offset 5");
}

TEST_CASE("a decimal field reads every text exactly as decimal::parse does") {
  // The field reader's fast path for plain prices must agree with the full parser everywhere,
  // including just outside the fast path's shape.
  const char* texts[] = {
      "0",
      "5",
      "16.23",
      "0.5",
      "00.5",
      "01",
      "0.",
      ".5",
      "1.0",
      "-1.5",
      "-0",
      "1e2",
      "1.5e1",
      "1.50E-1",
      "12a",
      "1.2.3",
      "999999999999999",
      "1000000000000000",
      "999999999999999.999999999999999999",
      "0.123456789012345678",
      "0.1234567890123456789",
      "1.0000000000000000000",
      "0000000000000000",
      "123456789012345678",
      "1 ",
      "",
  };
  for (const char* text : texts) {
    for (const bool quoted : {false, true}) {
      const std::string json = quoted ? "\"" + std::string(text) + "\"" : std::string(text);
      INFO("json: " << json);
      json_reader reader(json);
      lq::decimal value;
      const lq::field_status status = lq::read_decimal_field(reader, value);
      std::string_view number = text;  // a JSON number's text ends before white space
      if (!quoted) number = number.substr(0, number.find(' '));
      const auto expected = lq::decimal::parse(number);
      if (!quoted && !reader.failed() && status == lq::field_status::wrong) {
        CHECK_FALSE(expected);  // a JSON number decimal::parse refuses
        continue;
      }
      if (reader.failed() || !reader.at_end()) continue;  // not one JSON number
      CHECK((status == lq::field_status::ok) == expected.has_value());
      if (expected && status == lq::field_status::ok) CHECK(value == *expected);
    }
  }
}
