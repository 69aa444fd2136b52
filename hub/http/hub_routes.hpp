// The store hub's HTTP face (docs/hub.md): every request carries the store key once (Store-Key,
// compared in constant time; 401 before routing without it, 400 for two, 429 with Retry-After for
// a client past 10 failures a second) and declares a body as application/json (415), then
//   POST /hub/claims          claim an offer for a basket (201 granted, 200 repeated, 409 refused)
//   POST /hub/claims/spend    the basket was billed with its offer (200; 404 no claim; 409)
//   POST /hub/claims/release  the order was refused or billed without the offer (200; 404; 409)
//   GET  /hub/claims?merchant_id=M&user_id=U   the guest's claims that hold, and their points
//   GET  /hub/health          the hub answers, with its clock and claim TTL
// Framing, caps, deadlines and connection slots are the front's
// (front/http/connection/guarded_server.hpp).
#pragma once

#include <string>

#include <httplib.h>

#include "front/http/cors_policy.hpp"
#include "hub/domain/claim_service.hpp"

namespace lq::hub {

struct hub_context {
  claim_service& claims;
  std::string store_key;
  front::cors_policy cors;  // the origins whose pages may call it (--cors-origin)
};

/// Installs the routes, the store-key gate, the error bodies and the access log on `server`.
/// `context` must outlive the server.
void install_hub_routes(httplib::Server& server, const hub_context& context);

}  // namespace lq::hub
