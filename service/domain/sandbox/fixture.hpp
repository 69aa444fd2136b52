// The fixture file (docs/service.md): merchants with locations, clients, users with points,
// rewards, points products and campaigns. It seeds the database: records whose key is missing
// are inserted, existing ones are kept, so restarting with the same fixture changes nothing.
#pragma once

#include <string>

#include "lq/qualifier.hpp"
#include "store/store.hpp"

namespace lq::service {

struct seed_summary {
  int inserted = 0;
  int kept = 0;  // already in the database
};

/// Validates the fixture (errors name the path, e.g. `users[2].merchant_id`) and seeds `db` in
/// one transaction. The caller holds db.lock().
result<seed_summary> seed_from_fixture(store& db, const std::string& fixture_path,
                                       const std::string& now_text);

/// Writes `now_text` where seed_from_fixture writes the time it seeds at (every reward's
/// created_at, every card's registered_at), in one transaction: a copy of a database seeded at
/// another instant, and changed by nothing since, then holds what seeding it at `now_text` would
/// (the emulator's seeded image, docs/emulator.md). The caller holds db.lock().
void restamp_seeded_times(store& db, const std::string& now_text);

}  // namespace lq::service
