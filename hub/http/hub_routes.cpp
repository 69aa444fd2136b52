#include "hub/http/hub_routes.hpp"

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "front/http/constant_time.hpp"
#include "front/http/failure_brake.hpp"
#include "front/http/front_handlers.hpp"
#include "front/http/http_messages.hpp"
#include "front/http/json_media_type.hpp"
#include "front/http/peer_address.hpp"
#include "hub/domain/claim_body.hpp"
#include "hub/domain/claim_json.hpp"
#include "lq/render.hpp"

namespace lq::hub {

namespace {

constexpr const char* kClaimsPath = "/hub/claims";
constexpr const char* kSpendPath = "/hub/claims/spend";
constexpr const char* kReleasePath = "/hub/claims/release";
constexpr const char* kHealthPath = "/hub/health";
constexpr const char* kJson = "application/json";

void send_error(httplib::Response& res, const error& e) {
  res.status = e.code;
  if (e.code == 401) res.set_header("WWW-Authenticate", "Store-Key");
  res.set_content(render_error(e), kJson);
}

// A request without the right key: 401, or 429 for a client past its failures a second.
void refuse_key(front::failure_brake& brake, const httplib::Request& req, httplib::Response& res) {
  const std::string client = front::client_of_address(req.remote_addr);
  const int64_t now = std::chrono::duration_cast<std::chrono::milliseconds>(
                          std::chrono::steady_clock::now().time_since_epoch())
                          .count();
  const std::optional<int> wait = brake.fail(client, now);
  if (!wait) return send_error(res, error{401, "the Store-Key header is missing or invalid"});
  res.set_header("Retry-After", std::to_string(*wait));
  send_error(res, error{429, "more than " + std::to_string(brake.limits().failures_per_second) +
                                 " requests a second without the right Store-Key from this "
                                 "client (" +
                                 client + "): retry after " + std::to_string(*wait) + " s"});
}

// The store key, before routing: a request without it learns nothing, not even which paths exist.
// A client that keeps failing is braked (429), never one that brings the key; then a body must
// be declared JSON (415), so that a page of another site cannot send one without a preflight.
bool admit(const std::string& store_key, front::failure_brake& brake, const httplib::Request& req,
           httplib::Response& res) {
  const size_t keys = req.get_header_value_count("Store-Key");
  if (keys > 1) {
    send_error(res, error{400, "the Store-Key header must be sent once (got " +
                                   std::to_string(keys) + ")"});
    return false;
  }
  const std::optional<std::string_view> presented = front::header(req, "Store-Key");
  if (!presented || !front::constant_time_equal(*presented, store_key)) {
    refuse_key(brake, req, res);
    return false;
  }
  // The body is not read yet (routing reads it): the front gives every body a Content-Length.
  if (req.get_header_value<uint64_t>("Content-Length") > 0) {
    std::vector<std::string_view> content_types;
    const auto [first, last] = req.headers.equal_range("Content-Type");
    for (auto it = first; it != last; ++it) content_types.emplace_back(it->second);
    if (std::optional<error> problem = front::json_body_problem(content_types)) {
      send_error(res, *problem);
      return false;
    }
  }
  return true;
}

// A points product's position with its own claim counted, while the claim holds.
std::optional<points_position> with_own(const std::optional<points_position>& position,
                                        const claim& c, int64_t now) {
  if (!position) return position;
  points_position counted = *position;
  if (c.holds_at(now) &&
      !(c.state == claim_state::spent && c.billed_at_ms.value_or(0) <= counted.newest.as_of_ms)) {
    counted.held += c.offer.points;
  }
  return counted;
}

void settle_route(httplib::Server& server, const char* path, settlement how,
                  const hub_context& context) {
  server.Post(path, [&context, how](const httplib::Request& req, httplib::Response& res) {
    result<settle_body> body = read_settle_body(req.body, how == settlement::spend);
    if (!body) return send_error(res, body.err());
    if (body->billed_at_ms) {
      const std::optional<error> ahead =
          service_time_problem("billed_at", *body->billed_at_ms, context.claims.now_ms());
      if (ahead) return send_error(res, *ahead);
    }
    const std::optional<settle_decision> decision =
        context.claims.settle(body->basket, how, body->billed_at_ms);
    const int64_t now = context.claims.now_ms();
    if (!decision) {
      return send_error(
          res, error{404, "no claim for basket " + body->basket.basket_id + " of user " +
                              body->basket.user_id + " of merchant " + body->basket.merchant_id});
    }
    if (decision->what == settle_decision::outcome::invalid) {
      return send_error(res, *decision->problem);
    }
    if (decision->what == settle_decision::outcome::refused) {
      return front::send_json(res, 409, render_settle_refusal(*decision, now), kJson);
    }
    front::send_json(res, 200, render_claim_answer(decision->answer, std::nullopt, now), kJson);
  });
}

}  // namespace

void install_hub_routes(httplib::Server& server, const hub_context& context) {
  auto brake = std::make_shared<front::failure_brake>();
  front::install_front_handlers(
      server, context.cors, [&context, brake](const httplib::Request& req, httplib::Response& res) {
        return admit(context.store_key, *brake, req, res);
      });

  server.Post(kClaimsPath, [&context](const httplib::Request& req, httplib::Response& res) {
    result<claim_request> request = read_claim_body(req.body);
    if (!request) return send_error(res, request.err());
    if (request->balance) {
      const std::optional<error> ahead = service_time_problem(
          "balance_as_of", request->balance->as_of_ms, context.claims.now_ms());
      if (ahead) return send_error(res, *ahead);
    }
    const claim_decision decision = context.claims.claim(*request);
    const int64_t now = context.claims.now_ms();
    if (decision.what == claim_decision::outcome::refused) {
      return front::send_json(res, 409, render_claim_refusal(*request, decision, now), kJson);
    }
    const claim& answer = *decision.answer;
    const int status = decision.what == claim_decision::outcome::granted ? 201 : 200;
    front::send_json(res, status,
                     render_claim_answer(answer, with_own(decision.points, answer, now), now),
                     kJson);
  });

  server.Get(kClaimsPath, [&context](const httplib::Request& req, httplib::Response& res) {
    guest_key guest;
    for (auto [name, field] :
         {std::pair{"merchant_id", &guest.merchant_id}, std::pair{"user_id", &guest.user_id}}) {
      if (!req.has_param(name)) {
        return send_error(res,
                          error{400, std::string("the query parameter ") + name + " is required"});
      }
      *field = req.get_param_value(name);
      if (std::optional<error> bad = check_id(name, *field)) return send_error(res, *bad);
    }
    const guest_claims view = context.claims.guest(guest);
    front::send_json(res, 200, render_guest_claims(guest, view, context.claims.now_ms()), kJson);
  });

  settle_route(server, kSpendPath, settlement::spend, context);
  settle_route(server, kReleasePath, settlement::release, context);

  server.Get(kHealthPath, [&context](const httplib::Request&, httplib::Response& res) {
    const int64_t now = context.claims.now_ms();
    front::send_json(res, 200,
                     "{\"status\":\"ok\",\"now\":\"" + rfc3339_of_ms(now) + "\",\"claim_ttl_ms\":" +
                         std::to_string(context.claims.default_ttl_ms()) + "}",
                     kJson);
  });

  front::reject_other_methods(server, kClaimsPath, true, true);
  front::reject_other_methods(server, kSpendPath, false, true);
  front::reject_other_methods(server, kReleasePath, false, true);
  front::reject_other_methods(server, kHealthPath, true, false);
}

}  // namespace lq::hub
