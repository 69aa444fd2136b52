// The limits of the guarded server's connections (guarded_server.hpp): framing, deadlines, caps
// on connections (in all and per remote address) and the requests handled at once.
#pragma once

#include <cstddef>

#include "front/http/framing/request_framing.hpp"

namespace lq::front {

struct connection_limits {
  framing_limits framing;
  int request_timeout_ms = 10'000;    // the whole request (head and body): 408 beyond
  int keep_alive_timeout_ms = 5'000;  // idle between requests: closed
  int write_timeout_ms = 5'000;
  size_t keep_alive_max_requests = 1000;
  size_t max_connections = 256;           // 503 beyond
  size_t max_connections_per_peer = 128;  // one remote address's share: 503 beyond
  size_t workers = 0;                     // requests handled at once; 0: 4 x the hardware threads
};

/// Why a connection is refused (503): the service is full, or its peer holds its share.
enum class refusal { connection_limit, peer_limit };

/// The worker count in force for `limits` (its own, else 4 x hardware threads, at least 4).
size_t worker_count(const connection_limits& limits);

}  // namespace lq::front
