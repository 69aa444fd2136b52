// The service's HTTP server: httplib's routing and responses behind a front layer that owns the
// connections. Each connection is read here, under strict framing (request_framing.hpp) and a
// total deadline per request; only a complete, canonical request reaches httplib, at most
// `workers` at a time. Beyond `max_connections` a connection gets 503 with the error body.
// Pipelined requests are answered in order; a client that half-closes still gets its answer.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <mutex>

#include <httplib.h>

#include "request_framing.hpp"

namespace lq::service {

struct connection_limits {
  framing_limits framing;
  int request_timeout_ms = 10'000;    // the whole request (head and body): 408 beyond
  int keep_alive_timeout_ms = 5'000;  // idle between requests: closed
  int write_timeout_ms = 5'000;
  size_t keep_alive_max_requests = 1000;
  size_t max_connections = 256;  // 503 beyond
  size_t workers = 0;            // requests handled at once; 0: twice the hardware threads
};

/// The worker count in force for `limits` (its own, else 2 x hardware threads, at least 4).
size_t worker_count(const connection_limits& limits);

class guarded_server : public httplib::Server {
 public:
  explicit guarded_server(const connection_limits& limits);

 private:
  bool process_and_close_socket(socket_t sock) override;
  void serve_connection(socket_t sock);
  void reject_connection(socket_t sock);

  connection_limits limits_;
  size_t workers_;
  std::mutex slots_mutex_;
  std::condition_variable slot_freed_;
  size_t busy_ = 0;
};

}  // namespace lq::service
