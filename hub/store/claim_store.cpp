#include "hub/store/claim_store.hpp"

namespace lq::hub {

namespace {

using front::statement;

constexpr const char* kColumns =
    "SELECT merchant_id, user_id, basket_id, kiosk_id, reward_id, points_product_id, points, "
    "points_experience_id, state, claimed_at, ttl_ms, expires_at, settled_at, billed_at, "
    "balance_as_of FROM claims ";

claim_state state_of(const std::string& text) {
  if (text == "spent") return claim_state::spent;
  if (text == "released") return claim_state::released;
  return claim_state::held;
}

std::optional<int64_t> optional_integer(const statement& row, int column) {
  if (row.is_null(column)) return std::nullopt;
  return row.integer(column);
}

claim read_claim(const statement& row) {
  claim c;
  c.basket = {row.text(0), row.text(1), row.text(2)};
  c.kiosk_id = row.text(3);
  c.offer.reward_id = row.optional_text(4);
  c.offer.points_product_id = row.optional_text(5);
  c.offer.points = row.integer(6);
  c.offer.points_experience_id = row.text(7);
  c.state = state_of(row.text(8));
  c.claimed_at_ms = row.integer(9);
  c.ttl_ms = row.integer(10);
  c.expires_at_ms = row.integer(11);
  c.settled_at_ms = optional_integer(row, 12);
  c.billed_at_ms = optional_integer(row, 13);
  c.balance_as_of_ms = optional_integer(row, 14);
  return c;
}

}  // namespace

std::vector<claim> claim_store::query(statement& select) {
  std::vector<claim> out;
  while (select.step()) out.push_back(read_claim(select));
  return out;
}

std::optional<claim> claim_store::find(const basket_key& basket) {
  statement select = db_.prepare(std::string(kColumns) +
                                 "WHERE merchant_id = ? AND user_id = ? AND basket_id = ?");
  select.bind(1, basket.merchant_id).bind(2, basket.user_id).bind(3, basket.basket_id);
  if (!select.step()) return std::nullopt;
  return read_claim(select);
}

std::vector<claim> claim_store::holding_reward(const basket_key& basket,
                                               const std::string& reward_id, int64_t now_ms) {
  statement select = db_.prepare(std::string(kColumns) +
                                 "WHERE merchant_id = ? AND user_id = ? AND reward_id = ? "
                                 "AND basket_id <> ? AND state IN ('held', 'spent') "
                                 "AND expires_at > ? ORDER BY claimed_at, basket_id");
  select.bind(1, basket.merchant_id)
      .bind(2, basket.user_id)
      .bind(3, reward_id)
      .bind(4, basket.basket_id)
      .bind(5, now_ms);
  return query(select);
}

std::vector<claim> claim_store::holding_points(const basket_key& basket,
                                               const std::string& points_experience_id,
                                               int64_t now_ms) {
  statement select = db_.prepare(
      std::string(kColumns) +
      "WHERE merchant_id = ? AND user_id = ? AND points_experience_id = ? "
      "AND points_product_id IS NOT NULL AND basket_id <> ? AND state IN ('held', 'spent') "
      "AND expires_at > ? ORDER BY claimed_at, basket_id");
  select.bind(1, basket.merchant_id)
      .bind(2, basket.user_id)
      .bind(3, points_experience_id)
      .bind(4, basket.basket_id)
      .bind(5, now_ms);
  return query(select);
}

std::vector<claim> claim_store::holding(const guest_key& guest, int64_t now_ms, size_t limit) {
  statement select = db_.prepare(std::string(kColumns) +
                                 "WHERE merchant_id = ? AND user_id = ? "
                                 "AND state IN ('held', 'spent') AND expires_at > ? "
                                 "ORDER BY claimed_at DESC, basket_id DESC LIMIT ?");
  select.bind(1, guest.merchant_id)
      .bind(2, guest.user_id)
      .bind(3, now_ms)
      .bind(4, static_cast<int64_t>(limit));
  std::vector<claim> newest_first = query(select);
  return {newest_first.rbegin(), newest_first.rend()};
}

int64_t claim_store::count_holding(const guest_key& guest, int64_t now_ms) {
  statement select = db_.prepare(
      "SELECT count(*) FROM claims WHERE merchant_id = ? AND user_id = ? "
      "AND state IN ('held', 'spent') AND expires_at > ?");
  select.bind(1, guest.merchant_id).bind(2, guest.user_id).bind(3, now_ms);
  return select.step() ? select.integer(0) : 0;
}

std::vector<claim> claim_store::holding_points_of(const guest_key& guest, int64_t now_ms) {
  statement select = db_.prepare(std::string(kColumns) +
                                 "WHERE merchant_id = ? AND user_id = ? "
                                 "AND points_product_id IS NOT NULL "
                                 "AND state IN ('held', 'spent') AND expires_at > ? "
                                 "ORDER BY claimed_at, basket_id");
  select.bind(1, guest.merchant_id).bind(2, guest.user_id).bind(3, now_ms);
  return query(select);
}

void claim_store::insert(const claim& c) {
  db_.prepare(
         "INSERT INTO claims (merchant_id, user_id, basket_id, kiosk_id, reward_id, "
         "points_product_id, points, points_experience_id, state, claimed_at, ttl_ms, expires_at, "
         "settled_at, billed_at, balance_as_of) "
         "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")
      .bind(1, c.basket.merchant_id)
      .bind(2, c.basket.user_id)
      .bind(3, c.basket.basket_id)
      .bind(4, c.kiosk_id)
      .bind(5, c.offer.reward_id)
      .bind(6, c.offer.points_product_id)
      .bind(7, c.offer.points)
      .bind(8, c.offer.points_experience_id)
      .bind(9, std::string(name_of(c.state)))
      .bind(10, c.claimed_at_ms)
      .bind(11, c.ttl_ms)
      .bind(12, c.expires_at_ms)
      .bind(13, c.settled_at_ms)
      .bind(14, c.billed_at_ms)
      .bind(15, c.balance_as_of_ms)
      .run();
}

void claim_store::update_settlement(const claim& c) {
  db_.prepare(
         "UPDATE claims SET state = ?, settled_at = ?, billed_at = ?, expires_at = ? "
         "WHERE merchant_id = ? AND user_id = ? AND basket_id = ?")
      .bind(1, std::string(name_of(c.state)))
      .bind(2, c.settled_at_ms)
      .bind(3, c.billed_at_ms)
      .bind(4, c.expires_at_ms)
      .bind(5, c.basket.merchant_id)
      .bind(6, c.basket.user_id)
      .bind(7, c.basket.basket_id)
      .run();
}

std::optional<balance_report> claim_store::balance(const guest_key& guest,
                                                   const std::string& points_experience_id) {
  statement select = db_.prepare(
      "SELECT balance, as_of FROM balances WHERE merchant_id = ? AND user_id = ? "
      "AND points_experience_id = ?");
  select.bind(1, guest.merchant_id).bind(2, guest.user_id).bind(3, points_experience_id);
  if (!select.step()) return std::nullopt;
  return balance_report{select.integer(0), select.integer(1)};
}

std::vector<stored_balance> claim_store::balances(const guest_key& guest, int64_t limit) {
  statement select = db_.prepare(
      "SELECT points_experience_id, balance, as_of FROM balances WHERE merchant_id = ? "
      "AND user_id = ? ORDER BY reported_at DESC, points_experience_id LIMIT ?");
  select.bind(1, guest.merchant_id).bind(2, guest.user_id).bind(3, limit);
  std::vector<stored_balance> out;
  while (select.step()) {
    out.push_back({select.text(0), {select.integer(1), select.integer(2)}});
  }
  return out;
}

int64_t claim_store::count_balances(const guest_key& guest) {
  statement select =
      db_.prepare("SELECT count(*) FROM balances WHERE merchant_id = ? AND user_id = ?");
  select.bind(1, guest.merchant_id).bind(2, guest.user_id);
  return select.step() ? select.integer(0) : 0;
}

void claim_store::put_balance(const guest_key& guest, const std::string& points_experience_id,
                              const balance_report& report, int64_t reported_at_ms) {
  db_.prepare(
         "INSERT INTO balances (merchant_id, user_id, points_experience_id, balance, as_of, "
         "reported_at) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (merchant_id, user_id, "
         "points_experience_id) DO UPDATE SET balance = excluded.balance, as_of = excluded.as_of, "
         "reported_at = excluded.reported_at")
      .bind(1, guest.merchant_id)
      .bind(2, guest.user_id)
      .bind(3, points_experience_id)
      .bind(4, report.balance)
      .bind(5, report.as_of_ms)
      .bind(6, reported_at_ms)
      .run();
}

int64_t claim_store::forget_before(int64_t cutoff_ms) {
  db_.prepare("DELETE FROM claims WHERE expires_at < ?").bind(1, cutoff_ms).run();
  const int64_t forgotten = db_.changes();
  db_.prepare("DELETE FROM balances WHERE reported_at < ?").bind(1, cutoff_ms).run();
  return forgotten;
}

}  // namespace lq::hub
