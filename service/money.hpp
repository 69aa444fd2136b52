// Purchase amounts and the points they accrue, in exact decimal arithmetic.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "decimal.hpp"

namespace lq::service {

/// Exact decimal text with at least two fraction digits: 12.5 -> "12.50", 0.125 -> "0.125".
std::string decimal_text(decimal value);

/// The decimal of a whole number of cents.
decimal decimal_from_cents(int64_t cents);

/// floor(amount x points_per_dollar) for a non-negative amount; nullopt when out of range.
std::optional<int64_t> accrued_points(decimal amount, const std::string& points_per_dollar);

}  // namespace lq::service
