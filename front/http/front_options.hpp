// The command-line options of the hardened HTTP front, shared by the loyalty service and the
// store hub: where it listens, its database file, its access log, the caps on what it serves and
// the origins whose pages may call it from a browser.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "front/http/connection/connection_limits.hpp"
#include "front/http/cors_policy.hpp"
#include "lq/result.hpp"

namespace lq::front {

struct front_options {
  std::string host = "127.0.0.1";
  int port = 0;  // 0: any free port
  bool port_given = false;
  std::string db_path;
  /// Where access-log lines go: "-" (stderr, the default), "off", or a file (rotated at 10 MiB).
  std::string access_log = "-";
  /// Open connections served at once; beyond: 503.
  int max_connections = 256;
  /// Open connections one remote address may hold at once; beyond: 503 (so one client cannot
  /// starve the others).
  int max_connections_per_peer = 128;
  /// Requests handled at once; 0: four times the hardware threads (at least 4).
  int workers = 0;
  /// The time one request (head and body) may take to arrive, in milliseconds; beyond: 408.
  int64_t request_timeout_ms = 10'000;
  /// The origins whose pages may call the server from a browser (--cors-origin, repeatable).
  cors_policy cors;
};

/// Reads option `name` with its `value` into `front` when it is one of the front's (--port,
/// --host, --db, --access-log, --max-connections, --max-connections-per-peer, --workers,
/// --request-timeout, --cors-origin): true when it was, false when it is another option; an
/// error (code 2) naming the option when its value is bad.
result<bool> read_front_option(const std::string& name, const std::string& value,
                               front_options& front);

/// The options every server requires (--port and --db), or an error (code 2) naming the missing
/// one.
std::optional<error> missing_front_option(const front_options& front);

/// The guarded server's limits as the options set them.
connection_limits limits_of(const front_options& front);

}  // namespace lq::front
