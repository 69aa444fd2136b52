#include "money.hpp"

namespace lq::service {

namespace {

decimal::mantissa_t power_of_ten(int exponent) {
  decimal::mantissa_t scale = 1;
  for (int i = 0; i < exponent; ++i) scale *= 10;
  return scale;
}

}  // namespace

std::string decimal_text(decimal value) {
  decimal::mantissa_t units = value.units();
  const bool negative = units < 0;
  if (negative) units = -units;
  const decimal::mantissa_t scale = power_of_ten(decimal::kScale);
  decimal::mantissa_t whole = units / scale;
  decimal::mantissa_t fraction = units % scale;
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

decimal decimal_from_cents(int64_t cents) {
  return decimal::from_units(static_cast<decimal::mantissa_t>(cents) *
                             power_of_ten(decimal::kScale - 2));
}

std::optional<int64_t> accrued_points(decimal amount, const std::string& points_per_dollar) {
  std::optional<decimal> rate = decimal::parse(points_per_dollar);
  if (!rate) return std::nullopt;
  std::optional<decimal> product = decimal::multiply(amount, *rate);
  if (!product) return std::nullopt;
  // Non-negative, so truncation is the floor.
  const decimal::mantissa_t points = product->units() / power_of_ten(decimal::kScale);
  if (points > INT64_MAX) return std::nullopt;
  return static_cast<int64_t>(points);
}

}  // namespace lq::service
