// The hub's claims and balances in SQLite. Each call is one statement on the connection it was
// given; the caller runs them inside a transaction (group_commit.hpp) or, for reads, alone.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "front/store/sqlite.hpp"
#include "hub/domain/claim.hpp"

namespace lq::hub {

/// A guest: the claims and balances of one user of one merchant.
struct guest_key {
  std::string merchant_id;
  std::string user_id;
};

/// A stored balance with its points experience.
struct stored_balance {
  std::string points_experience_id;
  balance_report report;
};

class claim_store {
 public:
  explicit claim_store(front::database& db) : db_(db) {}

  /// The claim of `basket`, if any.
  std::optional<claim> find(const basket_key& basket);
  /// The claims of the guest of `basket` on `reward_id` that hold it at `now_ms`, other baskets.
  std::vector<claim> holding_reward(const basket_key& basket, const std::string& reward_id,
                                    int64_t now_ms);
  /// The points-product claims of the guest of `basket` on `points_experience_id` that hold at
  /// `now_ms`, other baskets.
  std::vector<claim> holding_points(const basket_key& basket,
                                    const std::string& points_experience_id, int64_t now_ms);
  /// The guest's claims that hold at `now_ms`: the `limit` most recently claimed, oldest first.
  std::vector<claim> holding(const guest_key& guest, int64_t now_ms, size_t limit);
  /// How many claims of the guest hold at `now_ms`.
  int64_t count_holding(const guest_key& guest, int64_t now_ms);
  /// The guest's points-product claims that hold at `now_ms` (every experience).
  std::vector<claim> holding_points_of(const guest_key& guest, int64_t now_ms);

  void insert(const claim& c);
  /// Writes a settled claim's state, settlement, billing and expiry.
  void update_settlement(const claim& c);

  std::optional<balance_report> balance(const guest_key& guest,
                                        const std::string& points_experience_id);
  /// The guest's stored balances: the `limit` most recently reported, the most recent first.
  std::vector<stored_balance> balances(const guest_key& guest, int64_t limit);
  /// How many points experiences the hub keeps a balance of for the guest.
  int64_t count_balances(const guest_key& guest);
  void put_balance(const guest_key& guest, const std::string& points_experience_id,
                   const balance_report& report, int64_t reported_at_ms);

  /// Forgets claims that stopped holding before `cutoff_ms` (a retry of one is then decided
  /// afresh) and balances last reported before it; returns the claims forgotten.
  int64_t forget_before(int64_t cutoff_ms);

 private:
  std::vector<claim> query(front::statement& select);

  front::database& db_;
};

}  // namespace lq::hub
