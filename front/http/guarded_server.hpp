// The service's HTTP server: httplib's routing and responses behind a front layer that owns the
// connections. Each connection is read here, under strict framing (request_framing.hpp) and a
// total deadline per request; only a complete, canonical request reaches httplib, at most
// `workers` at a time. Beyond `max_connections`, or beyond `max_connections_per_peer` from one
// remote address (so that one client cannot starve the others), a connection gets 503 with the
// error body.
// Pipelined requests are answered in order; a client that half-closes still gets its answer.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <deque>
#include <mutex>
#include <string>

#include <httplib.h>

#include "front/http/request_framing.hpp"

namespace lq::service {

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

/// At most `slots` holders at once, granted strictly in arrival order (a fair queue keeps the
/// tail latency close to the median when more requests wait than there are workers).
class request_gate {
 public:
  explicit request_gate(size_t slots) : free_(slots) {}
  void acquire();
  void release();

 private:
  struct waiter {
    std::condition_variable granted_cv;
    bool granted = false;
  };
  std::mutex mutex_;
  size_t free_;
  std::deque<waiter*> waiting_;
};

class guarded_server : public httplib::Server {
 public:
  explicit guarded_server(const connection_limits& limits);

  /// httplib listens with a backlog of 5: a burst of new connections (64 clients reconnecting)
  /// would see SYNs dropped and retried seconds later. Call after binding.
  void widen_listen_backlog();

 private:
  bool process_and_close_socket(socket_t sock) override;
  void serve_connection(socket_t sock);
  void reject_connection(socket_t sock, refusal reason);

  connection_limits limits_;
  request_gate gate_;
  httplib::TaskQueue* pool_ = nullptr;  // the current listen's connection pool
};

}  // namespace lq::service
