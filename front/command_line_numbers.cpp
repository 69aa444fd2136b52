#include "front/command_line_numbers.hpp"

namespace lq::front {

namespace {

constexpr int64_t kSecondMs = 1000;
constexpr int64_t kMinuteMs = 60 * kSecondMs;
constexpr int64_t kHourMs = 60 * kMinuteMs;
constexpr int64_t kDayMs = 24 * kHourMs;
constexpr int64_t kLongestMs = 3650 * kDayMs;

}  // namespace

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

std::optional<int64_t> parse_duration_ms(const std::string& text) {
  if (text.empty() || text.size() > 12) return std::nullopt;
  size_t digits = 0;
  int64_t count = 0;
  for (; digits < text.size() && text[digits] >= '0' && text[digits] <= '9'; ++digits) {
    count = count * 10 + (text[digits] - '0');
  }
  if (digits == 0) return std::nullopt;
  int64_t unit = kSecondMs;
  if (digits + 1 == text.size()) {
    switch (text[digits]) {
      case 's':
        unit = kSecondMs;
        break;
      case 'm':
        unit = kMinuteMs;
        break;
      case 'h':
        unit = kHourMs;
        break;
      case 'd':
        unit = kDayMs;
        break;
      default:
        return std::nullopt;
    }
  } else if (digits != text.size()) {
    return std::nullopt;
  }
  if (count < 1 || count > kLongestMs / unit) return std::nullopt;
  return count * unit;
}

std::string describe_duration(int64_t ms) {
  struct unit {
    int64_t ms;
    const char* name;
  };
  for (unit u : {unit{kDayMs, "day"}, unit{kHourMs, "hour"}, unit{kMinuteMs, "minute"}}) {
    if (ms % u.ms == 0) {
      const int64_t n = ms / u.ms;
      return std::to_string(n) + " " + u.name + (n == 1 ? "" : "s");
    }
  }
  const int64_t seconds = ms / kSecondMs;
  return std::to_string(seconds) + " second" + (seconds == 1 ? "" : "s");
}

}  // namespace lq::front
