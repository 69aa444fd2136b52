#include "front/http/cors_policy.hpp"

#include <algorithm>
#include <cctype>

namespace lq::front {

namespace {

// Every header a page of the loyalty API, the sandbox operations or the store hub sends.
constexpr const char* kAllowedHeaders =
    "Authorization, Merchant-Key, Accept, Content-Type, If-None-Match, Store-Key, Accept-Version, "
    "X-ClientId";
constexpr const char* kAllowedMethods = "GET, POST";
// What a page may read of an answer besides the CORS-safelisted headers: the account's validator
// (a conditional refresh) and how long to wait after a 429 or 503.
constexpr const char* kExposedHeaders = "Date, ETag, Retry-After";
// Browsers keep a granted preflight this long (Chromium caps it at 2 hours).
constexpr const char* kPreflightMaxAge = "600";

error bad_origin(std::string_view text) {
  if (text == "*") {
    return error{2,
                 "--cors-origin * is refused: every request of this server carries a secret (an "
                 "access token, a merchant key or a store key), so name each page's origin, e.g. "
                 "--cors-origin http://localhost:5173"};
  }
  std::string shown(text.substr(0, 200));
  return error{2,
               "--cors-origin must be an origin such as http://localhost:5173: http or https, a "
               "host, an optional port, nothing after (got \"" +
                   shown + "\")"};
}

std::string lower(std::string_view text) {
  std::string out(text);
  std::transform(out.begin(), out.end(), out.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return out;
}

bool is_host_char(unsigned char c) {
  return std::isalnum(c) != 0 || c == '-' || c == '.';
}

}  // namespace

result<std::string> canonical_cors_origin(std::string_view text) {
  const std::string lowered = lower(text);
  std::string_view rest = lowered;
  std::string scheme;
  for (const char* candidate : {"http", "https"}) {
    const std::string prefix = std::string(candidate) + "://";
    if (rest.substr(0, prefix.size()) == prefix) {
      scheme = candidate;
      rest.remove_prefix(prefix.size());
    }
  }
  if (scheme.empty()) return bad_origin(text);
  // One trailing slash is the origin itself (http://localhost:5173/); anything more is a path.
  if (!rest.empty() && rest.back() == '/') rest.remove_suffix(1);

  std::string_view host;
  std::string_view port;
  if (!rest.empty() && rest.front() == '[') {
    const size_t close = rest.find(']');
    if (close == std::string_view::npos || close < 3) return bad_origin(text);
    host = rest.substr(0, close + 1);
    for (unsigned char c : host.substr(1, host.size() - 2)) {
      if (std::isxdigit(c) == 0 && c != ':' && c != '.') return bad_origin(text);
    }
    rest.remove_prefix(close + 1);
    if (!rest.empty() && rest.front() != ':') return bad_origin(text);
  } else {
    host = rest.substr(0, rest.find(':'));
    if (host.empty() || !std::all_of(host.begin(), host.end(), is_host_char)) {
      return bad_origin(text);
    }
    rest.remove_prefix(host.size());
  }
  if (!rest.empty()) {
    port = rest.substr(1);  // after ':'
    if (port.empty() || port.size() > 5 ||
        !std::all_of(port.begin(), port.end(), [](unsigned char c) { return std::isdigit(c); })) {
      return bad_origin(text);
    }
  }
  std::string origin = scheme + "://" + std::string(host);
  if (!port.empty()) {
    const long number = std::stol(std::string(port));
    if (number > 65535) return bad_origin(text);
    const bool default_port =
        (scheme == "http" && number == 80) || (scheme == "https" && number == 443);
    if (!default_port) origin += ":" + std::to_string(number);
  }
  return origin;
}

result<bool> cors_policy::allow(std::string_view text) {
  result<std::string> origin = canonical_cors_origin(text);
  if (!origin) return origin.err();
  if (std::find(origins_.begin(), origins_.end(), *origin) == origins_.end()) {
    origins_.push_back(std::move(origin.value()));
  }
  return true;
}

bool cors_policy::allows(std::string_view origin) const {
  return std::find(origins_.begin(), origins_.end(), origin) != origins_.end();
}

std::vector<header_field> preflight_headers(std::string_view origin, bool private_network) {
  std::vector<header_field> headers = {
      {"Access-Control-Allow-Origin", std::string(origin)},
      {"Access-Control-Allow-Methods", kAllowedMethods},
      {"Access-Control-Allow-Headers", kAllowedHeaders},
      {"Access-Control-Max-Age", kPreflightMaxAge},
  };
  if (private_network) headers.emplace_back("Access-Control-Allow-Private-Network", "true");
  return headers;
}

std::vector<header_field> allowed_origin_headers(std::string_view origin) {
  return {
      {"Access-Control-Allow-Origin", std::string(origin)},
      {"Access-Control-Expose-Headers", kExposedHeaders},
  };
}

}  // namespace lq::front
