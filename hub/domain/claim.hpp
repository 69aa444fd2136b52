// A claim: one basket's hold on one offer of one guest, decided by the store hub so that a reward
// is redeemed at most once store-wide and points are never promised twice while the loyalty
// service cannot be asked. Times are milliseconds since the epoch on the hub's clock, except a
// balance's as_of and a billing's billed_at, which are the loyalty service's.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace lq::hub {

/// The basket a claim is for: the key a claim is idempotent under.
struct basket_key {
  std::string merchant_id;
  std::string user_id;
  std::string basket_id;

  friend bool operator==(const basket_key& a, const basket_key& b) {
    return a.merchant_id == b.merchant_id && a.user_id == b.user_id && a.basket_id == b.basket_id;
  }
};

/// What a basket claims: a reward, or a points product for its points.
struct claimed_offer {
  std::optional<std::string> reward_id;
  std::optional<std::string> points_product_id;
  int64_t points = 0;                // a points product's price in points
  std::string points_experience_id;  // the balance a points product is paid from

  bool is_points() const { return points_product_id.has_value(); }
  friend bool operator==(const claimed_offer& a, const claimed_offer& b) {
    return a.reward_id == b.reward_id && a.points_product_id == b.points_product_id &&
           a.points == b.points && a.points_experience_id == b.points_experience_id;
  }
};

/// A balance a kiosk read from the loyalty service, with when the service computed it.
struct balance_report {
  int64_t balance = 0;
  int64_t as_of_ms = 0;
};

/// A kiosk's claim request.
struct claim_request {
  basket_key basket;
  std::string kiosk_id;
  claimed_offer offer;
  std::optional<balance_report> balance;  // required for a points product
  std::optional<int64_t> ttl_ms;          // nullopt: the hub's claim TTL
};

/// The stored states; `expired` is never stored: a held claim past expires_at reads as expired.
enum class claim_state { held, spent, released, expired };

/// "held", "spent", "released", "expired".
const char* name_of(claim_state state);

struct claim {
  basket_key basket;
  std::string kiosk_id;
  claimed_offer offer;
  claim_state state = claim_state::held;  // held, spent or released
  int64_t claimed_at_ms = 0;
  int64_t ttl_ms = 0;
  /// Held: when it expires. Spent: until when it still holds the offer against other baskets
  /// (the spend time plus the TTL: kiosks may run that long on snapshots older than the spend).
  int64_t expires_at_ms = 0;
  std::optional<int64_t> settled_at_ms;  // spent or released
  std::optional<int64_t> billed_at_ms;   // spent: when the service billed it (its clock)
  /// A points claim: the as_of of the newest balance it was granted against (the service's
  /// clock), before which it cannot have been billed; nullopt for a reward (or an older hub's).
  std::optional<int64_t> balance_as_of_ms;

  /// The state as of `now_ms`: a held claim at or past expires_at is expired.
  claim_state state_at(int64_t now_ms) const;
  /// Whether it holds its offer (or its points) against other baskets at `now_ms`.
  bool holds_at(int64_t now_ms) const;
};

}  // namespace lq::hub
