// The accounts' tables: merchants, their locations, clients, users, points balances, rewards and
// points products. Part of the store (store.hpp), which holds the lock around every call.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
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

class account_store {
 public:
  explicit account_store(front::database& db) : db_(db) {}

  // insert_*: true when inserted, false when a record with that key exists (seeding).
  bool insert_merchant(const merchant_row& row);
  bool insert_location(const location_row& row);
  bool insert_client(const std::string& client_id, const std::optional<std::string>& merchant_id);
  bool insert_user(const user_row& row);
  bool insert_points_balance(const std::string& user_id, const points_row& row);
  bool insert_reward(const reward_insert& row);
  bool insert_points_product(const std::string& id, const std::string& merchant_id,
                             const std::string& record);
  /// Sets every reward's created_at (a seeded database re-stamped: fixture.hpp).
  void set_every_reward_created_at(const std::string& at);
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

 private:
  front::database& db_;
};

}  // namespace lq::service
