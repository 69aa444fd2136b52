#include "domain/purchases/purchase.hpp"

#include <utility>

#include "front/service_clock.hpp"

namespace lq::service {

namespace {

// floor(amount x points_per_dollar) for a non-negative amount; nullopt when out of range.
std::optional<int64_t> accrued_points(decimal amount, const std::string& points_per_dollar) {
  std::optional<decimal> rate = decimal::parse(points_per_dollar);
  if (!rate) return std::nullopt;
  std::optional<decimal> product = decimal::multiply(amount, *rate);
  if (!product) return std::nullopt;
  // Non-negative, so truncation is the floor.
  const decimal::mantissa_t points = product->units() / decimal::from_integer(1).units();
  if (points > INT64_MAX) return std::nullopt;
  return static_cast<int64_t>(points);
}

}  // namespace

std::optional<purchase_row> new_purchase(const merchant_row& merchant, const std::string& user_id,
                                         decimal amount, std::string purchased_at,
                                         int64_t processing_delay_ms) {
  std::optional<int64_t> points = accrued_points(amount, merchant.points_per_dollar);
  if (!points) return std::nullopt;
  purchase_row row;
  row.merchant_id = merchant.id;
  row.user_id = user_id;
  row.amount = format_decimal(amount);
  row.points = *points;
  row.points_experience_id = merchant.points_experience_id;
  row.purchased_at = std::move(purchased_at);
  row.received_at = front::service_clock::wall_ms();
  row.due_at = row.received_at + processing_delay_ms;
  return row;
}

}  // namespace lq::service
