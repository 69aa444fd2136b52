// What every server behind the hardened front (connection/guarded_server.hpp) answers the same way,
// the loyalty service's and the store hub's: socket options, the error body of every failure that
// no route answers (404, 413, a malformed request), a database failure as 500/503/507, the access
// log, the CORS headers of the origins the operator listed (cors_policy.hpp; a preflight is
// answered before any gate), and an optional gate every request passes before routing (the hub's
// store key).
#pragma once

#include <functional>

#include <httplib.h>

#include "front/http/cors_policy.hpp"
#include "front/store/sqlite.hpp"
#include "lq/qualifier.hpp"

namespace lq::front {

/// Decides before routing: true lets the request on to its route; false means it answered
/// `res` itself (e.g. a 401).
using request_gate_check = std::function<bool(const httplib::Request&, httplib::Response&)>;

/// Installs the socket options, the error and exception handlers, the access log, `cors` (no
/// origin: no CORS header anywhere) and `gate` (none: every request is routed) on `server`.
void install_front_handlers(httplib::Server& server, const cors_policy& cors,
                            request_gate_check gate = {});

/// The answer to a request whose write the database refused (nothing was written): 507 when the
/// disk is full, 503 when the file was replaced, else 500.
error database_failure(const database_error& e);

}  // namespace lq::front
