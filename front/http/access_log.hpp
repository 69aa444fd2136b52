// One access-log line per request, on stderr (default), in a file rotated at 10 MiB (one
// previous file kept as FILE.1), or nowhere:
//   2026-11-24T13:15:00.123Z 127.0.0.1 "POST /api/baskets/qualifying" 200 245 0.8ms
// The query string and headers (credentials) are never logged.
#pragma once

#include <cstddef>
#include <string>

#include <httplib.h>

namespace lq::front {

/// A file's size at which it is rotated (renamed to FILE.1, replacing any older one).
constexpr size_t kAccessLogMaxBytes = size_t{10} << 20;

/// Sends the lines to `where`: "-" (stderr), "off", or a file opened for appending; false (and
/// `problem` set) when the file cannot be opened.
bool open_access_log(const std::string& where, std::string& problem);

/// Remembers when this worker thread started on a request (a pre-routing hook).
void mark_request_start();

/// Writes the line of a finished request (the server's logger hook).
void log_request(const httplib::Request& req, const httplib::Response& res);

}  // namespace lq::front
