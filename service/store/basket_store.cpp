#include "store/basket_store.hpp"

namespace lq::service {

std::optional<basket_row> basket_store::basket(const std::string& user_id, const std::string& id) {
  front::statement q = db_.prepare(
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

void basket_store::save_basket(const basket_row& row) {
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

open_basket_usage basket_store::open_baskets_of(const std::string& user_id) {
  // The condition repeats the partial index's (baskets_open, schema 3), so it is used.
  front::statement q = db_.prepare(
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

void basket_store::delete_open_baskets_before(const std::string& user_id,
                                              const std::string& cutoff) {
  db_.prepare(
         "DELETE FROM baskets WHERE user_id = ? AND state IN ('checkout', 'placed') "
         "AND julianday(updated_at) < julianday(?)")
      .bind(1, user_id)
      .bind(2, cutoff)
      .run();
}

bool basket_store::redeem_reward(const std::string& reward_id, const std::string& user_id,
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

bool basket_store::debit_points(const std::string& user_id, const std::string& points_experience_id,
                                int64_t points, const std::string& basket_id,
                                const std::string& at) {
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

}  // namespace lq::service
