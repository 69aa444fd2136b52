// A reward or points product of a snapshot, preprocessed for evaluation.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "lq/answers/offer_ref.hpp"
#include "lq/decimal.hpp"
#include "lq/time/instant.hpp"
#include "lq/venue.hpp"

namespace lq {

/// `type` and, for `item`, `item_kind`, folded into the rule that computes the discount.
enum class discount_rule : uint8_t {
  amount,
  percent,
  free_item,
  bogo,
  modifier,
  fixed_price,
  unsupported,
  unknown  // the record says its discount is not known (`discount_unknown`): left to the service
};

/// The rule of a record's `type` and, for `item`, `item_kind`; `unsupported` for any other.
discount_rule discount_rule_of(std::string_view type, std::string_view item_kind);

/// A local-time window: days bit 0 = Sunday .. bit 6 = Saturday; minutes after local midnight.
struct time_window {
  uint8_t days = 0x7f;
  int16_t start_minute = 0;
  int16_t end_minute = 0;  // exclusive; <= start crosses midnight
};

struct offer {
  std::string id;
  decimal value;
  std::optional<decimal> minimum;
  std::optional<decimal> maximum;
  std::vector<uint32_t> product_symbols;   // sorted, interned ids of `products`
  std::vector<uint32_t> category_symbols;  // sorted, interned `categories`
  std::vector<std::string> restriction_location_ids;
  std::optional<std::string> handoff;  // ASCII-lowercased
  std::vector<time_window> time_restrictions;

  // Rewards only.
  std::optional<instant> retire_at;
  std::optional<instant> starts_at;

  // Points products only.
  int64_t points = 0;
  int64_t balance = 0;               // of its points experience
  std::string points_experience_id;  // its own, else the snapshot's first (contract 1.2)

  /// The output entity (API spec 2.3 / 2.4), rendered once at load.
  std::string entity_json;

  offer_kind kind = offer_kind::reward;
  discount_rule rule = discount_rule::amount;
  venue redemption_venue = venue::all;
  bool redeemable = true;     // `state` is "redeemable" (or missing)
  bool owned = true;          // rewards: user_id is the snapshot user
  bool same_merchant = true;  // rewards: merchant_id is the snapshot merchant
  /// Rewards: held by an order not confirmed yet (`hold`), on this device or at another kiosk.
  enum class held : uint8_t { no, pending_order, claimed_elsewhere } hold = held::no;

  bool restricted() const { return !product_symbols.empty() || !category_symbols.empty(); }
};

}  // namespace lq
