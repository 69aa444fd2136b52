// Command line of the store hub:
//   loyalty_hub --port P --db FILE [--store-key-file FILE] [--host ADDRESS] [--expose-on-network]
//               [--claim-ttl DURATION] [--access-log FILE|-|off] [--max-connections N]
//               [--max-connections-per-peer N] [--workers N] [--request-timeout SECONDS]
//               [--cors-origin ORIGIN]...
// The store key comes from the environment (LQ_HUB_STORE_KEY, as the package's launcher passes
// it) or from a file, so that it does not show in the process list; `--store-key KEY` is still
// taken, with a warning.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "front/http/front_options.hpp"
#include "hub/domain/claim_rules.hpp"
#include "lq/result.hpp"

namespace lq::hub {

/// The HTTP front's options (front_options: host, port, database, access log, caps) and the
/// hub's own.
struct hub_options : front::front_options {
  /// Requests handled at once: a hub's requests mostly wait for a commit, so more than the
  /// service's default.
  hub_options() { workers = 64; }
  std::string store_key;
  bool expose_on_network = false;
  int64_t claim_ttl_ms = kDefaultClaimTtlMs;
  bool help = false;
  /// What the command line risks (a key on it, a key file others may read): printed at start.
  std::vector<std::string> warnings;
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
