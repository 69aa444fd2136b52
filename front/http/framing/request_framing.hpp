// Strict HTTP/1.1 request framing, checked on the bytes as they arrive and before httplib (or
// authentication) sees anything: the head's size, line syntax and header count, one valid
// Content-Length or chunked (never both), no Content-Encoding, and a body limit on the bytes
// actually received, chunked included. A request that passes is rewritten into one canonical
// form (Content-Length framing, the body decoded) for httplib to parse. A chunked body is
// chunked_decoder.hpp's.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

#include "lq/result.hpp"

namespace lq::front {

struct framing_limits {
  size_t max_body_bytes = size_t{1} << 20;    // 413
  size_t max_request_line_bytes = 8192;       // 414
  size_t max_head_bytes = size_t{64} * 1024;  // 431 (request line, headers and chunked trailers)
  size_t max_header_count = 100;              // 431
};

/// A request head that passed the checks.
struct request_head {
  std::string method;
  std::string target;
  bool http10 = false;
  std::string canonical_head;  // request line and headers without framing ones, no final CRLF
  bool chunked = false;
  size_t content_length = 0;  // when not chunked
  bool expects_continue = false;
};

/// Where the head ends in `buffer` (the index after its empty line), nullopt while incomplete;
/// an error (414, 431) when what arrived already breaks a limit.
result<std::optional<size_t>> find_head_end(std::string_view buffer, const framing_limits& limits);

/// Checks a complete head (up to its empty line): 400 (syntax, conflicting or invalid
/// Content-Length, Content-Length with chunked), 413 (declared body too large), 415
/// (Content-Encoding), 431 (header count); a transfer coding other than chunked is 400. Messages
/// name what is wrong.
result<request_head> parse_request_head(std::string_view head, const framing_limits& limits);

/// 413: a body (declared, or decoded so far) larger than the limit.
error body_too_large(const framing_limits& limits);

}  // namespace lq::front
