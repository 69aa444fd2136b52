// The sandbox's tables: the cards a user registered (the emulated fraud rule reads them). Part of
// the store (store.hpp), which holds the lock around every call.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "front/store/sqlite.hpp"

namespace lq::service {

/// A card a user registered (the emulator's helper), digits only.
struct card_row {
  std::string number;
  std::string registered_at;
};

class sandbox_store {
 public:
  explicit sandbox_store(front::database& db) : db_(db) {}

  // insert_*: true when inserted, false when a record with that key exists (seeding).
  bool insert_card(const std::string& user_id, const card_row& row);
  /// Sets every card's registered_at (a seeded database re-stamped: fixture.hpp).
  void set_every_card_registered_at(const std::string& at);
  /// The user's cards, in the order registered.
  std::vector<card_row> cards_of(const std::string& user_id);
  /// How many users of `user_id`'s merchant (it included) have registered this card number.
  int64_t card_holder_count(const std::string& number, const std::string& user_id);
  void delete_cards_of(const std::string& user_id);

 private:
  front::database& db_;
};

}  // namespace lq::service
