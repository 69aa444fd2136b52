// The HTTP face: routes of the loyalty API (API spec 4.1, 5, 7, 9), the consumer API's sandbox
// operations (sandbox_routes.hpp) and the error bodies.
#pragma once

#include <httplib.h>

#include "domain/accounts/account_cache.hpp"
#include "domain/baskets/baskets.hpp"
#include "domain/sandbox/sandbox.hpp"
#include "front/http/cors_policy.hpp"
#include "front/service_clock.hpp"
#include "http/auth.hpp"

namespace lq::service {

/// The media type that selects version 1 of the loyalty API.
constexpr const char* kLoyaltyMediaType = "application/vnd.service-v1+json";

struct route_context {
  const credentials& auth;
  account_cache& accounts;
  basket_service& baskets;
  const front::service_clock& clock;
  sandbox_service* sandbox;        // nullptr in production mode: the sandbox operations are 404
  const front::cors_policy& cors;  // the origins whose pages may call it (--cors-origin)
};

/// Installs the routes, the size limit, the error bodies and the access log on `server`.
/// `context` must outlive the server.
void install_routes(httplib::Server& server, const route_context& context);

}  // namespace lq::service
