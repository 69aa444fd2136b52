// The range of a points balance: the engine reads balances as decimals below 10^15, so a credit
// that would take a balance (with the credits still pending) beyond that is refused where it
// enters, inside the write transaction, rather than poisoning the account.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "lq/result.hpp"
#include "store/store.hpp"

namespace lq::service {

/// The largest balance the engine loads (decimals stay below 10^15).
constexpr int64_t kMaxPointsBalance = 999'999'999'999'999;

/// A 400 naming `field` when `points` (nullopt: not even representable) cannot be credited to
/// the user's balance in `points_experience_id`: the balance plus every pending credit plus these
/// points must stay within kMaxPointsBalance. Call it with the store locked, in the transaction
/// that queues the credit.
std::optional<error> points_out_of_range(store& db, const std::string& user_id,
                                         const std::string& points_experience_id,
                                         std::optional<int64_t> points, const std::string& field);

}  // namespace lq::service
