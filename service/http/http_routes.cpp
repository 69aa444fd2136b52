#include "http/http_routes.hpp"

#include <cstdio>
#include <exception>
#include <optional>
#include <string>
#include <string_view>

#include "domain/accounts/account_snapshot.hpp"
#include "domain/json_document.hpp"
#include "http/access_log.hpp"
#include "http/conditional_get.hpp"
#include "http/http_messages.hpp"
#include "http/query_filters.hpp"
#include "http/sandbox_routes.hpp"
#include "lq/qualifier.hpp"
#include "store/sqlite.hpp"

namespace lq::service {

namespace {

constexpr const char* kQualifyingPath = "/api/baskets/qualifying";
constexpr const char* kBasketsPath = "/api/baskets";
constexpr const char* kAccountPath = "/api/account";

void send_v1(httplib::Response& res, int status, const std::string& body) {
  send_json(res, status, body, kLoyaltyMediaType);
}

// Authentication (401) then version negotiation (406), as API spec 5 and 9 order them.
std::optional<caller> admit(const route_context& context, const httplib::Request& req,
                            httplib::Response& res) {
  result<caller> who =
      context.auth.authenticate(header(req, "Authorization"), header(req, "Merchant-Key"));
  if (!who) {
    send_error(res, who.err());
    return std::nullopt;
  }
  if (!accepts_media_type(req, kLoyaltyMediaType)) {
    send_error(res, error{406, std::string("the Accept header must be ") + kLoyaltyMediaType});
    return std::nullopt;
  }
  return std::move(who.value());
}

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

// The answer to a request whose write the database refused: nothing was written.
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

}  // namespace

void install_routes(httplib::Server& server, const route_context& context) {
  // Connections, framing, body limits and workers are the front layer's (guarded_server.hpp).
  // Small JSON responses: without TCP_NODELAY, Nagle's algorithm meets the client's delayed ACK
  // and every response waits tens of milliseconds.
  server.set_tcp_nodelay(true);
  // SO_REUSEADDR only: httplib's default also sets SO_REUSEPORT, which would let a second
  // service bind the same port and silently share its connections.
  server.set_socket_options([](socket_t sock) {
    int yes = 1;
    setsockopt(sock, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
  });

  server.Post(kQualifyingPath, [&context](const httplib::Request& req, httplib::Response& res) {
    std::optional<caller> who = admit(context, req, res);
    if (!who) return;
    // The basket's size bound, as at POST /api/baskets (the same basket).
    if (auto too_large = check_basket_body_size(req.body)) return send_error(res, *too_large);
    result<std::shared_ptr<const account_view>> view = context.accounts.get(who->user_id);
    if (!view) return send_error(res, view.err());
    // The raw body goes to the engine, whose reader alone judges it: syntax (named with its
    // offset), depth and fields, in the words of the package and the CLI.
    result<std::string> answer = (*view)->engine.qualify_json(req.body, context.clock.now());
    if (!answer) return send_error(res, answer.err());
    send_v1(res, 200, answer.value());
  });

  server.Get(kAccountPath, [&context](const httplib::Request& req, httplib::Response& res) {
    std::optional<caller> who = admit(context, req, res);
    if (!who) return;
    result<std::shared_ptr<const account_view>> view = context.accounts.get(who->user_id);
    if (!view) return send_error(res, view.err());
    // The account read's parameters narrow the body as the loyalty service does.
    const account_read_query query = account_read_query_of(req.params);
    std::string narrowed_body;
    if (query.narrows()) {
      result<std::string> narrowed =
          build_account_read((*view)->snapshot_json, (*view)->engine, query, context.clock.now());
      if (!narrowed) return send_error(res, narrowed.err());
      narrowed_body = std::move(narrowed.value());
    }
    const std::string& body = query.narrows() ? narrowed_body : (*view)->snapshot_json;
    if (answer_not_modified(req, res, body)) return;
    send_v1(res, 200, body);
  });

  server.Post(kBasketsPath, [&context](const httplib::Request& req, httplib::Response& res) {
    std::optional<caller> who = admit(context, req, res);
    if (!who) return;
    result<basket_outcome> outcome = context.baskets.submit(*who, req.body);
    if (!outcome) return send_error(res, outcome.err());
    send_v1(res, outcome->created ? 201 : 200, render_basket(*outcome));
  });

  reject_other_methods(server, kQualifyingPath, false, true);
  reject_other_methods(server, kBasketsPath, false, true);
  reject_other_methods(server, kAccountPath, true, false);

  install_sandbox_routes(server, context.auth, context.sandbox);

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

  server.set_pre_routing_handler([](const httplib::Request&, httplib::Response&) {
    mark_request_start();
    return httplib::Server::HandlerResponse::Unhandled;
  });
  server.set_logger(log_request);
}

}  // namespace lq::service
