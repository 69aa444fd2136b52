// The store hub: parses options, opens (and migrates) its SQLite file, then decides claims over
// HTTP (http/hub_routes.hpp) until SIGTERM or SIGINT. docs/hub.md describes it.
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <optional>
#include <string>
#include <vector>

#include "front/http/access_log.hpp"
#include "front/http/connection/guarded_server.hpp"
#include "front/http/foreground_server.hpp"
#include "front/store/sqlite.hpp"
#include "front/store/throwaway_database.hpp"
#include "hub/domain/claim_service.hpp"
#include "hub/http/hub_routes.hpp"
#include "hub/hub_options.hpp"
#include "hub/store/hub_schema.hpp"

namespace {

using namespace lq::hub;
namespace front = lq::front;

int serve(const hub_options& opts) {
  if (!front::prepare_foreground_process()) {
    std::fprintf(stderr, "loyalty_hub: the process that started it has ended\n");
    return 1;
  }
  std::optional<front::throwaway_database> scratch;
  if (opts.db_path == ":memory:") scratch.emplace("loyalty_hub", "hub.db");
  const std::string db_path = scratch ? scratch->file() : opts.db_path;
  front::database writer(db_path);
  writer.quick_check();
  if (migrate_hub(writer) == 0) {
    // Named as the command line named it; a throwaway one also says where it is.
    if (scratch) {
      std::fprintf(stderr,
                   "loyalty_hub: created :memory: (schema %d), a throwaway file removed when the "
                   "hub stops: %s\n",
                   kHubSchemaVersion, db_path.c_str());
    } else {
      std::fprintf(stderr, "loyalty_hub: created %s (schema %d)\n", db_path.c_str(),
                   kHubSchemaVersion);
    }
  }
  front::database reader(db_path);
  claim_service claims(writer, reader, opts.claim_ttl_ms);

  std::string log_problem;
  if (!front::open_access_log(opts.access_log, log_problem)) {
    std::fprintf(stderr, "loyalty_hub: %s\n", log_problem.c_str());
    return 1;
  }
  const front::connection_limits limits = front::limits_of(opts);
  front::guarded_server server(limits);
  const hub_context context{claims, opts.store_key, opts.cors};
  install_hub_routes(server, context);

  bool served = false;
  const int status = front::serve_in_foreground(
      server, opts.host, opts.port, "loyalty_hub", [&](const std::string& url) {
        served = true;
        if (opts.expose_on_network) {
          std::fprintf(stderr,
                       "loyalty_hub: WARNING: --expose-on-network: the hub is reachable from the "
                       "network at %s; anyone who knows the store key can claim and release "
                       "offers, over plain HTTP (no TLS)\n",
                       url.c_str());
        }
        std::fprintf(stderr,
                     "loyalty_hub: listening on %s (claim TTL %lld ms, %zu workers, at most %zu "
                     "connections, %zu per client)\n",
                     url.c_str(), static_cast<long long>(opts.claim_ttl_ms),
                     front::worker_count(limits), limits.max_connections,
                     limits.max_connections_per_peer);
      });
  if (served) std::fprintf(stderr, "loyalty_hub: stopped\n");
  return status;
}

}  // namespace

int main(int argc, char** argv) {
  const std::vector<std::string> args(argv + 1, argv + argc);
  lq::result<hub_options> parsed = parse_hub_options(args, std::getenv("LQ_HUB_STORE_KEY"));
  if (!parsed) {
    std::fprintf(stderr, "loyalty_hub: %s\n%s", parsed.err().message.c_str(), hub_usage());
    return 2;
  }
  if (parsed->help) {
    std::fputs(hub_usage(), stdout);
    return 0;
  }
  for (const std::string& warning : parsed->warnings) {
    std::fprintf(stderr, "loyalty_hub: %s\n", warning.c_str());
  }
  try {
    return serve(*parsed);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "loyalty_hub: %s\n", e.what());
    return 1;
  }
}
