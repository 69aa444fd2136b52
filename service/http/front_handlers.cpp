#include "http/front_handlers.hpp"

#include <sys/socket.h>

#include <cstdio>
#include <exception>
#include <string>
#include <utility>

#include "http/access_log.hpp"
#include "http/http_messages.hpp"

namespace lq::service {

namespace {

const char* reason_phrase(int status) {
  switch (status) {
    case 400:
      return "bad request";
    case 401:
      return "unauthorized";
    case 404:
      return "not found";
    case 405:
      return "method not allowed";
    case 406:
      return "not acceptable";
    case 413:
      return "request body is larger than 1 MiB (1048576 bytes)";
    case 414:
      return "request URI is too long";
    case 500:
      return "internal error";
    default:
      return "request failed";
  }
}

}  // namespace

error database_failure(const database_error& e) {
  switch (e.what_kind()) {
    case database_error::kind::disk_full:
      return error{507, "the database disk is full: nothing was written, retry later"};
    case database_error::kind::file_replaced:
      return error{503,
                   "the database file was deleted or replaced while the service ran: nothing "
                   "was written; the service must be restarted"};
    case database_error::kind::failure:
      break;
  }
  return error{500, "internal error"};
}

void install_front_handlers(httplib::Server& server, request_gate_check gate) {
  // Connections, framing, body limits and workers are the front layer's (guarded_server.hpp).
  // Small JSON responses: without TCP_NODELAY, Nagle's algorithm meets the client's delayed ACK
  // and every response waits tens of milliseconds.
  server.set_tcp_nodelay(true);
  // SO_REUSEADDR only: httplib's default also sets SO_REUSEPORT, which would let a second
  // server bind the same port and silently share its connections.
  server.set_socket_options([](socket_t sock) {
    int yes = 1;
    setsockopt(sock, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
  });

  // Every other failure (404, 413, a malformed request line) in the same body shape.
  server.set_error_handler(
      httplib::Server::HandlerWithResponse([](const httplib::Request& req, httplib::Response& res) {
        if (!res.body.empty()) return httplib::Server::HandlerResponse::Unhandled;  // ours
        std::string message = reason_phrase(res.status);
        if (res.status == 404) message = "no route for " + req.method + " " + req.path;
        send_error(res, error{res.status, message});
        return httplib::Server::HandlerResponse::Handled;
      }));
  server.set_exception_handler(
      [](const httplib::Request&, httplib::Response& res, const std::exception_ptr& thrown) {
        try {
          if (thrown) std::rethrow_exception(thrown);
        } catch (const database_error& e) {
          std::fprintf(stderr, "error: %s\n", e.what());
          send_error(res, database_failure(e));
          return;
        } catch (const std::exception& e) {
          std::fprintf(stderr, "error: %s\n", e.what());
        } catch (...) {
          std::fprintf(stderr, "error: unknown exception\n");
        }
        send_error(res, error{500, "internal error"});
      });

  server.set_pre_routing_handler(
      [gate = std::move(gate)](const httplib::Request& req, httplib::Response& res) {
        mark_request_start();
        if (gate && !gate(req, res)) return httplib::Server::HandlerResponse::Handled;
        return httplib::Server::HandlerResponse::Unhandled;
      });
  server.set_logger(log_request);
}

}  // namespace lq::service
