// A chunked request body (RFC 9112 7.1) decoded as its bytes arrive, under the request framing's
// limits (request_framing.hpp): the body limit on decoded bytes, the head limit on chunk lines
// and trailers.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "front/http/framing/request_framing.hpp"
#include "lq/result.hpp"

namespace lq::front {

/// Incremental chunked decoding with the body limit on decoded bytes and the head limit on
/// chunk lines and trailers.
class chunked_decoder {
 public:
  explicit chunked_decoder(const framing_limits& limits) : limits_(limits) {}

  /// Consumes what it can of `input` from `consumed` on (advancing it); true when the body is
  /// complete, false when more bytes are needed; an error (400, 413) on a bad or too large body.
  result<bool> feed(std::string_view input, size_t& consumed);
  const std::string& body() const { return body_; }

 private:
  enum class stage { size_line, data, data_end, trailer, done };
  const framing_limits& limits_;
  stage stage_ = stage::size_line;
  size_t remaining_ = 0;
  size_t trailer_bytes_ = 0;
  size_t trailer_count_ = 0;
  std::string body_;
};

}  // namespace lq::front
