// The local loyalty service: parses options, opens (and migrates) the SQLite file, seeds it from
// the fixture, then serves the loyalty API (and, in sandbox mode, the consumer API's sandbox
// operations) until SIGTERM or SIGINT.
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif

#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <optional>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include <httplib.h>

#include "domain/accounts/account_cache.hpp"
#include "domain/purchases/accrual.hpp"
#include "domain/baskets/baskets.hpp"
#include "domain/sandbox/fixture.hpp"
#include "domain/json_document.hpp"
#include "domain/sandbox/sandbox.hpp"
#include "domain/service_clock.hpp"
#include "http/access_log.hpp"
#include "http/auth.hpp"
#include "http/guarded_server.hpp"
#include "http/http_routes.hpp"
#include "options.hpp"
#include "store/migrations.hpp"
#include "store/store.hpp"

namespace {

using namespace lq::service;

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

// `--db :memory:` (tests): SQLite's own in-memory databases have no WAL mode, so the service uses
// a file in a fresh temporary folder instead and removes both when it stops.
class throwaway_database {
 public:
  throwaway_database() {
    const char* tmp = std::getenv("TMPDIR");
    std::string folder = std::string(tmp && *tmp ? tmp : "/tmp") + "/loyalty_service-XXXXXX";
    if (!mkdtemp(folder.data())) {
      throw std::runtime_error("--db :memory:: cannot create a temporary folder " + folder + ": " +
                               std::strerror(errno));
    }
    folder_ = folder;
  }
  throwaway_database(const throwaway_database&) = delete;
  throwaway_database& operator=(const throwaway_database&) = delete;
  ~throwaway_database() {
    for (const char* suffix : {"", "-wal", "-shm", "-journal"}) {
      unlink((file() + suffix).c_str());
    }
    rmdir(folder_.c_str());
  }
  std::string file() const { return folder_ + "/loyalty.db"; }

 private:
  std::string folder_;
};

// Started by startLocalService() (web/service/local_service.js), which passes its pid: the service
// stops (SIGTERM) when the thread that started it ends, even by kill -9. False when it is gone
// already.
bool stop_with_parent() {
  const char* parent = std::getenv("LQ_SERVICE_PARENT_PID");
  if (parent == nullptr || *parent == '\0') return true;
#ifdef __linux__
  prctl(PR_SET_PDEATHSIG, SIGTERM);
#endif
  return std::to_string(getppid()) == parent;
}

std::string base_url(const std::string& host, int port) {
  const bool ipv6 = host.find(':') != std::string::npos;
  return "http://" + (ipv6 ? "[" + host + "]" : host) + ":" + std::to_string(port);
}

int serve(const options& opts) {
  // SIGTERM and SIGINT are taken by one thread (sigwait) that stops the server cleanly; every
  // thread started from here on inherits the blocked mask.
  sigset_t stop_signals;
  sigemptyset(&stop_signals);
  sigaddset(&stop_signals, SIGTERM);
  sigaddset(&stop_signals, SIGINT);
  pthread_sigmask(SIG_BLOCK, &stop_signals, nullptr);
  signal(SIGPIPE, SIG_IGN);
  // A file size limit (ulimit -f) makes a write fail with EFBIG (answered 507), not the process.
  signal(SIGXFSZ, SIG_IGN);
  if (!stop_with_parent()) {
    std::fprintf(stderr, "loyalty_service: the process that started it has ended\n");
    return 1;
  }

  const service_clock clock(opts.fixed_now);
  std::optional<throwaway_database> scratch;
  if (opts.db_path == ":memory:") scratch.emplace();
  const std::string db_path = scratch ? scratch->file() : opts.db_path;
  store db(db_path);
  if (db.opened_version() == 0) {
    std::fprintf(stderr, "loyalty_service: created %s (schema %d)\n", db_path.c_str(),
                 kSchemaVersion);
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
      auto seeded = seed_from_fixture(db, *opts.fixture_path, format_rfc3339(clock.now()));
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
    if (db.opened_version() == 0) {
      // Created by this start: remove it, so that the corrected fixture seeds it next time.
      for (const char* suffix : {"", "-wal", "-shm"}) std::remove((opts.db_path + suffix).c_str());
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
  if (!open_access_log(opts.access_log, log_problem)) {
    std::fprintf(stderr, "loyalty_service: %s\n", log_problem.c_str());
    return 1;
  }
  connection_limits limits;
  limits.max_connections = static_cast<size_t>(opts.max_connections);
  limits.max_connections_per_peer = static_cast<size_t>(opts.max_connections_per_peer);
  limits.workers = static_cast<size_t>(opts.workers);
  limits.request_timeout_ms = static_cast<int>(opts.request_timeout_ms);
  guarded_server server(limits);
  const route_context context{auth, accounts, baskets, clock, sandbox ? &*sandbox : nullptr};
  install_routes(server, context);

  int port = opts.port;
  if (port == 0) {
    port = server.bind_to_any_port(opts.host);
  } else if (!server.bind_to_port(opts.host, port)) {
    port = -1;
  }
  if (port <= 0) {
    std::fprintf(stderr, "loyalty_service: cannot listen on %s:%d\n", opts.host.c_str(), opts.port);
    return 1;
  }
  server.widen_listen_backlog();

  // The server runs on its own thread; this one waits for SIGTERM or SIGINT. The base URL is
  // printed once the server runs, so a stop request can never come before it can take effect.
  std::atomic<bool> listener_done{false};
  bool listened = false;
  const pthread_t main_thread = pthread_self();
  std::thread listener([&] {
    listened = server.listen_after_bind();
    listener_done = true;
    pthread_kill(main_thread, SIGTERM);  // wakes sigwait below
  });
  while (!server.is_running() && !listener_done) {
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  accrual.start();
  if (!listener_done) {
    std::fprintf(stderr,
                 "loyalty_service: listening on %s (%s mode, processing delay %.3f s, %zu "
                 "workers, at most %zu connections, %zu per client)\n",
                 base_url(opts.host, port).c_str(),
                 opts.mode == service_mode::sandbox ? "sandbox" : "production",
                 static_cast<double>(opts.effective_processing_delay_ms()) / 1000.0,
                 worker_count(limits), limits.max_connections, limits.max_connections_per_peer);
    std::printf("%s\n", base_url(opts.host, port).c_str());
    std::fflush(stdout);
    int received = 0;
    sigwait(&stop_signals, &received);
    if (!listener_done) {
      std::fprintf(stderr, "loyalty_service: signal %d, stopping\n", received);
      server.stop();
    }
  }
  listener.join();
  accrual.stop();
  std::fprintf(stderr, "loyalty_service: stopped\n");
  return listened ? 0 : 1;
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
