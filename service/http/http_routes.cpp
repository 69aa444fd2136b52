#include "http/http_routes.hpp"

#include <optional>
#include <string>
#include <string_view>

#include "domain/accounts/account_snapshot.hpp"
#include "domain/json_document.hpp"
#include "front/http/front_handlers.hpp"
#include "front/http/http_messages.hpp"
#include "front/service_clock.hpp"
#include "http/conditional_get.hpp"
#include "http/query_filters.hpp"
#include "http/sandbox_routes.hpp"
#include "lq/qualifier.hpp"

namespace lq::service {

namespace {

constexpr const char* kQualifyingPath = "/api/baskets/qualifying";
constexpr const char* kBasketsPath = "/api/baskets";
constexpr const char* kAccountPath = "/api/account";

void send_v1(httplib::Response& res, int status, const std::string& body) {
  front::send_json(res, status, body, kLoyaltyMediaType);
}

// Authentication (401) then version negotiation (406), as API spec 5 and 9 order them.
std::optional<caller> admit(const route_context& context, const httplib::Request& req,
                            httplib::Response& res) {
  result<caller> who = context.auth.authenticate(front::header(req, "Authorization"),
                                                 front::header(req, "Merchant-Key"));
  if (!who) {
    front::send_error(res, who.err());
    return std::nullopt;
  }
  if (!front::accepts_media_type(req, kLoyaltyMediaType)) {
    front::send_error(res,
                      error{406, std::string("the Accept header must be ") + kLoyaltyMediaType});
    return std::nullopt;
  }
  return std::move(who.value());
}

}  // namespace

void install_routes(httplib::Server& server, const route_context& context) {
  front::install_front_handlers(server, context.cors);

  server.Post(kQualifyingPath, [&context](const httplib::Request& req, httplib::Response& res) {
    std::optional<caller> who = admit(context, req, res);
    if (!who) return;
    // The basket's size bound, as at POST /api/baskets (the same basket).
    if (auto too_large = check_basket_body_size(req.body))
      return front::send_error(res, *too_large);
    result<std::shared_ptr<const account_view>> view = context.accounts.get(who->user_id);
    if (!view) return front::send_error(res, view.err());
    // The raw body goes to the engine, whose reader alone judges it: syntax (named with its
    // offset), depth and fields, in the words of the package and the CLI.
    result<std::string> answer = (*view)->engine.qualify_json(req.body, context.clock.now());
    if (!answer) return front::send_error(res, answer.err());
    send_v1(res, 200, answer.value());
  });

  server.Get(kAccountPath, [&context](const httplib::Request& req, httplib::Response& res) {
    std::optional<caller> who = admit(context, req, res);
    if (!who) return;
    result<std::shared_ptr<const account_view>> view = context.accounts.get(who->user_id);
    if (!view) return front::send_error(res, view.err());
    // The account read's parameters narrow the body as the loyalty service does.
    const account_read_query query = account_read_query_of(req.params);
    std::string narrowed_body;
    if (query.narrows()) {
      result<std::string> narrowed =
          build_account_read((*view)->snapshot_json, (*view)->engine, query, context.clock.now());
      if (!narrowed) return front::send_error(res, narrowed.err());
      narrowed_body = std::move(narrowed.value());
    }
    const std::string& body = query.narrows() ? narrowed_body : (*view)->snapshot_json;
    // The service's time of the answer (RFC 9110 6.6.1), on its clock (--now): a client of the
    // loyalty API's account read, which carries no time of its own, takes it as the read's.
    res.set_header("Date", format_http_date(context.clock.now()));
    if (answer_not_modified(req, res, body)) return;
    send_v1(res, 200, body);
  });

  server.Post(kBasketsPath, [&context](const httplib::Request& req, httplib::Response& res) {
    std::optional<caller> who = admit(context, req, res);
    if (!who) return;
    result<basket_outcome> outcome = context.baskets.submit(*who, req.body);
    if (!outcome) return front::send_error(res, outcome.err());
    send_v1(res, outcome->created ? 201 : 200, render_basket(*outcome));
  });

  front::reject_other_methods(server, kQualifyingPath, false, true);
  front::reject_other_methods(server, kBasketsPath, false, true);
  front::reject_other_methods(server, kAccountPath, true, false);

  install_sandbox_routes(server, context.auth, context.sandbox);
}

}  // namespace lq::service
