#include "store/purchase_store.hpp"

namespace lq::service {

namespace {

purchase_row read_purchase(const front::statement& q) {
  purchase_row row;
  row.id = q.integer(0);
  row.source = q.text(1);
  row.merchant_id = q.text(2);
  row.location_id = q.optional_text(3);
  row.user_id = q.text(4);
  row.basket_id = q.optional_text(5);
  row.amount = q.text(6);
  row.points = q.integer(7);
  row.points_experience_id = q.text(8);
  row.purchased_at = q.text(9);
  row.received_at = q.integer(10);
  row.due_at = q.integer(11);
  if (!q.is_null(12)) row.landed_at = q.integer(12);
  return row;
}

constexpr const char* kPurchaseColumns =
    "id, source, merchant_id, location_id, user_id, basket_id, amount, points, "
    "points_experience_id, purchased_at, received_at, due_at, landed_at";

}  // namespace

bool purchase_store::insert_campaign(const campaign_row& row) {
  return db_.insert_or_ignore(
      "INSERT OR IGNORE INTO campaigns (id, external_uid_hashid, merchant_id, reward_template, "
      "purchase_trigger, reward_type) VALUES (?, ?, ?, ?, ?, ?)",
      row.id, row.external_uid_hashid, row.merchant_id, row.reward_template, row.purchase_trigger,
      row.reward_type);
}

namespace {

constexpr const char* kCampaignColumns =
    "id, external_uid_hashid, merchant_id, reward_template, purchase_trigger, reward_type";

campaign_row read_campaign(const front::statement& q) {
  return campaign_row{q.integer(0), q.text(1), q.text(2), q.text(3), q.optional_text(4), q.text(5)};
}

}  // namespace

std::optional<campaign_row> purchase_store::campaign_by_hashid(
    const std::string& external_uid_hashid) {
  front::statement q = db_.prepare(std::string("SELECT ") + kCampaignColumns +
                                   " FROM campaigns WHERE external_uid_hashid = ?");
  q.bind(1, external_uid_hashid);
  if (!q.step()) return std::nullopt;
  return read_campaign(q);
}

std::optional<campaign_row> purchase_store::campaign_by_id(int64_t id) {
  front::statement q =
      db_.prepare(std::string("SELECT ") + kCampaignColumns + " FROM campaigns WHERE id = ?");
  q.bind(1, id);
  if (!q.step()) return std::nullopt;
  return read_campaign(q);
}

std::vector<campaign_row> purchase_store::triggered_campaigns_of(const std::string& merchant_id) {
  std::vector<campaign_row> rows;
  front::statement q =
      db_.prepare(std::string("SELECT ") + kCampaignColumns +
                  " FROM campaigns WHERE merchant_id = ? AND purchase_trigger IS NOT "
                  "NULL ORDER BY id");
  q.bind(1, merchant_id);
  while (q.step()) rows.push_back(read_campaign(q));
  return rows;
}

bool purchase_store::has_campaign_reward(const std::string& user_id, int64_t campaign_id) {
  front::statement q =
      db_.prepare("SELECT 1 FROM rewards WHERE user_id = ? AND campaign_id = ? LIMIT 1");
  q.bind(1, user_id).bind(2, campaign_id);
  return q.step();
}

std::vector<campaign_row> purchase_store::campaigns_of(const std::string& merchant_id) {
  std::vector<campaign_row> rows;
  front::statement q = db_.prepare(std::string("SELECT ") + kCampaignColumns +
                                   " FROM campaigns WHERE merchant_id = ? ORDER BY id");
  q.bind(1, merchant_id);
  while (q.step()) rows.push_back(read_campaign(q));
  return rows;
}

int64_t purchase_store::insert_purchase(const purchase_row& row) {
  db_.prepare(
         "INSERT INTO purchases (source, merchant_id, location_id, user_id, basket_id, amount, "
         "points, points_experience_id, purchased_at, received_at, due_at) "
         "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")
      .bind(1, row.source)
      .bind(2, row.merchant_id)
      .bind(3, row.location_id)
      .bind(4, row.user_id)
      .bind(5, row.basket_id)
      .bind(6, row.amount)
      .bind(7, row.points)
      .bind(8, row.points_experience_id)
      .bind(9, row.purchased_at)
      .bind(10, row.received_at)
      .bind(11, row.due_at)
      .run();
  return db_.last_insert_rowid();
}

int64_t purchase_store::committed_and_pending_points(const std::string& user_id,
                                                     const std::string& points_experience_id) {
  front::statement q = db_.prepare(
      "SELECT coalesce((SELECT balance FROM points_balances WHERE user_id = ?1 AND "
      "points_experience_id = ?2), 0) + coalesce((SELECT sum(points) FROM purchases WHERE "
      "user_id = ?1 AND points_experience_id = ?2 AND landed_at IS NULL), 0)");
  q.bind(1, user_id).bind(2, points_experience_id);
  return q.step() ? q.integer(0) : 0;
}

std::optional<int64_t> purchase_store::next_due_ms() {
  front::statement q = db_.prepare("SELECT min(due_at) FROM purchases WHERE landed_at IS NULL");
  if (!q.step() || q.is_null(0)) return std::nullopt;
  return q.integer(0);
}

std::vector<purchase_row> purchase_store::due_purchases(int64_t now_ms) {
  std::vector<purchase_row> rows;
  front::statement q = db_.prepare(std::string("SELECT ") + kPurchaseColumns +
                                   " FROM purchases WHERE landed_at IS NULL AND due_at <= ? "
                                   "ORDER BY due_at, id");
  q.bind(1, now_ms);
  while (q.step()) rows.push_back(read_purchase(q));
  return rows;
}

bool purchase_store::land_purchase(const purchase_row& row, int64_t now_ms, const std::string& at) {
  db_.prepare("UPDATE purchases SET landed_at = ? WHERE id = ? AND landed_at IS NULL")
      .bind(1, now_ms)
      .bind(2, row.id)
      .run();
  if (db_.changes() != 1) return false;
  if (row.points == 0) return true;
  db_.prepare(
         "INSERT INTO points_balances (user_id, points_experience_id, balance, position) "
         "VALUES (?1, ?2, ?3, (SELECT coalesce(max(position) + 1, 0) FROM points_balances "
         "WHERE user_id = ?1)) "
         "ON CONFLICT (user_id, points_experience_id) DO UPDATE SET balance = balance + ?3")
      .bind(1, row.user_id)
      .bind(2, row.points_experience_id)
      .bind(3, row.points)
      .run();
  db_.prepare(
         "INSERT INTO points_ledger (user_id, points_experience_id, delta, reason, basket_id, "
         "purchase_id, at) VALUES (?, ?, ?, 'accrual', ?, ?, ?)")
      .bind(1, row.user_id)
      .bind(2, row.points_experience_id)
      .bind(3, row.points)
      .bind(4, row.basket_id)
      .bind(5, row.id)
      .bind(6, at)
      .run();
  return true;
}

std::vector<purchase_row> purchase_store::landed_purchases_of(const std::string& user_id) {
  std::vector<purchase_row> rows;
  front::statement q = db_.prepare(std::string("SELECT ") + kPurchaseColumns +
                                   " FROM purchases WHERE user_id = ? AND landed_at IS NOT NULL "
                                   "ORDER BY landed_at DESC, id DESC");
  q.bind(1, user_id);
  while (q.step()) rows.push_back(read_purchase(q));
  return rows;
}

std::vector<std::pair<int64_t, std::string>> purchase_store::triggered_rewards_of(
    const std::string& user_id) {
  std::vector<std::pair<int64_t, std::string>> rows;
  front::statement q = db_.prepare(
      "SELECT trigger_purchase_id, id FROM rewards WHERE user_id = ? AND trigger_purchase_id IS "
      "NOT NULL ORDER BY trigger_purchase_id, id");
  q.bind(1, user_id);
  while (q.step()) rows.emplace_back(q.integer(0), q.text(1));
  return rows;
}

}  // namespace lq::service
