#include "front/http/framing/chunked_decoder.hpp"

#include <algorithm>

#include "front/http/framing/field_syntax.hpp"

namespace lq::front {

using field_syntax::lower;
using field_syntax::trim;

result<bool> chunked_decoder::feed(std::string_view input, size_t& consumed) {
  while (consumed < input.size() || stage_ == stage::done) {
    switch (stage_) {
      case stage::done:
        return true;
      case stage::size_line: {
        const size_t lf = input.find('\n', consumed);
        if (lf == std::string_view::npos) {
          if (input.size() - consumed > 1024) return error{400, "a chunk size line is too long"};
          return false;
        }
        std::string_view line = input.substr(consumed, lf - consumed);
        if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
        const std::string_view digits = trim(line.substr(0, line.find(';')));
        if (digits.empty() || digits.size() > 8) {
          return error{400, "a chunk size is not a hexadecimal number of at most 8 digits"};
        }
        size_t size = 0;
        for (char c : digits) {
          int digit = -1;
          if (c >= '0' && c <= '9') digit = c - '0';
          if (lower(c) >= 'a' && lower(c) <= 'f') digit = lower(c) - 'a' + 10;
          if (digit < 0) return error{400, "a chunk size is not a hexadecimal number"};
          size = size * 16 + static_cast<size_t>(digit);
        }
        trailer_bytes_ += line.size() + 2;
        if (trailer_bytes_ > limits_.max_head_bytes) {
          return error{400, "the chunked body's framing is larger than " +
                                std::to_string(limits_.max_head_bytes) + " bytes"};
        }
        consumed = lf + 1;
        if (size > limits_.max_body_bytes - body_.size()) return body_too_large(limits_);
        remaining_ = size;
        stage_ = size == 0 ? stage::trailer : stage::data;
        break;
      }
      case stage::data: {
        const size_t take = std::min(remaining_, input.size() - consumed);
        body_.append(input.substr(consumed, take));
        consumed += take;
        remaining_ -= take;
        if (remaining_ == 0) stage_ = stage::data_end;
        break;
      }
      case stage::data_end: {
        if (input[consumed] == '\n') {
          consumed += 1;
        } else if (input[consumed] == '\r') {
          if (consumed + 1 >= input.size()) return false;
          if (input[consumed + 1] != '\n') return error{400, "a chunk is not followed by CRLF"};
          consumed += 2;
        } else {
          return error{400, "a chunk is longer than its size"};
        }
        stage_ = stage::size_line;
        break;
      }
      case stage::trailer: {
        const size_t lf = input.find('\n', consumed);
        if (lf == std::string_view::npos) {
          if (input.size() - consumed > limits_.max_head_bytes) {
            return error{431, "the chunked trailer is too large"};
          }
          return false;
        }
        std::string_view line = input.substr(consumed, lf - consumed);
        if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
        consumed = lf + 1;
        if (line.empty()) {
          stage_ = stage::done;
          return true;
        }
        trailer_bytes_ += line.size() + 2;
        if (++trailer_count_ > limits_.max_header_count ||
            trailer_bytes_ > limits_.max_head_bytes) {
          return error{431, "the chunked trailer is too large"};
        }
        if (line.find(':') == std::string_view::npos) {
          return error{400, "a chunked trailer line has no colon"};
        }
        break;  // trailer fields are read and dropped
      }
    }
  }
  return stage_ == stage::done;
}

}  // namespace lq::front
