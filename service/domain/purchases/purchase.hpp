// A purchase as the service records it, from a billed basket or the sandbox: its amount as exact
// text, the points it accrues at the merchant's rate, and when it lands (API spec 8).
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "lq/qualifier.hpp"
#include "store/store.hpp"

namespace lq::service {

/// A purchase of `amount` (non-negative) by `user_id` at `merchant`, accruing
/// floor(amount x points_per_dollar) points in the merchant's points experience and due
/// `processing_delay_ms` from now; nullopt when those points are out of range. The caller sets
/// source, location_id and basket_id.
std::optional<purchase_row> new_purchase(const merchant_row& merchant, const std::string& user_id,
                                         decimal amount, std::string purchased_at,
                                         int64_t processing_delay_ms);

}  // namespace lq::service
