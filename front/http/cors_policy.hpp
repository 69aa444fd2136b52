// The origins whose pages may call a server from a browser (--cors-origin, repeatable), shared by
// the loyalty service and the store hub: an exact origin each (scheme://host[:port]), never `*`,
// since every request of both APIs carries a secret (an access token, a merchant key, a store
// key). A listed origin's preflight is granted with the methods and headers the APIs use; its
// answers say which headers a page may read (Date, ETag, Retry-After). An unlisted origin gets no
// CORS header at all, so the browser keeps its page from reading anything. docs/service.md, "CORS".
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "lq/result.hpp"

namespace lq::front {

/// A response header: name and value.
using header_field = std::pair<std::string, std::string>;

/// `text` as a browser sends it in Origin (scheme and host in lower case, no default port, no
/// trailing slash), or an error (code 2) naming --cors-origin and saying what an origin is.
/// Refused: `*`, `null`, a scheme other than http and https, user info, a path, a query.
result<std::string> canonical_cors_origin(std::string_view text);

class cors_policy {
 public:
  /// Adds an origin given on the command line; an error (code 2) as canonical_cors_origin's.
  result<bool> allow(std::string_view text);

  /// True when no origin is listed: no answer carries a CORS header.
  bool empty() const { return origins_.empty(); }

  /// True when `origin` (a request's Origin header, as sent) is listed.
  bool allows(std::string_view origin) const;

  const std::vector<std::string>& origins() const { return origins_; }

 private:
  std::vector<std::string> origins_;
};

/// The headers that grant a listed `origin`'s preflight: its methods, its request headers, for
/// 10 minutes; `private_network`: the preflight asked for it (Access-Control-Request-Private-
/// Network: true), granted to a listed origin as any other request.
std::vector<header_field> preflight_headers(std::string_view origin, bool private_network);

/// The headers every answer to a listed `origin` carries: the origin and the readable headers.
std::vector<header_field> allowed_origin_headers(std::string_view origin);

}  // namespace lq::front
