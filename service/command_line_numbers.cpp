#include "command_line_numbers.hpp"

namespace lq::service {

std::optional<int> parse_port(const std::string& text) {
  if (text.empty() || text.size() > 5) return std::nullopt;
  int port = 0;
  for (char c : text) {
    if (c < '0' || c > '9') return std::nullopt;
    port = port * 10 + (c - '0');
  }
  if (port > 65535) return std::nullopt;
  return port;
}

std::optional<int64_t> parse_seconds_ms(const std::string& text) {
  if (text.empty() || text.size() > 12) return std::nullopt;
  int64_t whole = 0;
  size_t i = 0;
  for (; i < text.size() && text[i] != '.'; ++i) {
    if (text[i] < '0' || text[i] > '9') return std::nullopt;
    whole = whole * 10 + (text[i] - '0');
  }
  if (i == 0) return std::nullopt;
  int64_t millis = 0;
  int digits = 0;
  if (i < text.size()) {
    ++i;
    if (i == text.size()) return std::nullopt;
    for (; i < text.size(); ++i, ++digits) {
      if (text[i] < '0' || text[i] > '9') return std::nullopt;
      if (digits < 3) millis = millis * 10 + (text[i] - '0');
    }
  }
  for (; digits < 3; ++digits) millis *= 10;
  return whole * 1000 + millis;
}

}  // namespace lq::service
