#include "store/sandbox_store.hpp"

namespace lq::service {

bool sandbox_store::insert_card(const std::string& user_id, const card_row& row) {
  return db_.insert_or_ignore(
      "INSERT OR IGNORE INTO user_cards (user_id, number, registered_at) VALUES (?, ?, ?)", user_id,
      row.number, row.registered_at);
}

void sandbox_store::set_every_card_registered_at(const std::string& at) {
  db_.prepare("UPDATE user_cards SET registered_at = ?").bind(1, at).run();
}

std::vector<card_row> sandbox_store::cards_of(const std::string& user_id) {
  std::vector<card_row> rows;
  front::statement q =
      db_.prepare("SELECT number, registered_at FROM user_cards WHERE user_id = ? ORDER BY rowid");
  q.bind(1, user_id);
  while (q.step()) rows.push_back({q.text(0), q.text(1)});
  return rows;
}

int64_t sandbox_store::card_holder_count(const std::string& number, const std::string& user_id) {
  // The users of `user_id`'s merchant only: another merchant's users are not this one's.
  front::statement q = db_.prepare(
      "SELECT count(DISTINCT c.user_id) FROM user_cards c JOIN users u ON u.id = c.user_id "
      "WHERE c.number = ? AND u.merchant_id = (SELECT merchant_id FROM users WHERE id = ?)");
  q.bind(1, number);
  q.bind(2, user_id);
  return q.step() ? q.integer(0) : 0;
}

void sandbox_store::delete_cards_of(const std::string& user_id) {
  db_.prepare("DELETE FROM user_cards WHERE user_id = ?").bind(1, user_id).run();
}

}  // namespace lq::service
