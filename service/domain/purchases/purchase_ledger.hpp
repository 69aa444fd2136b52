// The purchase ledger: the one place a purchase is recorded, for a billed basket and for the
// sandbox's simulated purchase alike. It checks the points the purchase accrues against the
// balance's range and queues the purchase, to land after the processing delay (accrual.hpp).
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "lq/decimal.hpp"
#include "lq/result.hpp"
#include "store/store.hpp"

namespace lq::service {

/// A purchase to record, beyond the merchant's terms.
struct purchase_entry {
  std::string source;  // "basket" or "sandbox"
  std::string user_id;
  decimal amount;            // non-negative
  std::string purchased_at;  // RFC 3339, as stored
  std::optional<std::string> location_id;
  std::optional<std::string> basket_id;
  // How a 400 names the purchase: `amount_field` ("subtotal is out of range: ..."), and the
  // whole message when its points cannot even be computed.
  std::string amount_field;
  std::string unrepresentable_message;
};

/// Records `entry` at `merchant`: floor(amount x points_per_dollar) points in the merchant's
/// points experience, due `processing_delay_ms` from now. Call it with the store locked, inside
/// the write transaction (the range check and the insert see one balance). The purchase's id,
/// or a 400 when its points are out of range (then nothing is written).
result<int64_t> record_purchase(store& db, const merchant_row& merchant,
                                const purchase_entry& entry, int64_t processing_delay_ms);

}  // namespace lq::service
