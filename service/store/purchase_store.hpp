// The purchases' tables: the purchase ledger, accrual and the campaigns a purchase triggers. Part
// of the store (store.hpp), which holds the lock around every call.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "front/store/sqlite.hpp"

namespace lq::service {

struct campaign_row {
  int64_t id = 0;
  std::string external_uid_hashid;
  std::string merchant_id;
  std::string reward_template;
  std::optional<std::string> purchase_trigger;  // JSON, see campaigns.hpp
  std::string reward_type = "promotion";        // fraud_rule.hpp
};

struct purchase_row {
  int64_t id = 0;
  std::string source;  // "basket" or "sandbox"
  std::string merchant_id;
  std::optional<std::string> location_id;
  std::string user_id;
  std::optional<std::string> basket_id;
  std::string amount;
  int64_t points = 0;
  std::string points_experience_id;
  std::string purchased_at;
  int64_t received_at = 0;
  int64_t due_at = 0;
  std::optional<int64_t> landed_at;
};

class purchase_store {
 public:
  explicit purchase_store(front::database& db) : db_(db) {}

  /// Seeding: true when inserted, false when a record with that key exists.
  bool insert_campaign(const campaign_row& row);
  std::optional<campaign_row> campaign_by_hashid(const std::string& external_uid_hashid);
  std::optional<campaign_row> campaign_by_id(int64_t id);
  /// The merchant's campaigns that have a purchase trigger.
  std::vector<campaign_row> triggered_campaigns_of(const std::string& merchant_id);
  bool has_campaign_reward(const std::string& user_id, int64_t campaign_id);
  /// Every campaign of the merchant, by program id.
  std::vector<campaign_row> campaigns_of(const std::string& merchant_id);
  int64_t insert_purchase(const purchase_row& row);
  /// The balance plus the points of every pending (not yet landed) purchase; sums stay in int64
  /// because every credit is bounded (points_bounds.hpp).
  int64_t committed_and_pending_points(const std::string& user_id,
                                       const std::string& points_experience_id);
  /// The earliest due_at of a pending purchase.
  std::optional<int64_t> next_due_ms();
  /// Pending purchases due at or before `now_ms`, oldest first.
  std::vector<purchase_row> due_purchases(int64_t now_ms);
  /// Credits a pending purchase's points and marks it landed; false when it already landed.
  bool land_purchase(const purchase_row& row, int64_t now_ms, const std::string& at);
  /// The user's landed purchases, the most recently landed first.
  std::vector<purchase_row> landed_purchases_of(const std::string& user_id);
  /// (purchase id, reward id) of every reward a purchase of the user triggered.
  std::vector<std::pair<int64_t, std::string>> triggered_rewards_of(const std::string& user_id);

 private:
  front::database& db_;
};

}  // namespace lq::service
