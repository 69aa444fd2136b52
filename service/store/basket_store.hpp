// The baskets' tables: baskets, their redemptions and points debits, the open baskets' caps. Part
// of the store (store.hpp), which holds the lock around every call.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "front/store/sqlite.hpp"

namespace lq::service {

struct basket_row {
  std::string user_id;
  std::string id;
  std::string merchant_id;
  std::string state;
  std::string body;
  std::optional<std::string> reward_id;
  std::optional<std::string> points_product_id;
  int64_t discount_cents = 0;
  std::optional<std::string> billed_at;
  std::string created_at;
  std::string updated_at;
};

/// A user's open (checkout, placed) baskets: how many, and the bytes of their stored bodies.
struct open_basket_usage {
  int64_t count = 0;
  int64_t bytes = 0;
};

class basket_store {
 public:
  explicit basket_store(front::database& db) : db_(db) {}

  std::optional<basket_row> basket(const std::string& user_id, const std::string& id);
  void save_basket(const basket_row& row);
  /// The user's open baskets (checkout, placed).
  open_basket_usage open_baskets_of(const std::string& user_id);
  /// Deletes the user's open baskets last updated before `cutoff` (RFC 3339).
  void delete_open_baskets_before(const std::string& user_id, const std::string& cutoff);
  /// Marks a redeemable reward of the user redeemed; false when it is not (any more).
  bool redeem_reward(const std::string& reward_id, const std::string& user_id,
                     const std::string& basket_id, const std::string& at);
  /// Debits points when the balance covers them; false otherwise.
  bool debit_points(const std::string& user_id, const std::string& points_experience_id,
                    int64_t points, const std::string& basket_id, const std::string& at);

 private:
  front::database& db_;
};

}  // namespace lq::service
