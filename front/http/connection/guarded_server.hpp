// The service's HTTP server: httplib's routing and responses behind a front layer that owns the
// connections. Each connection is read here, under strict framing (framing/request_framing.hpp) and
// a total deadline per request; only a complete, canonical request reaches httplib, at most
// `workers` at a time. Beyond `max_connections`, or beyond `max_connections_per_peer` from one
// remote address (so that one client cannot starve the others), a connection gets 503 with the
// error body.
// Pipelined requests are answered in order; a client that half-closes still gets its answer.
#pragma once

#include <httplib.h>

#include "front/http/connection/connection_limits.hpp"
#include "front/http/connection/request_gate.hpp"

namespace lq::front {

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

}  // namespace lq::front
