#include "store/store.hpp"

#include "store/migrations.hpp"

namespace lq::service {

namespace {

purchase_row read_purchase(const statement& q) {
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

store::store(const std::string& path) : db_(path) {
  db_.quick_check();
  opened_version_ = migrate(db_);
}

bool store::insert_merchant(const merchant_row& row) {
  return db_.insert_or_ignore(
      "INSERT OR IGNORE INTO merchants (id, merchant_key, time_zone, points_per_dollar, "
      "points_experience_id) VALUES (?, ?, ?, ?, ?)",
      row.id, row.merchant_key, row.time_zone, row.points_per_dollar, row.points_experience_id);
}

bool store::insert_location(const location_row& row) {
  return db_.insert_or_ignore(
      "INSERT OR IGNORE INTO locations (uid, id, merchant_id, time_zone) VALUES (?, ?, ?, ?)",
      row.uid, row.id, row.merchant_id, row.time_zone);
}

bool store::insert_client(const std::string& client_id,
                          const std::optional<std::string>& merchant_id) {
  return db_.insert_or_ignore(
      "INSERT OR IGNORE INTO clients (client_id, merchant_id) VALUES (?, ?)", client_id,
      merchant_id);
}

bool store::insert_user(const user_row& row) {
  return db_.insert_or_ignore(
      "INSERT OR IGNORE INTO users (id, merchant_id, access_token) VALUES (?, ?, ?)", row.id,
      row.merchant_id, row.access_token);
}

bool store::insert_points_balance(const std::string& user_id, const points_row& row) {
  return db_.insert_or_ignore(
      "INSERT OR IGNORE INTO points_balances (user_id, points_experience_id, balance, position) "
      "VALUES (?1, ?2, ?3, (SELECT coalesce(max(position) + 1, 0) FROM points_balances "
      "WHERE user_id = ?1))",
      user_id, row.points_experience_id, row.balance);
}

bool store::insert_reward(const reward_insert& row) {
  return db_.insert_or_ignore(
      "INSERT OR IGNORE INTO rewards (id, user_id, merchant_id, state, record, campaign_id, "
      "created_at, trigger_purchase_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
      row.id, row.user_id, row.merchant_id, row.state, row.record, row.campaign_id, row.created_at,
      row.trigger_purchase_id);
}

bool store::insert_points_product(const std::string& id, const std::string& merchant_id,
                                  const std::string& record) {
  return db_.insert_or_ignore(
      "INSERT OR IGNORE INTO points_products (id, merchant_id, record) VALUES (?, ?, ?)", id,
      merchant_id, record);
}

bool store::insert_campaign(const campaign_row& row) {
  return db_.insert_or_ignore(
      "INSERT OR IGNORE INTO campaigns (id, external_uid_hashid, merchant_id, reward_template, "
      "purchase_trigger, reward_type) VALUES (?, ?, ?, ?, ?, ?)",
      row.id, row.external_uid_hashid, row.merchant_id, row.reward_template, row.purchase_trigger,
      row.reward_type);
}

bool store::insert_card(const std::string& user_id, const card_row& row) {
  return db_.insert_or_ignore(
      "INSERT OR IGNORE INTO user_cards (user_id, number, registered_at) VALUES (?, ?, ?)", user_id,
      row.number, row.registered_at);
}

std::vector<user_row> store::users() {
  std::vector<user_row> rows;
  statement q = db_.prepare("SELECT id, merchant_id, access_token FROM users ORDER BY id");
  while (q.step()) rows.push_back({q.text(0), q.text(1), q.text(2)});
  return rows;
}

std::vector<client_row> store::clients() {
  std::vector<client_row> rows;
  statement q = db_.prepare("SELECT client_id, merchant_id FROM clients ORDER BY client_id");
  while (q.step()) rows.push_back({q.text(0), q.optional_text(1)});
  return rows;
}

std::vector<merchant_row> store::merchants() {
  std::vector<merchant_row> rows;
  statement q = db_.prepare(
      "SELECT id, merchant_key, time_zone, points_per_dollar, points_experience_id FROM merchants "
      "ORDER BY id");
  while (q.step()) rows.push_back({q.text(0), q.text(1), q.text(2), q.text(3), q.text(4)});
  return rows;
}

std::optional<merchant_row> store::merchant(const std::string& id) {
  statement q = db_.prepare(
      "SELECT id, merchant_key, time_zone, points_per_dollar, points_experience_id FROM merchants "
      "WHERE id = ?");
  q.bind(1, id);
  if (!q.step()) return std::nullopt;
  return merchant_row{q.text(0), q.text(1), q.text(2), q.text(3), q.text(4)};
}

std::optional<user_row> store::user(const std::string& id) {
  statement q = db_.prepare("SELECT id, merchant_id, access_token FROM users WHERE id = ?");
  q.bind(1, id);
  if (!q.step()) return std::nullopt;
  return user_row{q.text(0), q.text(1), q.text(2)};
}

std::vector<location_row> store::locations_of(const std::string& merchant_id) {
  std::vector<location_row> rows;
  statement q = db_.prepare(
      "SELECT uid, id, merchant_id, time_zone FROM locations WHERE merchant_id = ? ORDER BY uid");
  q.bind(1, merchant_id);
  while (q.step()) rows.push_back({q.text(0), q.text(1), q.text(2), q.optional_text(3)});
  return rows;
}

std::vector<points_row> store::points_of(const std::string& user_id) {
  std::vector<points_row> rows;
  statement q = db_.prepare(
      "SELECT points_experience_id, balance FROM points_balances WHERE user_id = ? "
      "ORDER BY position");
  q.bind(1, user_id);
  while (q.step()) rows.push_back({q.text(0), q.integer(1)});
  return rows;
}

std::vector<offer_row> store::rewards_of(const std::string& user_id,
                                         const std::string& merchant_id) {
  std::vector<offer_row> rows;
  statement q = db_.prepare(
      "SELECT id, state, record FROM rewards WHERE user_id = ? AND merchant_id = ? ORDER BY id");
  q.bind(1, user_id).bind(2, merchant_id);
  while (q.step()) rows.push_back({q.text(0), q.text(1), q.text(2)});
  return rows;
}

std::vector<offer_row> store::points_products_of(const std::string& merchant_id) {
  std::vector<offer_row> rows;
  statement q =
      db_.prepare("SELECT id, record FROM points_products WHERE merchant_id = ? ORDER BY id");
  q.bind(1, merchant_id);
  while (q.step()) rows.push_back({q.text(0), "", q.text(1)});
  return rows;
}

std::vector<reward_origin_row> store::rewards_with_origin_of(const std::string& user_id,
                                                             const std::string& merchant_id) {
  std::vector<reward_origin_row> rows;
  statement q = db_.prepare(
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

namespace {

constexpr const char* kCampaignColumns =
    "id, external_uid_hashid, merchant_id, reward_template, purchase_trigger, reward_type";

campaign_row read_campaign(const statement& q) {
  return campaign_row{q.integer(0), q.text(1), q.text(2), q.text(3), q.optional_text(4), q.text(5)};
}

}  // namespace

std::optional<campaign_row> store::campaign_by_hashid(const std::string& external_uid_hashid) {
  statement q = db_.prepare(std::string("SELECT ") + kCampaignColumns +
                            " FROM campaigns WHERE external_uid_hashid = ?");
  q.bind(1, external_uid_hashid);
  if (!q.step()) return std::nullopt;
  return read_campaign(q);
}

std::optional<campaign_row> store::campaign_by_id(int64_t id) {
  statement q =
      db_.prepare(std::string("SELECT ") + kCampaignColumns + " FROM campaigns WHERE id = ?");
  q.bind(1, id);
  if (!q.step()) return std::nullopt;
  return read_campaign(q);
}

std::vector<campaign_row> store::triggered_campaigns_of(const std::string& merchant_id) {
  std::vector<campaign_row> rows;
  statement q = db_.prepare(std::string("SELECT ") + kCampaignColumns +
                            " FROM campaigns WHERE merchant_id = ? AND purchase_trigger IS NOT "
                            "NULL ORDER BY id");
  q.bind(1, merchant_id);
  while (q.step()) rows.push_back(read_campaign(q));
  return rows;
}

bool store::has_campaign_reward(const std::string& user_id, int64_t campaign_id) {
  statement q = db_.prepare("SELECT 1 FROM rewards WHERE user_id = ? AND campaign_id = ? LIMIT 1");
  q.bind(1, user_id).bind(2, campaign_id);
  return q.step();
}

std::vector<campaign_row> store::campaigns_of(const std::string& merchant_id) {
  std::vector<campaign_row> rows;
  statement q = db_.prepare(std::string("SELECT ") + kCampaignColumns +
                            " FROM campaigns WHERE merchant_id = ? ORDER BY id");
  q.bind(1, merchant_id);
  while (q.step()) rows.push_back(read_campaign(q));
  return rows;
}

std::vector<card_row> store::cards_of(const std::string& user_id) {
  std::vector<card_row> rows;
  statement q =
      db_.prepare("SELECT number, registered_at FROM user_cards WHERE user_id = ? ORDER BY rowid");
  q.bind(1, user_id);
  while (q.step()) rows.push_back({q.text(0), q.text(1)});
  return rows;
}

int64_t store::card_holder_count(const std::string& number, const std::string& user_id) {
  // The users of `user_id`'s merchant only: another merchant's users are not this one's.
  statement q = db_.prepare(
      "SELECT count(DISTINCT c.user_id) FROM user_cards c JOIN users u ON u.id = c.user_id "
      "WHERE c.number = ? AND u.merchant_id = (SELECT merchant_id FROM users WHERE id = ?)");
  q.bind(1, number);
  q.bind(2, user_id);
  return q.step() ? q.integer(0) : 0;
}

void store::delete_cards_of(const std::string& user_id) {
  db_.prepare("DELETE FROM user_cards WHERE user_id = ?").bind(1, user_id).run();
}

std::optional<basket_row> store::basket(const std::string& user_id, const std::string& id) {
  statement q = db_.prepare(
      "SELECT user_id, id, merchant_id, state, body, reward_id, points_product_id, "
      "discount_cents, billed_at, created_at, updated_at FROM baskets WHERE user_id = ? AND id = "
      "?");
  q.bind(1, user_id).bind(2, id);
  if (!q.step()) return std::nullopt;
  basket_row row;
  row.user_id = q.text(0);
  row.id = q.text(1);
  row.merchant_id = q.text(2);
  row.state = q.text(3);
  row.body = q.text(4);
  row.reward_id = q.optional_text(5);
  row.points_product_id = q.optional_text(6);
  row.discount_cents = q.integer(7);
  row.billed_at = q.optional_text(8);
  row.created_at = q.text(9);
  row.updated_at = q.text(10);
  return row;
}

void store::save_basket(const basket_row& row) {
  db_.prepare(
         "INSERT INTO baskets (user_id, id, merchant_id, state, body, reward_id, "
         "points_product_id, discount_cents, billed_at, created_at, updated_at) "
         "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) "
         "ON CONFLICT (user_id, id) DO UPDATE SET state = excluded.state, body = excluded.body, "
         "reward_id = excluded.reward_id, points_product_id = excluded.points_product_id, "
         "discount_cents = excluded.discount_cents, billed_at = excluded.billed_at, "
         "updated_at = excluded.updated_at")
      .bind(1, row.user_id)
      .bind(2, row.id)
      .bind(3, row.merchant_id)
      .bind(4, row.state)
      .bind(5, row.body)
      .bind(6, row.reward_id)
      .bind(7, row.points_product_id)
      .bind(8, row.discount_cents)
      .bind(9, row.billed_at)
      .bind(10, row.created_at)
      .bind(11, row.updated_at)
      .run();
}

open_basket_usage store::open_baskets_of(const std::string& user_id) {
  // The condition repeats the partial index's (baskets_open, schema 3), so it is used.
  statement q = db_.prepare(
      "SELECT count(*), coalesce(sum(length(CAST(body AS BLOB))), 0) FROM baskets "
      "WHERE user_id = ? AND state IN ('checkout', 'placed')");
  q.bind(1, user_id);
  open_basket_usage usage;
  if (q.step()) {
    usage.count = q.integer(0);
    usage.bytes = q.integer(1);
  }
  return usage;
}

void store::delete_open_baskets_before(const std::string& user_id, const std::string& cutoff) {
  db_.prepare(
         "DELETE FROM baskets WHERE user_id = ? AND state IN ('checkout', 'placed') "
         "AND julianday(updated_at) < julianday(?)")
      .bind(1, user_id)
      .bind(2, cutoff)
      .run();
}

bool store::redeem_reward(const std::string& reward_id, const std::string& user_id,
                          const std::string& basket_id, const std::string& at) {
  db_.prepare(
         "UPDATE rewards SET state = 'redeemed', redeemed_basket_id = ?, redeemed_at = ? "
         "WHERE id = ? AND user_id = ? AND state = 'redeemable'")
      .bind(1, basket_id)
      .bind(2, at)
      .bind(3, reward_id)
      .bind(4, user_id)
      .run();
  return db_.changes() == 1;
}

bool store::debit_points(const std::string& user_id, const std::string& points_experience_id,
                         int64_t points, const std::string& basket_id, const std::string& at) {
  db_.prepare(
         "UPDATE points_balances SET balance = balance - ?1 "
         "WHERE user_id = ?2 AND points_experience_id = ?3 AND balance >= ?1")
      .bind(1, points)
      .bind(2, user_id)
      .bind(3, points_experience_id)
      .run();
  if (db_.changes() != 1) return false;
  db_.prepare(
         "INSERT INTO points_ledger (user_id, points_experience_id, delta, reason, basket_id, at) "
         "VALUES (?, ?, ?, 'redemption', ?, ?)")
      .bind(1, user_id)
      .bind(2, points_experience_id)
      .bind(3, -points)
      .bind(4, basket_id)
      .bind(5, at)
      .run();
  return true;
}

int64_t store::insert_purchase(const purchase_row& row) {
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

int64_t store::committed_and_pending_points(const std::string& user_id,
                                            const std::string& points_experience_id) {
  statement q = db_.prepare(
      "SELECT coalesce((SELECT balance FROM points_balances WHERE user_id = ?1 AND "
      "points_experience_id = ?2), 0) + coalesce((SELECT sum(points) FROM purchases WHERE "
      "user_id = ?1 AND points_experience_id = ?2 AND landed_at IS NULL), 0)");
  q.bind(1, user_id).bind(2, points_experience_id);
  return q.step() ? q.integer(0) : 0;
}

std::optional<int64_t> store::next_due_ms() {
  statement q = db_.prepare("SELECT min(due_at) FROM purchases WHERE landed_at IS NULL");
  if (!q.step() || q.is_null(0)) return std::nullopt;
  return q.integer(0);
}

std::vector<purchase_row> store::due_purchases(int64_t now_ms) {
  std::vector<purchase_row> rows;
  statement q = db_.prepare(std::string("SELECT ") + kPurchaseColumns +
                            " FROM purchases WHERE landed_at IS NULL AND due_at <= ? "
                            "ORDER BY due_at, id");
  q.bind(1, now_ms);
  while (q.step()) rows.push_back(read_purchase(q));
  return rows;
}

bool store::land_purchase(const purchase_row& row, int64_t now_ms, const std::string& at) {
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

std::vector<purchase_row> store::landed_purchases_of(const std::string& user_id) {
  std::vector<purchase_row> rows;
  statement q = db_.prepare(std::string("SELECT ") + kPurchaseColumns +
                            " FROM purchases WHERE user_id = ? AND landed_at IS NOT NULL "
                            "ORDER BY landed_at DESC, id DESC");
  q.bind(1, user_id);
  while (q.step()) rows.push_back(read_purchase(q));
  return rows;
}

std::vector<std::pair<int64_t, std::string>> store::triggered_rewards_of(
    const std::string& user_id) {
  std::vector<std::pair<int64_t, std::string>> rows;
  statement q = db_.prepare(
      "SELECT trigger_purchase_id, id FROM rewards WHERE user_id = ? AND trigger_purchase_id IS "
      "NOT NULL ORDER BY trigger_purchase_id, id");
  q.bind(1, user_id);
  while (q.step()) rows.emplace_back(q.integer(0), q.text(1));
  return rows;
}

}  // namespace lq::service
