// The conditional GET of an account answer (RFC 9110 13.1.2): its ETag and Cache-Control, and 304
// Not Modified when the request's If-None-Match names that tag.
#pragma once

#include <string_view>

#include <httplib.h>

namespace lq::service {

/// Sets the ETag (and Cache-Control: private, no-cache) of an account answer; when the request's
/// If-None-Match fields name that tag, makes the answer 304 Not Modified without a body and
/// returns true. Otherwise returns false and the caller sends `body` as usual.
bool answer_not_modified(const httplib::Request& req, httplib::Response& res,
                         std::string_view body);

}  // namespace lq::service
