// The entity tag of an account snapshot and the If-None-Match check of GET /api/account: a
// strong validator computed from the exact bytes of the response body, so it changes exactly
// when the body does (RFC 9110 8.8.3, 13.1.2).
#pragma once

#include <string>
#include <string_view>

#include <httplib.h>

namespace lq::service {

/// A strong entity tag, quotes included, e.g. "a3f1...-1c2": two 64-bit FNV-1a variants of the
/// body and its length in hex.
std::string strong_etag(std::string_view body);

/// True when an If-None-Match field value names `etag` (weak comparison, as RFC 9110 13.1.2
/// requires) or is "*". A malformed value matches nothing: the full answer is sent.
bool if_none_match_hits(std::string_view field_value, std::string_view etag);

/// Sets the ETag (and Cache-Control: private, no-cache) of an account answer; when the request's
/// If-None-Match fields name that tag, makes the answer 304 Not Modified without a body and
/// returns true. Otherwise returns false and the caller sends `body` as usual.
bool answer_not_modified(const httplib::Request& req, httplib::Response& res,
                         std::string_view body);

}  // namespace lq::service
