// Command line of the store hub:
//   loyalty_hub --port P --db FILE [--store-key KEY] [--host ADDRESS] [--expose-on-network]
//               [--claim-ttl DURATION] [--access-log FILE|-|off] [--max-connections N]
//               [--max-connections-per-peer N] [--workers N] [--request-timeout SECONDS]
// The store key may come from the environment (LQ_HUB_STORE_KEY) instead, as the package's
// launcher passes it, so that it does not show in the process list.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "hub/domain/claim_rules.hpp"
#include "lq/result.hpp"

namespace lq::hub {

struct hub_options {
  std::string host = "127.0.0.1";
  int port = 0;
  std::string db_path;
  std::string store_key;
  bool expose_on_network = false;
  int64_t claim_ttl_ms = kDefaultClaimTtlMs;
  std::string access_log = "-";
  int max_connections = 256;
  int max_connections_per_peer = 128;
  /// Requests handled at once: a hub's requests mostly wait for a commit, so more than the
  /// service's default.
  int workers = 64;
  int64_t request_timeout_ms = 10'000;
  bool help = false;
};

/// Parses argv (without the program name); `environment_key`: LQ_HUB_STORE_KEY, or null. Errors
/// (code 2) name the offending option.
result<hub_options> parse_hub_options(const std::vector<std::string>& args,
                                      const char* environment_key);

/// True for localhost, 127.0.0.0/8 and ::1 (also IPv4-mapped): reachable from this machine only.
bool is_loopback(const std::string& host);

/// The usage text printed by --help and after a command line error.
const char* hub_usage();

}  // namespace lq::hub
