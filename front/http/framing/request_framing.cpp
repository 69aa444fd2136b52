#include "front/http/framing/request_framing.hpp"

#include <vector>

#include "front/http/framing/field_syntax.hpp"

namespace lq::front {

using field_syntax::is_token_char;
using field_syntax::same_name;
using field_syntax::trim;

namespace {

// Splits at LF, dropping one CR before it; a CR anywhere else is an error.
result<std::vector<std::string_view>> split_lines(std::string_view head) {
  std::vector<std::string_view> lines;
  size_t start = 0;
  while (start < head.size()) {
    size_t end = head.find('\n', start);
    if (end == std::string_view::npos) end = head.size();
    std::string_view line = head.substr(start, end - start);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (line.find('\r') != std::string_view::npos) {
      return error{400, "line " + std::to_string(lines.size() + 1) +
                            " of the request head holds a bare carriage return"};
    }
    lines.push_back(line);
    start = end + 1;
  }
  return lines;
}

// A printable rendering of a header value for messages (at most 40 characters).
std::string quoted(std::string_view value) {
  std::string out = "\"";
  for (unsigned char c : value.substr(0, 40)) {
    out += (c >= 0x20 && c < 0x7f && c != '"') ? static_cast<char>(c) : '?';
  }
  if (value.size() > 40) out += "...";
  return out + "\"";
}

std::optional<size_t> parse_length(std::string_view text) {
  if (text.empty() || text.size() > 15) return std::nullopt;
  size_t value = 0;
  for (char c : text) {
    if (c < '0' || c > '9') return std::nullopt;
    value = value * 10 + static_cast<size_t>(c - '0');
  }
  return value;
}

}  // namespace

error body_too_large(const framing_limits& limits) {
  return error{413, "request body is larger than 1 MiB (" + std::to_string(limits.max_body_bytes) +
                        " bytes)"};
}

result<std::optional<size_t>> find_head_end(std::string_view buffer, const framing_limits& limits) {
  // Blank lines before a request line are tolerated (RFC 9112 2.2) only as CRLF pairs at the start.
  const size_t first_line_end = buffer.find('\n');
  const size_t line_bytes =
      first_line_end == std::string_view::npos ? buffer.size() : first_line_end;
  if (line_bytes > limits.max_request_line_bytes) {
    return error{414, "the request line is longer than " +
                          std::to_string(limits.max_request_line_bytes) + " bytes"};
  }
  size_t search = 0;
  while (true) {
    const size_t lf = buffer.find('\n', search);
    if (lf == std::string_view::npos) break;
    const size_t next = lf + 1;
    if (next < buffer.size() && buffer[next] == '\n') return std::optional<size_t>(next + 1);
    if (next + 1 < buffer.size() && buffer[next] == '\r' && buffer[next + 1] == '\n') {
      return std::optional<size_t>(next + 2);
    }
    search = next;
    if (next > limits.max_head_bytes) break;
  }
  if (buffer.size() > limits.max_head_bytes) {
    return error{
        431, "the request head is larger than " + std::to_string(limits.max_head_bytes) + " bytes"};
  }
  return std::optional<size_t>();
}

result<request_head> parse_request_head(std::string_view head, const framing_limits& limits) {
  if (head.size() > limits.max_head_bytes) {
    return error{
        431, "the request head is larger than " + std::to_string(limits.max_head_bytes) + " bytes"};
  }
  result<std::vector<std::string_view>> split = split_lines(head);
  if (!split) return split.err();
  std::vector<std::string_view>& lines = *split;
  while (!lines.empty() && lines.back().empty()) lines.pop_back();
  if (lines.empty()) return error{400, "the request line is missing"};

  request_head out;
  const std::string_view line = lines.front();
  if (line.size() > limits.max_request_line_bytes) {
    return error{414, "the request line is longer than " +
                          std::to_string(limits.max_request_line_bytes) + " bytes"};
  }
  const size_t first_space = line.find(' ');
  const size_t last_space = line.rfind(' ');
  if (first_space == std::string_view::npos || first_space == last_space) {
    return error{400, "the request line must be METHOD TARGET HTTP/1.1"};
  }
  const std::string_view method = line.substr(0, first_space);
  const std::string_view target = line.substr(first_space + 1, last_space - first_space - 1);
  const std::string_view version = line.substr(last_space + 1);
  if (method.empty()) return error{400, "the request line has no method"};
  for (unsigned char c : method) {
    if (!is_token_char(c)) return error{400, "the request method holds an invalid character"};
  }
  if (target.empty()) return error{400, "the request target is empty"};
  for (unsigned char c : target) {
    if (c <= 0x20 || c == 0x7f) {
      return error{400, "the request target holds a space or control character"};
    }
  }
  if (version == "HTTP/1.0") {
    out.http10 = true;
  } else if (version != "HTTP/1.1") {
    return error{400,
                 "the request line must end with HTTP/1.1 or HTTP/1.0, not " + quoted(version)};
  }
  out.method = std::string(method);
  out.target = std::string(target);
  out.canonical_head = std::string(line);

  if (lines.size() - 1 > limits.max_header_count) {
    return error{431, "the request has more than " + std::to_string(limits.max_header_count) +
                          " header fields"};
  }
  std::optional<size_t> content_length;
  int transfer_encodings = 0;
  for (size_t i = 1; i < lines.size(); ++i) {
    const std::string_view field = lines[i];
    const std::string where = "header line " + std::to_string(i);
    if (field.front() == ' ' || field.front() == '\t') {
      return error{400, where + " is folded (starts with white space)"};
    }
    const size_t colon = field.find(':');
    if (colon == std::string_view::npos) return error{400, where + " has no colon"};
    const std::string_view name = field.substr(0, colon);
    if (name.empty()) return error{400, where + " has no field name"};
    for (unsigned char c : name) {
      if (!is_token_char(c)) {
        return error{400, where + " has an invalid field name " + quoted(name) +
                              " (white space before the colon?)"};
      }
    }
    const std::string_view value = trim(field.substr(colon + 1));
    for (unsigned char c : value) {
      if ((c < 0x20 && c != '\t') || c == 0x7f) {
        return error{400, std::string(name) + " holds a control character"};
      }
    }
    if (same_name(name, "Content-Length")) {
      // A list of equal values ("5, 5") is one value; anything else is refused.
      std::string_view rest = value;
      do {
        const size_t comma = rest.find(',');
        const std::string_view item = trim(rest.substr(0, comma));
        rest = comma == std::string_view::npos ? std::string_view() : rest.substr(comma + 1);
        const std::optional<size_t> length = parse_length(item);
        if (!length) {
          return error{400,
                       "Content-Length " + quoted(value) + " is not a decimal number of bytes"};
        }
        if (content_length && *content_length != *length) {
          return error{400, "the request has conflicting Content-Length values"};
        }
        content_length = length;
      } while (!rest.empty());
      continue;
    }
    if (same_name(name, "Transfer-Encoding")) {
      ++transfer_encodings;
      if (!same_name(value, "chunked")) {
        return error{400,
                     "Transfer-Encoding " + quoted(value) + " is not supported (only chunked is)"};
      }
      out.chunked = true;
      continue;
    }
    if (same_name(name, "Content-Encoding")) {
      if (!same_name(value, "identity")) {
        return error{415, "Content-Encoding " + quoted(value) +
                              " is not supported: send the body uncompressed"};
      }
      continue;
    }
    if (same_name(name, "Expect")) {
      if (same_name(value, "100-continue")) out.expects_continue = true;
      continue;
    }
    if (same_name(name, "Trailer")) continue;
    out.canonical_head += "\r\n";
    out.canonical_head += field.substr(0, colon);
    out.canonical_head += ": ";
    out.canonical_head += value;
  }
  if (transfer_encodings > 1) return error{400, "the request has more than one Transfer-Encoding"};
  if (out.chunked && content_length) {
    return error{400, "the request has both Content-Length and Transfer-Encoding: chunked"};
  }
  if (out.chunked && out.http10) return error{400, "HTTP/1.0 has no chunked transfer coding"};
  out.content_length = content_length.value_or(0);
  if (out.content_length > limits.max_body_bytes) return body_too_large(limits);
  return out;
}

}  // namespace lq::front
