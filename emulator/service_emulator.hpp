// The local loyalty service assembled in memory, as service/main.cpp assembles it around a socket:
// the same options, store, fixture seeding, accounts, baskets, accrual and sandbox, and the same
// routes (http/http_routes.hpp) behind a memory_server. Purchases land on the first request at or
// after their due time (the native service's accrual thread lands them as the time passes).
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "domain/accounts/account_cache.hpp"
#include "domain/baskets/baskets.hpp"
#include "domain/purchases/accrual.hpp"
#include "domain/sandbox/sandbox.hpp"
#include "front/service_clock.hpp"
#include "http/auth.hpp"
#include "http/http_routes.hpp"
#include "memory_server.hpp"
#include "options.hpp"
#include "store/store.hpp"

namespace lq::emulator {

/// What opts.db_path holds when a service_emulator opens it.
enum class first_state {
  fixture,       // nothing yet: seeded from opts.fixture_path, if any
  seeded_image,  // a copy of a database this module seeded from a fixture (docs/emulator.md)
};

class service_emulator {
 public:
  /// Opens opts.db_path (a file of the module's in-memory file system), seeds it from
  /// opts.fixture_path (or, from a seeded image, stamps the seeding's times at now) and installs
  /// the routes. Throws std::runtime_error saying why a fixture or an image does not load.
  explicit service_emulator(const service::options& opts, first_state from = first_state::fixture);
  service_emulator(const service_emulator&) = delete;
  service_emulator& operator=(const service_emulator&) = delete;

  /// The response to one HTTP/1.1 request from `peer`, after landing the purchases due by now.
  std::string answer(std::string_view request, std::string peer);

 private:
  /// Loads every account of the database; throws std::runtime_error naming one that does not load.
  void load_every_account();
  /// Lands the purchases due by now when one may be: a purchase was queued since the last look,
  /// or the earliest pending one is due (reading the store on every request would cost more
  /// than most answers).
  void land_due_purchases();

  bool purchase_queued_ = true;         // look at the start: the database may hold some
  std::optional<int64_t> next_due_ms_;  // the earliest pending purchase's due time
  service::options opts_;
  front::service_clock clock_;
  service::store db_;
  service::credentials auth_;
  service::account_cache accounts_;
  service::accrual_worker accrual_;
  service::basket_service baskets_;
  std::optional<service::sandbox_service> sandbox_;
  std::optional<service::route_context> context_;
  memory_server server_;
};

}  // namespace lq::emulator
