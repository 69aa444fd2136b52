// Exact money: a signed 128-bit count of 10^-18 units. Never binary floating point.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace lq {

class decimal {
 public:
  __extension__ typedef __int128 mantissa_t;  // NOLINT(modernize-use-using)
  static constexpr int kScale = 18;

  constexpr decimal() = default;
  static constexpr decimal from_units(mantissa_t units) { return decimal(units); }
  static decimal from_integer(int64_t n);
  static decimal from_cents(int64_t cents);

  /// Parses JSON number syntax (`5`, `-5.50`, `1e-2`) exactly; nullopt when malformed, when it
  /// has more than 18 fractional digits or when its magnitude reaches 10^15 (out of range).
  static std::optional<decimal> parse(std::string_view text);

  constexpr mantissa_t units() const { return units_; }
  constexpr bool is_zero() const { return units_ == 0; }
  constexpr bool is_negative() const { return units_ < 0; }

  /// nullopt on overflow (magnitude reaching 10^20).
  static std::optional<decimal> add(decimal a, decimal b);
  static std::optional<decimal> multiply(decimal a, int64_t n);
  /// a * b truncated toward zero at 10^-18 (exact for every rounding to cents that follows).
  static std::optional<decimal> multiply(decimal a, decimal b);
  /// a / 100, truncated toward zero at 10^-18.
  decimal percent() const { return decimal(units_ / 100); }
  decimal operator-(decimal other) const { return decimal(units_ - other.units_); }

  /// Whole cents, half-up (away from zero on .5).
  int64_t round_half_up_cents() const;
  /// Whole cents, rounded toward +infinity.
  int64_t round_up_cents() const;

  friend constexpr bool operator<(decimal a, decimal b) { return a.units_ < b.units_; }
  friend constexpr bool operator>(decimal a, decimal b) { return a.units_ > b.units_; }
  friend constexpr bool operator<=(decimal a, decimal b) { return a.units_ <= b.units_; }
  friend constexpr bool operator>=(decimal a, decimal b) { return a.units_ >= b.units_; }
  friend constexpr bool operator==(decimal a, decimal b) { return a.units_ == b.units_; }
  friend constexpr bool operator!=(decimal a, decimal b) { return a.units_ != b.units_; }

 private:
  constexpr explicit decimal(mantissa_t units) : units_(units) {}
  mantissa_t units_ = 0;
};

inline decimal min(decimal a, decimal b) {
  return b < a ? b : a;
}
inline decimal max(decimal a, decimal b) {
  return a < b ? b : a;
}

/// "12.34" for 1234 cents; "-0.05" for -5.
std::string format_cents(int64_t cents);

/// Exact text with at least two fraction digits: 12.5 -> "12.50", 0.125 -> "0.125".
std::string format_decimal(decimal value);

}  // namespace lq
