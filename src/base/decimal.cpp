#include "lq/decimal.hpp"

#include <cstddef>

namespace lq {

namespace {

using m128 = decimal::mantissa_t;

constexpr m128 pow10(int n) {
  m128 p = 1;
  for (int i = 0; i < n; ++i) p *= 10;
  return p;
}

constexpr m128 kOne = pow10(decimal::kScale);
// Intermediate results stay below 10^20 in magnitude (10^38 units): comfortably inside __int128.
constexpr m128 kLimit = pow10(38);
constexpr int kMaxIntegerDigits = 15;  // parsed values stay below 10^15

m128 magnitude(m128 v) {
  return v < 0 ? -v : v;
}

std::optional<decimal> checked(m128 units) {
  if (magnitude(units) >= kLimit) return std::nullopt;
  return decimal::from_units(units);
}

bool is_digit(char c) {
  return c >= '0' && c <= '9';
}

}  // namespace

decimal decimal::from_integer(int64_t n) {
  return decimal(static_cast<m128>(n) * kOne);
}

decimal decimal::from_cents(int64_t cents) {
  return decimal(static_cast<m128>(cents) * pow10(kScale - 2));
}

std::optional<decimal> decimal::parse(std::string_view text) {
  size_t i = 0;
  const size_t n = text.size();
  bool negative = false;
  if (i < n && text[i] == '-') {
    negative = true;
    ++i;
  }
  if (i >= n || !is_digit(text[i])) return std::nullopt;
  if (text[i] == '0' && i + 1 < n && is_digit(text[i + 1])) return std::nullopt;  // leading zero

  // Significant digits D and exponent e with value = D * 10^e.
  m128 digits = 0;
  int significant = 0;
  int64_t exponent = 0;
  int pending_zeros = 0;  // trailing zeros not yet folded into `digits`
  auto push_digit = [&](char c, bool fractional) {
    if (fractional) --exponent;
    if (c == '0') {
      if (significant > 0)
        ++pending_zeros;
      else if (fractional) {
        // leading zeros of a fraction only shift the exponent
      }
      return true;
    }
    if (significant + pending_zeros + 1 > 36) return false;
    for (; pending_zeros > 0; --pending_zeros) {
      digits *= 10;
      ++significant;
    }
    digits = digits * 10 + (c - '0');
    ++significant;
    return true;
  };
  for (; i < n && is_digit(text[i]); ++i) {
    if (!push_digit(text[i], false)) return std::nullopt;
  }
  if (i < n && text[i] == '.') {
    ++i;
    if (i >= n || !is_digit(text[i])) return std::nullopt;
    for (; i < n && is_digit(text[i]); ++i) {
      if (!push_digit(text[i], true)) return std::nullopt;
    }
  }
  if (i < n && (text[i] == 'e' || text[i] == 'E')) {
    ++i;
    bool exp_negative = false;
    if (i < n && (text[i] == '+' || text[i] == '-')) {
      exp_negative = text[i] == '-';
      ++i;
    }
    if (i >= n || !is_digit(text[i])) return std::nullopt;
    int64_t e = 0;
    for (; i < n && is_digit(text[i]); ++i) {
      if (e < 100000) e = e * 10 + (text[i] - '0');
    }
    exponent += exp_negative ? -e : e;
  }
  if (i != n) return std::nullopt;
  if (significant == 0) return decimal();
  exponent += pending_zeros;  // trailing zeros of the integer part, or of a fraction

  if (exponent + kScale < 0) return std::nullopt;                       // finer than 10^-18
  if (significant + exponent > kMaxIntegerDigits) return std::nullopt;  // >= 10^15
  m128 units = digits * pow10(static_cast<int>(exponent + kScale));
  return decimal(negative ? -units : units);
}

std::optional<decimal> decimal::add(decimal a, decimal b) {
  return checked(a.units_ + b.units_);
}

std::optional<decimal> decimal::multiply(decimal a, int64_t n) {
  if (a.units_ != 0 && magnitude(static_cast<m128>(n)) >= kLimit / magnitude(a.units_)) {
    return std::nullopt;
  }
  return checked(a.units_ * n);
}

std::optional<decimal> decimal::multiply(decimal a, decimal b) {
  const bool negative = (a.units_ < 0) != (b.units_ < 0);
  const m128 x = magnitude(a.units_);
  const m128 y = magnitude(b.units_);
  // x*y/10^18 without a 256-bit intermediate: split both at 10^18.
  const m128 x1 = x / kOne, x0 = x % kOne;
  const m128 y1 = y / kOne, y0 = y % kOne;
  if (x1 != 0 && y1 > (kLimit / kOne) / x1) return std::nullopt;
  m128 total = x1 * y1 * kOne;
  for (m128 part : {x1 * y0, x0 * y1, (x0 * y0) / kOne}) {
    total += part;
    if (total >= kLimit) return std::nullopt;
  }
  return decimal(negative ? -total : total);
}

int64_t decimal::round_half_up_cents() const {
  constexpr m128 kCent = pow10(kScale - 2);
  const m128 cents = (magnitude(units_) + kCent / 2) / kCent;
  return static_cast<int64_t>(units_ < 0 ? -cents : cents);
}

int64_t decimal::round_up_cents() const {
  constexpr m128 kCent = pow10(kScale - 2);
  m128 cents = units_ / kCent;
  if (units_ % kCent > 0) ++cents;
  return static_cast<int64_t>(cents);
}

std::string format_cents(int64_t cents) {
  const bool negative = cents < 0;
  const uint64_t magnitude_cents =
      negative ? 0 - static_cast<uint64_t>(cents) : static_cast<uint64_t>(cents);
  std::string out = std::to_string(magnitude_cents / 100);
  const unsigned fraction = static_cast<unsigned>(magnitude_cents % 100);
  out += '.';
  out += static_cast<char>('0' + fraction / 10);
  out += static_cast<char>('0' + fraction % 10);
  return negative ? "-" + out : out;
}

std::string format_decimal(decimal value) {
  const bool negative = value.is_negative();
  m128 whole = magnitude(value.units()) / kOne;
  m128 fraction = magnitude(value.units()) % kOne;
  std::string whole_text;
  do {
    whole_text.insert(whole_text.begin(), static_cast<char>('0' + static_cast<int>(whole % 10)));
    whole /= 10;
  } while (whole != 0);
  std::string fraction_text(decimal::kScale, '0');
  for (int i = decimal::kScale - 1; i >= 0; --i) {
    fraction_text[static_cast<size_t>(i)] =
        static_cast<char>('0' + static_cast<int>(fraction % 10));
    fraction /= 10;
  }
  while (fraction_text.size() > 2 && fraction_text.back() == '0') fraction_text.pop_back();
  return (negative ? "-" : "") + whole_text + "." + fraction_text;
}

}  // namespace lq
