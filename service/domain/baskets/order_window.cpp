#include "domain/baskets/order_window.hpp"

#include "domain/service_clock.hpp"

namespace lq::service {

namespace {

constexpr int64_t kSecondMs = 1000;
constexpr int64_t kMinuteMs = 60 * kSecondMs;
constexpr int64_t kHourMs = 60 * kMinuteMs;
constexpr int64_t kDayMs = 24 * kHourMs;
constexpr int64_t kLongestMs = 3650 * kDayMs;

int64_t to_ms(instant t) {
  return t.seconds * 1000 + t.nanos / 1'000'000;
}

}  // namespace

std::optional<error> check_order_time(const order_window& window, instant order_time, instant now) {
  // Instants the engine reads lie within years 0000-9999, so milliseconds fit in int64.
  const int64_t order_ms = to_ms(order_time);
  const int64_t now_ms = to_ms(now);
  const std::string shown = format_rfc3339(order_time);
  const std::string clock = format_rfc3339(now);
  if (order_ms < now_ms - window.max_age_ms) {
    return error{400, "order_timestamp " + shown + " is more than " +
                          describe_duration(window.max_age_ms) + " before the service's clock (" +
                          clock + "); a billed order must be at most that old"};
  }
  if (order_ms > now_ms + window.max_lead_ms) {
    return error{400, "order_timestamp " + shown + " is more than " +
                          describe_duration(window.max_lead_ms) + " after the service's clock (" +
                          clock + ")"};
  }
  return std::nullopt;
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

}  // namespace lq::service
