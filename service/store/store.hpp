// The service's data in SQLite: merchants, users, offers, baskets, purchases. Not thread-safe by
// itself: hold lock() around every call (and around a transaction spanning several).
#pragma once

#include <cstdint>
#include <mutex>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "front/store/sqlite.hpp"

namespace lq::service {

struct merchant_row {
  std::string id;
  std::string merchant_key;
  std::string time_zone;
  std::string points_per_dollar;  // exact decimal text
  std::string points_experience_id;
};

struct location_row {
  std::string uid;
  std::string id;
  std::string merchant_id;
  std::optional<std::string> time_zone;  // nullopt: the merchant's
};

struct user_row {
  std::string id;
  std::string merchant_id;
  std::string access_token;
};

struct points_row {
  std::string points_experience_id;
  int64_t balance = 0;
};

/// A reward or points product: its id, JSON record and (rewards) state column.
struct offer_row {
  std::string id;
  std::string state;
  std::string record;
};

struct reward_insert {
  std::string id;
  std::string user_id;
  std::string merchant_id;
  std::string state;
  std::string record;
  std::optional<int64_t> campaign_id;
  std::string created_at;
  std::optional<int64_t> trigger_purchase_id;  // the purchase whose landing issued it
};

struct campaign_row {
  int64_t id = 0;
  std::string external_uid_hashid;
  std::string merchant_id;
  std::string reward_template;
  std::optional<std::string> purchase_trigger;  // JSON, see campaigns.hpp
  std::string reward_type = "promotion";        // fraud_rule.hpp
};

/// A card a user registered (the emulator's helper), digits only.
struct card_row {
  std::string number;
  std::string registered_at;
};

struct client_row {
  std::string client_id;
  std::optional<std::string> merchant_id;  // nullopt: any merchant
};

/// A reward with where it came from, for the sandbox's GET /rewards.
struct reward_origin_row {
  std::string id;
  std::string state;
  std::string record;
  std::optional<std::string> campaign_hashid;
  std::string created_at;
  std::optional<std::string> redeemed_at;
};

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

class store {
 public:
  /// Opens the file and migrates its schema; throws database_error.
  explicit store(const std::string& path);

  std::unique_lock<std::mutex> lock() { return std::unique_lock<std::mutex>(mutex_); }
  database& db() { return db_; }
  /// The schema version the file had when opened (0 for a new file).
  int opened_version() const { return opened_version_; }

  // Seeding: each returns true when inserted, false when a record with that key exists.
  bool insert_merchant(const merchant_row& row);
  bool insert_location(const location_row& row);
  bool insert_client(const std::string& client_id, const std::optional<std::string>& merchant_id);
  bool insert_user(const user_row& row);
  bool insert_points_balance(const std::string& user_id, const points_row& row);
  bool insert_reward(const reward_insert& row);
  bool insert_points_product(const std::string& id, const std::string& merchant_id,
                             const std::string& record);
  bool insert_campaign(const campaign_row& row);
  bool insert_card(const std::string& user_id, const card_row& row);

  // Reads.
  std::vector<user_row> users();
  std::vector<client_row> clients();
  std::vector<merchant_row> merchants();
  std::optional<merchant_row> merchant(const std::string& id);
  std::optional<user_row> user(const std::string& id);
  std::vector<location_row> locations_of(const std::string& merchant_id);
  std::vector<points_row> points_of(const std::string& user_id);
  std::vector<offer_row> rewards_of(const std::string& user_id, const std::string& merchant_id);
  std::vector<offer_row> points_products_of(const std::string& merchant_id);
  /// The user's rewards at the merchant with their campaign and times, oldest first.
  std::vector<reward_origin_row> rewards_with_origin_of(const std::string& user_id,
                                                        const std::string& merchant_id);

  // Campaigns.
  std::optional<campaign_row> campaign_by_hashid(const std::string& external_uid_hashid);
  std::optional<campaign_row> campaign_by_id(int64_t id);
  /// The merchant's campaigns that have a purchase trigger.
  std::vector<campaign_row> triggered_campaigns_of(const std::string& merchant_id);
  bool has_campaign_reward(const std::string& user_id, int64_t campaign_id);
  /// Every campaign of the merchant, by program id.
  std::vector<campaign_row> campaigns_of(const std::string& merchant_id);

  // Registered cards.
  /// The user's cards, in the order registered.
  std::vector<card_row> cards_of(const std::string& user_id);
  /// How many users of `user_id`'s merchant (it included) have registered this card number.
  int64_t card_holder_count(const std::string& number, const std::string& user_id);
  void delete_cards_of(const std::string& user_id);

  // Baskets.
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

  // Purchases and accrual.
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
  std::mutex mutex_;
  database db_;
  int opened_version_ = 0;
};

}  // namespace lq::service
