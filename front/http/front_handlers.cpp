#include "front/http/front_handlers.hpp"

#include <sys/socket.h>

#include <cstdio>
#include <exception>
#include <string>
#include <utility>

#include "front/http/access_log.hpp"
#include "front/http/http_messages.hpp"

namespace lq::front {

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

// A CORS preflight: OPTIONS from a page, naming the method it is about to send.
bool is_preflight(const httplib::Request& req) {
  return req.method == "OPTIONS" && req.has_header("Origin") &&
         req.has_header("Access-Control-Request-Method");
}

// The request's Origin when it is one the operator listed (sent once), else empty.
std::string listed_origin(const cors_policy& cors, const httplib::Request& req) {
  if (cors.empty() || req.get_header_value_count("Origin") != 1) return {};
  std::string origin = req.get_header_value("Origin");
  return cors.allows(origin) ? origin : std::string();
}

// The same for every path, so that a preflight tells nothing of the routes (nor needs a key):
// 204 with the grant for a listed origin, else 403 without any CORS header (the browser then
// stops the page's request).
void answer_preflight(const cors_policy& cors, const httplib::Request& req,
                      httplib::Response& res) {
  const std::string origin = listed_origin(cors, req);
  if (origin.empty()) {
    return send_error(
        res, error{403, "a page of origin " + req.get_header_value("Origin").substr(0, 200) +
                            " may not call this server: the operator lists the origins "
                            "that may with --cors-origin ORIGIN"});
  }
  res.status = 204;
  const bool private_network =
      req.get_header_value("Access-Control-Request-Private-Network") == "true";
  for (const auto& [name, value] : preflight_headers(origin, private_network)) {
    res.set_header(name, value);
  }
}

// Every answer depends on the Origin once some origin is listed (Vary: Origin, so that no cache
// serves one origin's answer to another); a listed origin's carries the grant.
void add_cors_headers(const cors_policy& cors, const httplib::Request& req,
                      httplib::Response& res) {
  if (cors.empty()) return;
  const std::string vary = res.get_header_value("Vary");
  res.headers.erase("Vary");
  res.set_header("Vary", vary.empty() ? "Origin" : vary + ", Origin");
  if (res.status == 204) res.headers.erase("Content-Length");  // a 204 has none (RFC 9110 8.6)
  const std::string origin = listed_origin(cors, req);
  if (origin.empty() || res.has_header("Access-Control-Allow-Origin")) return;
  for (const auto& [name, value] : allowed_origin_headers(origin)) res.set_header(name, value);
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

void install_front_handlers(httplib::Server& server, const cors_policy& cors,
                            request_gate_check gate) {
  // Connections, framing, body limits and workers are the front layer's
  // (connection/guarded_server.hpp). Small JSON responses: without TCP_NODELAY, Nagle's algorithm
  // meets the client's delayed ACK and every response waits tens of milliseconds.
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
      [cors, gate = std::move(gate)](const httplib::Request& req, httplib::Response& res) {
        mark_request_start();
        if (is_preflight(req)) {
          answer_preflight(cors, req, res);
          return httplib::Server::HandlerResponse::Handled;
        }
        if (gate && !gate(req, res)) return httplib::Server::HandlerResponse::Handled;
        return httplib::Server::HandlerResponse::Unhandled;
      });
  server.set_post_routing_handler([cors](const httplib::Request& req, httplib::Response& res) {
    add_cors_headers(cors, req, res);
  });
  server.set_logger(log_request);
}

}  // namespace lq::front
