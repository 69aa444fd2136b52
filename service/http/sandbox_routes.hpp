// The HTTP face of the consumer API's sandbox operations (API spec 4.2-4.5, 5, 9), served on the
// loyalty API's port: `Authorization: Bearer`, `X-ClientId`, `Accept-Version: v4.0` and
// `Accept: application/json`. In production mode every one of them is 404.
#pragma once

#include <httplib.h>

#include "domain/sandbox/sandbox.hpp"
#include "http/auth.hpp"

namespace lq::service {

/// The consumer API version the sandbox operations serve.
constexpr const char* kConsumerApiVersion = "v4.0";

/// Installs the sandbox routes; `sandbox` is nullptr in production mode (404 for each).
/// `auth` and `sandbox` must outlive the server.
void install_sandbox_routes(httplib::Server& server, const credentials& auth,
                            sandbox_service* sandbox);

}  // namespace lq::service
