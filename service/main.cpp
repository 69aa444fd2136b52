// The local loyalty service: parses options, opens (and migrates) the SQLite file, seeds it from
// the fixture, then serves the loyalty API (and, in sandbox mode, the consumer API's sandbox
// operations) until SIGTERM or SIGINT.
#include <sys/stat.h>

#include <cstdio>
#include <exception>
#include <optional>
#include <string>
#include <vector>

#include "domain/accounts/account_cache.hpp"
#include "domain/baskets/baskets.hpp"
#include "domain/json_document.hpp"
#include "domain/purchases/accrual.hpp"
#include "domain/sandbox/fixture.hpp"
#include "domain/sandbox/sandbox.hpp"
#include "front/http/access_log.hpp"
#include "front/http/connection/guarded_server.hpp"
#include "front/http/foreground_server.hpp"
#include "front/service_clock.hpp"
#include "front/store/throwaway_database.hpp"
#include "http/auth.hpp"
#include "http/http_routes.hpp"
#include "options.hpp"
#include "store/migrations.hpp"
#include "store/store.hpp"

namespace {

using namespace lq::service;
namespace front = lq::front;

// Every user's snapshot should load in the engine. One that does not (a database written before
// the points bounds, or edited by hand) is reported and served as a clear error to that user
// alone; it never stops the service for everyone else.
bool check_accounts(store& db, account_cache& accounts, bool strict) {
  std::vector<user_row> users;
  {
    auto lock = db.lock();
    users = db.users();
  }
  for (const user_row& user : users) {
    auto view = accounts.get(user.id);
    if (!view && strict) {
      std::fprintf(stderr, "loyalty_service: %s\n", view.err().message.c_str());
      return false;
    }
    if (!view) {
      std::fprintf(stderr, "loyalty_service: warning: %s (this user gets %d until it is fixed)\n",
                   view.err().message.c_str(), view.err().code);
    }
  }
  return true;
}

int serve(const options& opts) {
  if (!front::prepare_foreground_process()) {
    std::fprintf(stderr, "loyalty_service: the process that started it has ended\n");
    return 1;
  }

  const front::service_clock clock(opts.fixed_now);
  std::optional<front::throwaway_database> scratch;
  if (opts.db_path == ":memory:") scratch.emplace("loyalty_service", "loyalty.db");
  const std::string db_path = scratch ? scratch->file() : opts.db_path;
  store db(db_path);
  if (db.opened_version() == 0) {
    // Every line names the database as the command line did; a throwaway one also says where.
    if (scratch) {
      std::fprintf(stderr,
                   "loyalty_service: created :memory: (schema %d), a throwaway file removed when "
                   "the service stops: %s\n",
                   kSchemaVersion, db_path.c_str());
    } else {
      std::fprintf(stderr, "loyalty_service: created %s (schema %d)\n", db_path.c_str(),
                   kSchemaVersion);
    }
  }
  // A new file is 0600 (store/sqlite.cpp); one made before, or by hand, keeps its mode.
  struct stat db_info {};
  if (::stat(db_path.c_str(), &db_info) == 0 && (db_info.st_mode & 077) != 0) {
    std::fprintf(stderr,
                 "loyalty_service: warning: %s has mode %04o, so others than its owner may read "
                 "or write it, and it holds every access token and merchant key: chmod 600 %s "
                 "(the service creates a new database 0600)\n",
                 db_path.c_str(), static_cast<unsigned>(db_info.st_mode & 07777), db_path.c_str());
  }

  credentials auth;
  // The fixture seeds a new database only: once a file exists it is the source of truth, and a
  // restart never brings back what its writes changed (nor fills a replaced file silently).
  bool seeding = false;
  {
    auto lock = db.lock();
    seeding = opts.fixture_path && db.users().empty() && db.merchants().empty();
    if (seeding) {
      auto seeded = seed_from_fixture(db, *opts.fixture_path, format_rfc3339_ms(clock.now()));
      if (!seeded) {
        std::fprintf(stderr, "loyalty_service: %s\n", seeded.err().message.c_str());
        return 1;
      }
      std::fprintf(stderr,
                   "loyalty_service: new database %s seeded from fixture %s: %d records added\n",
                   opts.db_path.c_str(), opts.fixture_path->c_str(), seeded->inserted);
    } else if (opts.fixture_path) {
      std::fprintf(stderr,
                   "loyalty_service: fixture %s not applied: %s already exists (a fixture seeds "
                   "only a new database)\n",
                   opts.fixture_path->c_str(), opts.db_path.c_str());
    }
    auth.load(db);
  }

  account_cache accounts(db, clock);
  // A fixture must load whole; a stored account the engine rejects only affects its user.
  if (!check_accounts(db, accounts, seeding)) {
    if (db.opened_version() == 0 && !scratch) {
      // Created by this start: remove it, so that the corrected fixture seeds it next time.
      for (const char* suffix : {"", "-wal", "-shm"}) std::remove((db_path + suffix).c_str());
    }
    return 1;
  }

  // The sandbox fraud rule applies to triggered rewards in sandbox mode only.
  accrual_worker accrual(db, accounts, opts.mode == service_mode::sandbox);
  order_window window;
  window.max_age_ms = opts.max_order_age_ms;
  open_basket_limits open_limits;
  open_limits.max_count = opts.max_open_baskets;
  basket_service baskets(db, accounts, clock, opts.effective_processing_delay_ms(), window,
                         open_limits, [&accrual] { accrual.notify(); });
  // The consumer API's sandbox operations exist in sandbox mode only (API spec 9).
  std::optional<sandbox_service> sandbox;
  if (opts.mode == service_mode::sandbox) {
    sandbox.emplace(db, accounts, clock, opts.effective_processing_delay_ms(),
                    [&accrual] { accrual.notify(); });
  }

  std::string log_problem;
  if (!front::open_access_log(opts.access_log, log_problem)) {
    std::fprintf(stderr, "loyalty_service: %s\n", log_problem.c_str());
    return 1;
  }
  const front::connection_limits limits = front::limits_of(opts);
  front::guarded_server server(limits);
  sandbox_service* const sandbox_routes = sandbox ? &*sandbox : nullptr;
  const route_context context{auth, accounts, baskets, clock, sandbox_routes, opts.cors};
  install_routes(server, context);

  bool served = false;
  const int status = front::serve_in_foreground(
      server, opts.host, opts.port, "loyalty_service", [&](const std::string& url) {
        served = true;
        accrual.start();
        std::fprintf(stderr,
                     "loyalty_service: listening on %s (%s mode, processing delay %.3f s, %zu "
                     "workers, at most %zu connections, %zu per client)\n",
                     url.c_str(), opts.mode == service_mode::sandbox ? "sandbox" : "production",
                     static_cast<double>(opts.effective_processing_delay_ms()) / 1000.0,
                     front::worker_count(limits), limits.max_connections,
                     limits.max_connections_per_peer);
      });
  accrual.stop();
  // A start that could not listen ends with its reason as the last line (the launcher reports it).
  if (served) std::fprintf(stderr, "loyalty_service: stopped\n");
  return status;
}

}  // namespace

int main(int argc, char** argv) {
  const std::vector<std::string> args(argv + 1, argv + argc);
  lq::result<options> parsed = parse_options(args);
  if (!parsed) {
    std::fprintf(stderr, "loyalty_service: %s\n%s", parsed.err().message.c_str(), usage());
    return 2;
  }
  if (parsed->help) {
    std::fputs(usage(), stdout);
    return 0;
  }
  try {
    return serve(*parsed);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "loyalty_service: %s\n", e.what());
    return 1;
  }
}
