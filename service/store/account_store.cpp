#include "store/account_store.hpp"

namespace lq::service {

bool account_store::insert_merchant(const merchant_row& row) {
  return db_.insert_or_ignore(
      "INSERT OR IGNORE INTO merchants (id, merchant_key, time_zone, points_per_dollar, "
      "points_experience_id) VALUES (?, ?, ?, ?, ?)",
      row.id, row.merchant_key, row.time_zone, row.points_per_dollar, row.points_experience_id);
}

bool account_store::insert_location(const location_row& row) {
  return db_.insert_or_ignore(
      "INSERT OR IGNORE INTO locations (uid, id, merchant_id, time_zone) VALUES (?, ?, ?, ?)",
      row.uid, row.id, row.merchant_id, row.time_zone);
}

bool account_store::insert_client(const std::string& client_id,
                                  const std::optional<std::string>& merchant_id) {
  return db_.insert_or_ignore(
      "INSERT OR IGNORE INTO clients (client_id, merchant_id) VALUES (?, ?)", client_id,
      merchant_id);
}

bool account_store::insert_user(const user_row& row) {
  return db_.insert_or_ignore(
      "INSERT OR IGNORE INTO users (id, merchant_id, access_token) VALUES (?, ?, ?)", row.id,
      row.merchant_id, row.access_token);
}

bool account_store::insert_points_balance(const std::string& user_id, const points_row& row) {
  return db_.insert_or_ignore(
      "INSERT OR IGNORE INTO points_balances (user_id, points_experience_id, balance, position) "
      "VALUES (?1, ?2, ?3, (SELECT coalesce(max(position) + 1, 0) FROM points_balances "
      "WHERE user_id = ?1))",
      user_id, row.points_experience_id, row.balance);
}

bool account_store::insert_reward(const reward_insert& row) {
  return db_.insert_or_ignore(
      "INSERT OR IGNORE INTO rewards (id, user_id, merchant_id, state, record, campaign_id, "
      "created_at, trigger_purchase_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
      row.id, row.user_id, row.merchant_id, row.state, row.record, row.campaign_id, row.created_at,
      row.trigger_purchase_id);
}

void account_store::set_every_reward_created_at(const std::string& at) {
  db_.prepare("UPDATE rewards SET created_at = ?").bind(1, at).run();
}

bool account_store::insert_points_product(const std::string& id, const std::string& merchant_id,
                                          const std::string& record) {
  return db_.insert_or_ignore(
      "INSERT OR IGNORE INTO points_products (id, merchant_id, record) VALUES (?, ?, ?)", id,
      merchant_id, record);
}

std::vector<user_row> account_store::users() {
  std::vector<user_row> rows;
  front::statement q = db_.prepare("SELECT id, merchant_id, access_token FROM users ORDER BY id");
  while (q.step()) rows.push_back({q.text(0), q.text(1), q.text(2)});
  return rows;
}

std::vector<client_row> account_store::clients() {
  std::vector<client_row> rows;
  front::statement q = db_.prepare("SELECT client_id, merchant_id FROM clients ORDER BY client_id");
  while (q.step()) rows.push_back({q.text(0), q.optional_text(1)});
  return rows;
}

std::vector<merchant_row> account_store::merchants() {
  std::vector<merchant_row> rows;
  front::statement q = db_.prepare(
      "SELECT id, merchant_key, time_zone, points_per_dollar, points_experience_id FROM merchants "
      "ORDER BY id");
  while (q.step()) rows.push_back({q.text(0), q.text(1), q.text(2), q.text(3), q.text(4)});
  return rows;
}

std::optional<merchant_row> account_store::merchant(const std::string& id) {
  front::statement q = db_.prepare(
      "SELECT id, merchant_key, time_zone, points_per_dollar, points_experience_id FROM merchants "
      "WHERE id = ?");
  q.bind(1, id);
  if (!q.step()) return std::nullopt;
  return merchant_row{q.text(0), q.text(1), q.text(2), q.text(3), q.text(4)};
}

std::optional<user_row> account_store::user(const std::string& id) {
  front::statement q = db_.prepare("SELECT id, merchant_id, access_token FROM users WHERE id = ?");
  q.bind(1, id);
  if (!q.step()) return std::nullopt;
  return user_row{q.text(0), q.text(1), q.text(2)};
}

std::vector<location_row> account_store::locations_of(const std::string& merchant_id) {
  std::vector<location_row> rows;
  front::statement q = db_.prepare(
      "SELECT uid, id, merchant_id, time_zone FROM locations WHERE merchant_id = ? ORDER BY uid");
  q.bind(1, merchant_id);
  while (q.step()) rows.push_back({q.text(0), q.text(1), q.text(2), q.optional_text(3)});
  return rows;
}

std::vector<points_row> account_store::points_of(const std::string& user_id) {
  std::vector<points_row> rows;
  front::statement q = db_.prepare(
      "SELECT points_experience_id, balance FROM points_balances WHERE user_id = ? "
      "ORDER BY position");
  q.bind(1, user_id);
  while (q.step()) rows.push_back({q.text(0), q.integer(1)});
  return rows;
}

std::vector<offer_row> account_store::rewards_of(const std::string& user_id,
                                                 const std::string& merchant_id) {
  std::vector<offer_row> rows;
  front::statement q = db_.prepare(
      "SELECT id, state, record FROM rewards WHERE user_id = ? AND merchant_id = ? ORDER BY id");
  q.bind(1, user_id).bind(2, merchant_id);
  while (q.step()) rows.push_back({q.text(0), q.text(1), q.text(2)});
  return rows;
}

std::vector<offer_row> account_store::points_products_of(const std::string& merchant_id) {
  std::vector<offer_row> rows;
  front::statement q =
      db_.prepare("SELECT id, record FROM points_products WHERE merchant_id = ? ORDER BY id");
  q.bind(1, merchant_id);
  while (q.step()) rows.push_back({q.text(0), "", q.text(1)});
  return rows;
}

std::vector<reward_origin_row> account_store::rewards_with_origin_of(
    const std::string& user_id, const std::string& merchant_id) {
  std::vector<reward_origin_row> rows;
  front::statement q = db_.prepare(
      "SELECT r.id, r.state, r.record, c.external_uid_hashid, r.created_at, r.redeemed_at "
      "FROM rewards r LEFT JOIN campaigns c ON c.id = r.campaign_id "
      "WHERE r.user_id = ? AND r.merchant_id = ? ORDER BY r.created_at, r.id");
  q.bind(1, user_id).bind(2, merchant_id);
  while (q.step()) {
    rows.push_back(
        {q.text(0), q.text(1), q.text(2), q.optional_text(3), q.text(4), q.optional_text(5)});
  }
  return rows;
}

}  // namespace lq::service
