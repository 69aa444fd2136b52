// The entity tag of an account snapshot and the If-None-Match test (http/conditional_get answers
// GET /api/account with them): a
// strong validator computed from the exact bytes of the response body, so it changes exactly
// when the body does (RFC 9110 8.8.3, 13.1.2).
#pragma once

#include <string>
#include <string_view>

namespace lq::service {

/// A strong entity tag, quotes included, e.g. "a3f1...-1c2": two 64-bit FNV-1a variants of the
/// body and its length in hex.
std::string strong_etag(std::string_view body);

/// True when an If-None-Match field value names `etag` (weak comparison, as RFC 9110 13.1.2
/// requires) or is "*". A malformed value matches nothing: the full answer is sent.
bool if_none_match_hits(std::string_view field_value, std::string_view etag);

}  // namespace lq::service
