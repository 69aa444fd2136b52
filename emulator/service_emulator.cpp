#include "service_emulator.hpp"

#include <stdexcept>
#include <vector>

#include "domain/sandbox/fixture.hpp"
#include "store/migrations.hpp"

namespace lq::emulator {

namespace {

service::order_window window_of(const service::options& opts) {
  service::order_window window;
  window.max_age_ms = opts.max_order_age_ms;
  return window;
}

service::open_basket_limits open_limits_of(const service::options& opts) {
  service::open_basket_limits limits;
  limits.max_count = opts.max_open_baskets;
  return limits;
}

}  // namespace

service_emulator::service_emulator(const service::options& opts, first_state from)
    : opts_(opts),
      clock_(opts.fixed_now),
      // A seeded image is a copy this module just wrote of a file it made: nothing to check.
      db_(opts.db_path, from == first_state::seeded_image ? service::file_origin::own_copy
                                                          : service::file_origin::unknown),
      accounts_(db_, clock_),
      accrual_(db_, accounts_, opts.mode == service::service_mode::sandbox),
      baskets_(db_, accounts_, clock_, opts.effective_processing_delay_ms(), window_of(opts),
               open_limits_of(opts), [this] { purchase_queued_ = true; }),
      server_(front::limits_of(opts).framing) {
  {
    auto lock = db_.lock();
    if (from == first_state::seeded_image) {
      // Made by this module's own schema and seeding at build time (web/emulator/seeded_image.js
      // matches the fixture's text): the migrations, the seeding and its validation are done.
      if (opts.fixture_path || db_.opened_version() != service::kSchemaVersion) {
        throw std::runtime_error("not a seeded image of this emulator's schema");
      }
      service::restamp_seeded_times(db_, format_rfc3339_ms(clock_.now()));
    } else if (opts.fixture_path) {
      auto seeded =
          service::seed_from_fixture(db_, *opts.fixture_path, format_rfc3339_ms(clock_.now()));
      if (!seeded) throw std::runtime_error(seeded.err().message);
    }
    auth_.load(db_);
  }
  // A fixture must load whole, as at the native service's first start. A seeded image did when
  // the build seeded it with this module: its accounts load when first asked for.
  if (from == first_state::fixture) load_every_account();
  // The consumer API's sandbox operations exist in sandbox mode only (API spec 9).
  if (opts.mode == service::service_mode::sandbox) {
    sandbox_.emplace(db_, accounts_, clock_, opts.effective_processing_delay_ms(),
                     [this] { purchase_queued_ = true; });
  }
  context_.emplace(service::route_context{auth_, accounts_, baskets_, clock_,
                                          sandbox_ ? &*sandbox_ : nullptr, opts_.cors});
  service::install_routes(server_, *context_);
}

void service_emulator::load_every_account() {
  std::vector<service::user_row> users;
  {
    auto lock = db_.lock();
    users = db_.users();
  }
  for (const service::user_row& user : users) {
    auto view = accounts_.get(user.id);
    if (!view) throw std::runtime_error(view.err().message);
  }
}

void service_emulator::land_due_purchases() {
  if (!purchase_queued_ && (!next_due_ms_ || front::service_clock::wall_ms() < *next_due_ms_)) {
    return;
  }
  purchase_queued_ = false;
  next_due_ms_ = accrual_.land_due();
}

std::string service_emulator::answer(std::string_view request, std::string peer) {
  land_due_purchases();
  return server_.answer(request, std::move(peer));
}

}  // namespace lq::emulator
