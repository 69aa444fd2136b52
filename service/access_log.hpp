// One access-log line per request on stderr:
//   2026-11-24T13:15:00.123Z 127.0.0.1 "POST /api/baskets/qualifying" 200 245 0.8ms
// The query string and headers (credentials) are never logged.
#pragma once

#include <httplib.h>

namespace lq::service {

/// Remembers when this worker thread started on a request (a pre-routing hook).
void mark_request_start();

/// Writes the line of a finished request (the server's logger hook).
void log_request(const httplib::Request& req, const httplib::Response& res);

}  // namespace lq::service
