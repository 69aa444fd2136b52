// Exact money (decimal.hpp): JSON number syntax, range limits, half-up rounding to cents.
#include <catch2/catch.hpp>

#include <string>
#include <string_view>

#include "lq/decimal.hpp"

namespace {

using lq::decimal;

/// The exact value as plain decimal text ("-5.5", "0.000000000000000001"), for readable failures.
std::string text(decimal d) {
  decimal::mantissa_t units = d.units();
  const bool negative = units < 0;
  unsigned __int128 magnitude =
      negative ? -static_cast<unsigned __int128>(units) : static_cast<unsigned __int128>(units);
  std::string digits;
  do {
    digits.insert(digits.begin(), static_cast<char>('0' + static_cast<int>(magnitude % 10)));
    magnitude /= 10;
  } while (magnitude != 0);
  while (digits.size() < decimal::kScale + 1) digits.insert(digits.begin(), '0');
  digits.insert(digits.size() - decimal::kScale, ".");
  while (digits.back() == '0') digits.pop_back();
  if (digits.back() == '.') digits.pop_back();
  return (negative ? "-" : "") + digits;
}

std::string parsed(std::string_view json_number) {
  const auto d = decimal::parse(json_number);
  return d ? text(*d) : "nullopt";
}

decimal dec(std::string_view json_number) {
  const auto d = decimal::parse(json_number);
  REQUIRE(d.has_value());
  return *d;
}

constexpr decimal::mantissa_t kUnit = static_cast<decimal::mantissa_t>(1000000000000000000LL);

}  // namespace

TEST_CASE("decimals parse JSON integers and fractions exactly") {
  CHECK(parsed("5") == "5");
  CHECK(parsed("0") == "0");
  CHECK(parsed("-0") == "0");
  CHECK(parsed("5.5") == "5.5");
  CHECK(parsed("5.50") == "5.5");
  CHECK(parsed("-5.50") == "-5.5");
  CHECK(parsed("4.20") == "4.2");
  CHECK(parsed("0.1") == "0.1");
  CHECK(parsed("0.30000000000000004") == "0.30000000000000004");
  CHECK(parsed("123456789012345") == "123456789012345");
  CHECK(dec("5.5").units() == kUnit * 11 / 2);
  CHECK(dec("-0").is_zero());
  CHECK_FALSE(dec("-0").is_negative());
  CHECK(dec("-0.01").is_negative());
  CHECK(decimal::from_integer(-3) == dec("-3"));
  CHECK(decimal::from_integer(42) == dec("42.000"));
  CHECK(decimal::from_units(1) == dec("0.000000000000000001"));
}

TEST_CASE("decimals parse exponent forms exactly") {
  CHECK(parsed("1e-2") == "0.01");
  CHECK(parsed("1E-2") == "0.01");
  CHECK(parsed("1e2") == "100");
  CHECK(parsed("1E+2") == "100");
  CHECK(parsed("1.5e+1") == "15");
  CHECK(parsed("-2.5e-1") == "-0.25");
  CHECK(parsed("123.456e2") == "12345.6");
  CHECK(parsed("100e-2") == "1");
  CHECK(parsed("0e0") == "0");
  CHECK(parsed("1e-18") == "0.000000000000000001");
  CHECK(parsed("1e14") == "100000000000000");
}

TEST_CASE("decimals reject anything outside JSON number syntax") {
  for (const char* bad :
       {"",    "-",   "+5",       "05",        "-05", ".5",    "5.",   "-.5",   "1e",
        "1e+", "1e-", "e5",       "abc",       " 5",  "5 ",    "0x10", "1,5",   "1.2.3",
        "--5", "NaN", "Infinity", "-Infinity", "inf", "1_000", "5$",   "1e2.5", "٣"}) {
    INFO("input: '" << bad << "'");
    CHECK_FALSE(decimal::parse(bad).has_value());
  }
}

TEST_CASE("decimals keep at most 18 fractional digits") {
  CHECK(parsed("0.123456789012345678") == "0.123456789012345678");
  CHECK(parsed("0.1234567890123456789") == "nullopt");
  CHECK(parsed("0.0000000000000000001") == "nullopt");
  CHECK(parsed("1e-19") == "nullopt");
  CHECK(parsed("1.5e-18") == "nullopt");
  CHECK(parsed("1e-400") == "nullopt");
}

TEST_CASE("decimals with a magnitude of 10^15 or more are out of range") {
  CHECK(parsed("999999999999999.99") == "999999999999999.99");
  CHECK(parsed("-999999999999999.999999999999999999") == "-999999999999999.999999999999999999");
  CHECK(parsed("1000000000000000") == "nullopt");
  CHECK(parsed("-1000000000000000") == "nullopt");
  CHECK(parsed("1000000000000000.5") == "nullopt");
  CHECK(parsed("1e15") == "nullopt");
  CHECK(parsed("1e400") == "nullopt");
  CHECK(parsed("99999999999999999999999999999999999999999") == "nullopt");
}

TEST_CASE("0.1 + 0.2 is exactly 0.3") {
  const auto sum = decimal::add(dec("0.1"), dec("0.2"));
  REQUIRE(sum.has_value());
  CHECK(*sum == dec("0.3"));
  CHECK(text(*sum) == "0.3");
  CHECK(sum->round_half_up_cents() == 30);
}

TEST_CASE("decimal arithmetic is exact") {
  CHECK(text(dec("10") - dec("4.2")) == "5.8");
  CHECK(text(dec("4.2") - dec("10")) == "-5.8");

  const auto times3 = decimal::multiply(dec("4.20"), int64_t{3});
  REQUIRE(times3.has_value());
  CHECK(text(*times3) == "12.6");

  const auto product = decimal::multiply(dec("1.5"), dec("2.5"));
  REQUIRE(product.has_value());
  CHECK(text(*product) == "3.75");

  // 12.5% of 10.01 = 1.25125, exactly.
  const auto scaled = decimal::multiply(dec("10.01"), dec("12.5"));
  REQUIRE(scaled.has_value());
  CHECK(text(scaled->percent()) == "1.25125");

  // Below 10^-18 the product is truncated toward zero.
  const auto tiny = decimal::multiply(dec("0.000000000000000001"), dec("0.5"));
  REQUIRE(tiny.has_value());
  CHECK(tiny->is_zero());
  const auto tiny_negative = decimal::multiply(dec("-0.000000000000000003"), dec("0.5"));
  REQUIRE(tiny_negative.has_value());
  CHECK(text(*tiny_negative) == "-0.000000000000000001");

  CHECK(lq::min(dec("1"), dec("2")) == dec("1"));
  CHECK(lq::max(dec("1"), dec("2")) == dec("2"));
  CHECK(dec("1.00") == dec("1"));
  CHECK(dec("0.99") < dec("1"));
  CHECK(dec("-1") < dec("0"));
}

TEST_CASE("decimal arithmetic reports overflow as nullopt") {
  // 10^20 is 10^38 units.
  const decimal::mantissa_t half_limit = kUnit * kUnit * 50;  // 5 * 10^37 units = 5 * 10^19
  const decimal near_limit = decimal::from_units(half_limit);
  CHECK_FALSE(decimal::add(near_limit, near_limit).has_value());
  CHECK_FALSE(
      decimal::add(decimal::from_units(-half_limit), decimal::from_units(-half_limit)).has_value());
  CHECK(decimal::add(near_limit, decimal::from_units(kUnit * kUnit * 40)).has_value());

  CHECK_FALSE(decimal::multiply(dec("999999999999999"), int64_t{1000000}).has_value());
  CHECK_FALSE(decimal::multiply(dec("-999999999999999"), int64_t{1000000}).has_value());
  CHECK(decimal::multiply(dec("100000000000000"), int64_t{100000}).has_value());  // 10^19
  CHECK_FALSE(decimal::multiply(dec("100000000000000"), dec("100000000000000")).has_value());
  CHECK_FALSE(
      decimal::multiply(dec("999999999999999"), int64_t{1000000000000000000LL}).has_value());
}

TEST_CASE("cents are rounded half-up, away from zero, without the binary trap") {
  CHECK(dec("1.005").round_half_up_cents() == 101);  // 1.005 as a double is 1.00499999...
  CHECK(dec("2.675").round_half_up_cents() == 268);  // 2.675 as a double is 2.67499999...
  CHECK(dec("1.004999999999999999").round_half_up_cents() == 100);
  CHECK(dec("0.125").round_half_up_cents() == 13);
  CHECK(dec("0.124").round_half_up_cents() == 12);
  CHECK(dec("0.005").round_half_up_cents() == 1);
  CHECK(dec("0.004999").round_half_up_cents() == 0);
  CHECK(dec("-0.005").round_half_up_cents() == -1);
  CHECK(dec("-0.125").round_half_up_cents() == -13);
  CHECK(dec("-0.004").round_half_up_cents() == 0);
  CHECK(dec("3").round_half_up_cents() == 300);
  CHECK(dec("999999999999999.995").round_half_up_cents() == 100000000000000000LL);
}

TEST_CASE("cents rounded up go toward +infinity") {
  CHECK(dec("3.501").round_up_cents() == 351);
  CHECK(dec("3.50").round_up_cents() == 350);
  CHECK(dec("3.499").round_up_cents() == 350);
  CHECK(dec("0.000000000000000001").round_up_cents() == 1);
  CHECK(dec("0").round_up_cents() == 0);
  CHECK(dec("-0.019").round_up_cents() == -1);
  CHECK(dec("-0.01").round_up_cents() == -1);
}

TEST_CASE("format_cents writes two decimals") {
  CHECK(lq::format_cents(1234) == "12.34");
  CHECK(lq::format_cents(0) == "0.00");
  CHECK(lq::format_cents(5) == "0.05");
  CHECK(lq::format_cents(50) == "0.50");
  CHECK(lq::format_cents(100) == "1.00");
  CHECK(lq::format_cents(-5) == "-0.05");
  CHECK(lq::format_cents(-100) == "-1.00");
  CHECK(lq::format_cents(-1234) == "-12.34");
  CHECK(lq::format_cents(99999999999999999LL) == "999999999999999.99");
}
