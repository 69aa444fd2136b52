// libFuzzer target: decimal::parse against an independent reference reading of the JSON number
// grammar, and the arithmetic (add, multiply, rounding to cents, format_cents) on what it parses.
// Input: one or two numbers separated by a comma.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <optional>
#include <string>
#include <string_view>

#include "harness/fuzz_check.hpp"
#include "lq/decimal.hpp"

namespace {

using i128 = lq::decimal::mantissa_t;
using u128 = unsigned __int128;

i128 pow10(int n) {
  i128 p = 1;
  for (int i = 0; i < n; ++i) p *= 10;
  return p;
}

const i128 kOne = pow10(18);
const i128 kLimit = pow10(38);

bool is_digit(char c) {
  return c >= '0' && c <= '9';
}

// The contract's reading: JSON number syntax, exact value, at most 18 fractional digits once
// trailing zeros are dropped, magnitude below 10^15.
std::optional<i128> reference_parse(std::string_view s) {
  size_t i = 0;
  bool negative = false;
  if (i < s.size() && s[i] == '-') negative = true, ++i;
  std::string digits;
  const size_t int_start = i;
  while (i < s.size() && is_digit(s[i])) digits += s[i++];
  if (i == int_start) return std::nullopt;
  if (s[int_start] == '0' && i - int_start > 1) return std::nullopt;
  long long exponent = 0;
  if (i < s.size() && s[i] == '.') {
    ++i;
    const size_t frac_start = i;
    while (i < s.size() && is_digit(s[i])) digits += s[i++], --exponent;
    if (i == frac_start) return std::nullopt;
  }
  if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
    ++i;
    bool exp_negative = false;
    if (i < s.size() && (s[i] == '+' || s[i] == '-')) exp_negative = s[i++] == '-';
    const size_t exp_start = i;
    long long e = 0;
    while (i < s.size() && is_digit(s[i])) {
      if (e < 1000000000) e = e * 10 + (s[i] - '0');
      ++i;
    }
    if (i == exp_start) return std::nullopt;
    exponent += exp_negative ? -e : e;
  }
  if (i != s.size()) return std::nullopt;
  const size_t first = digits.find_first_not_of('0');
  if (first == std::string::npos) return i128{0};
  digits.erase(0, first);
  while (digits.back() == '0') digits.pop_back(), ++exponent;
  if (exponent < -18) return std::nullopt;
  if (static_cast<long long>(digits.size()) + exponent > 15) return std::nullopt;
  i128 units = 0;
  for (char c : digits) units = units * 10 + (c - '0');
  units *= pow10(static_cast<int>(exponent + 18));
  return negative ? -units : units;
}

// |a| * |b| / 10^18 truncated, exactly, through 64-bit limbs; nullopt at 10^38 or more.
std::optional<i128> reference_multiply(i128 a, i128 b) {
  const bool negative = (a < 0) != (b < 0);
  const u128 x = static_cast<u128>(a < 0 ? -a : a);
  const u128 y = static_cast<u128>(b < 0 ? -b : b);
  const uint64_t xs[2] = {static_cast<uint64_t>(x), static_cast<uint64_t>(x >> 64)};
  const uint64_t ys[2] = {static_cast<uint64_t>(y), static_cast<uint64_t>(y >> 64)};
  uint64_t product[4] = {0, 0, 0, 0};
  for (int i = 0; i < 2; ++i) {
    u128 carry = 0;
    for (int j = 0; j < 2; ++j) {
      const u128 t = static_cast<u128>(xs[i]) * ys[j] + product[i + j] + carry;
      product[i + j] = static_cast<uint64_t>(t);
      carry = t >> 64;
    }
    product[i + 2] = static_cast<uint64_t>(carry);
  }
  // Long division by 10^18 (fits in 64 bits), most significant limb first.
  const uint64_t divisor = 1000000000000000000ULL;
  uint64_t quotient[4] = {0, 0, 0, 0};
  u128 remainder = 0;
  for (int i = 3; i >= 0; --i) {
    const u128 current = (remainder << 64) | product[i];
    quotient[i] = static_cast<uint64_t>(current / divisor);
    remainder = current % divisor;
  }
  if (quotient[3] != 0 || quotient[2] != 0) return std::nullopt;
  const u128 q = (static_cast<u128>(quotient[1]) << 64) | quotient[0];
  if (q >= static_cast<u128>(kLimit)) return std::nullopt;
  return negative ? -static_cast<i128>(q) : static_cast<i128>(q);
}

void check_one(i128 units) {
  const lq::decimal d = lq::decimal::from_units(units);
  const i128 cent = pow10(16);
  const i128 magnitude = units < 0 ? -units : units;
  const i128 half_up = (magnitude + cent / 2) / cent;
  LQ_FUZZ_CHECK(d.round_half_up_cents() == static_cast<int64_t>(units < 0 ? -half_up : half_up));
  // Ceiling toward +infinity.
  i128 ceiling = units / cent;
  if (units > 0 && units % cent != 0) ++ceiling;
  LQ_FUZZ_CHECK(d.round_up_cents() == static_cast<int64_t>(ceiling));
  const int64_t cents = d.round_half_up_cents();
  char expected[64];
  const unsigned long long abs_cents = cents < 0 ? 0ULL - static_cast<unsigned long long>(cents)
                                                 : static_cast<unsigned long long>(cents);
  std::snprintf(expected, sizeof expected, "%s%llu.%02llu", cents < 0 ? "-" : "", abs_cents / 100,
                abs_cents % 100);
  LQ_FUZZ_CHECK(lq::format_cents(cents) == expected);
  LQ_FUZZ_CHECK(d.percent().units() == units / 100);
  // Parsing the exact decimal expansion gives the same value back (within the parse range).
  if (magnitude >= pow10(33)) return;
  std::string text;
  {
    char buffer[80];
    const u128 whole = static_cast<u128>(magnitude / kOne);
    const u128 fraction = static_cast<u128>(magnitude % kOne);
    std::snprintf(buffer, sizeof buffer, "%s%llu.%018llu", units < 0 ? "-" : "",
                  static_cast<unsigned long long>(whole),
                  static_cast<unsigned long long>(fraction));
    text = buffer;
  }
  const auto back = lq::decimal::parse(text);
  LQ_FUZZ_CHECK(back && back->units() == units);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  const size_t comma = input.find(',');
  const std::string_view first = input.substr(0, comma);
  const auto a = lq::decimal::parse(first);
  const auto expected_a = reference_parse(first);
  LQ_FUZZ_CHECK(a.has_value() == expected_a.has_value());
  if (!a) return 0;
  LQ_FUZZ_CHECK(a->units() == *expected_a);
  check_one(a->units());
  LQ_FUZZ_CHECK(a->is_negative() == (a->units() < 0) && a->is_zero() == (a->units() == 0));
  if (comma == std::string_view::npos) return 0;

  const std::string_view second = input.substr(comma + 1);
  const auto b = lq::decimal::parse(second);
  const auto expected_b = reference_parse(second);
  LQ_FUZZ_CHECK(b.has_value() == expected_b.has_value());
  if (!b) return 0;
  LQ_FUZZ_CHECK(b->units() == *expected_b);

  const i128 sum = a->units() + b->units();
  const auto added = lq::decimal::add(*a, *b);
  LQ_FUZZ_CHECK(added.has_value() == ((sum < 0 ? -sum : sum) < kLimit));
  if (added) LQ_FUZZ_CHECK(added->units() == sum);

  const auto product = lq::decimal::multiply(*a, *b);
  const auto expected_product = reference_multiply(a->units(), b->units());
  LQ_FUZZ_CHECK(product.has_value() == expected_product.has_value());
  if (product) {
    LQ_FUZZ_CHECK(product->units() == *expected_product);
    check_one(product->units());
  }

  // An integer factor (a quantity): b's whole part when it fits.
  const i128 whole_b = b->units() / kOne;
  if (whole_b > -(i128{1} << 62) && whole_b < (i128{1} << 62)) {
    const auto n = static_cast<int64_t>(whole_b);
    const auto scaled = lq::decimal::multiply(*a, n);
    const i128 abs_a = a->units() < 0 ? -a->units() : a->units();
    const i128 abs_n = n < 0 ? -static_cast<i128>(n) : n;
    // Refused only when |a * n| is at (or within one |a| of) the 10^38-unit limit.
    if (!scaled) LQ_FUZZ_CHECK(abs_a != 0 && abs_n >= kLimit / abs_a);
    if (scaled) LQ_FUZZ_CHECK(scaled->units() == a->units() * n);
  }
  LQ_FUZZ_CHECK((*a < *b) == (a->units() < b->units()));
  LQ_FUZZ_CHECK((lq::min(*a, *b)).units() == (a->units() < b->units() ? a->units() : b->units()));
  return 0;
}
