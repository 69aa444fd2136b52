#include "lq/time/instant.hpp"

#include <cmath>
#include <cstdio>

#include "lq/time/civil_time.hpp"

namespace lq {

namespace {

// Reads exactly `width` digits at `pos`.
bool read_digits(std::string_view s, size_t pos, size_t width, int& out) {
  if (pos + width > s.size()) return false;
  int v = 0;
  for (size_t i = pos; i < pos + width; ++i) {
    if (s[i] < '0' || s[i] > '9') return false;
    v = v * 10 + (s[i] - '0');
  }
  out = v;
  return true;
}

// `YYYY-MM-DDTHH:MM:SS`, then `fraction` (`.` and digits, or empty), then `Z`.
std::string rfc3339_text(int64_t seconds, const char* fraction) {
  const civil_time c = civil_from_seconds(seconds);
  char text[48];
  std::snprintf(text, sizeof text, "%04lld-%02d-%02dT%02d:%02d:%02d%sZ",
                static_cast<long long>(c.year), c.month, c.day, c.hour, c.minute, c.second,
                fraction);
  return text;
}

}  // namespace

std::string format_rfc3339(instant t) {
  char fraction[16] = "";
  if (t.nanos != 0) {
    std::snprintf(fraction, sizeof fraction, ".%09d", static_cast<int>(t.nanos));
    for (char* end = fraction + 9; *end == '0'; --end) *end = '\0';
  }
  return rfc3339_text(t.seconds, fraction);
}

std::string format_rfc3339_ms(instant t) {
  char fraction[16] = "";
  const int millis = t.nanos / 1'000'000;
  if (millis != 0) std::snprintf(fraction, sizeof fraction, ".%03d", millis);
  return rfc3339_text(t.seconds, fraction);
}

std::string format_http_date(instant t) {
  static constexpr const char* kDays[] = {"Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"};
  static constexpr const char* kMonths[] = {"Jan", "Feb", "Mar", "Apr", "May", "Jun",
                                            "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
  const civil_time c = civil_from_seconds(t.seconds);
  char text[40];
  std::snprintf(text, sizeof text, "%s, %02d %s %04lld %02d:%02d:%02d GMT", kDays[c.weekday], c.day,
                kMonths[c.month - 1], static_cast<long long>(c.year), c.hour, c.minute, c.second);
  return text;
}

std::optional<instant> parse_rfc3339(std::string_view s) {
  int year = 0, month = 0, day = 0, hour = 0, minute = 0, second = 0;
  if (!read_digits(s, 0, 4, year) || s.size() < 20 || s[4] != '-' || !read_digits(s, 5, 2, month) ||
      s[7] != '-' || !read_digits(s, 8, 2, day) || (s[10] != 'T' && s[10] != 't') ||
      !read_digits(s, 11, 2, hour) || s[13] != ':' || !read_digits(s, 14, 2, minute) ||
      s[16] != ':' || !read_digits(s, 17, 2, second)) {
    return std::nullopt;
  }
  if (month < 1 || month > 12 || day < 1 || day > days_in_month(year, month) || hour > 23 ||
      minute > 59 || second > 60) {
    return std::nullopt;
  }
  size_t pos = 19;
  int32_t nanos = 0;
  if (pos < s.size() && s[pos] == '.') {
    ++pos;
    const size_t start = pos;
    int32_t scale = 100000000;
    for (; pos < s.size() && s[pos] >= '0' && s[pos] <= '9'; ++pos) {
      nanos += (s[pos] - '0') * scale;  // digits past nanoseconds are dropped
      scale /= 10;
    }
    if (pos == start) return std::nullopt;
  }
  if (pos >= s.size()) return std::nullopt;
  int32_t offset = 0;
  if (s[pos] == 'Z' || s[pos] == 'z') {
    ++pos;
  } else if (s[pos] == '+' || s[pos] == '-') {
    int oh = 0, om = 0;
    if (!read_digits(s, pos + 1, 2, oh) || pos + 3 >= s.size() || s[pos + 3] != ':' ||
        !read_digits(s, pos + 4, 2, om) || oh > 23 || om > 59) {
      return std::nullopt;
    }
    offset = (oh * 3600 + om * 60) * (s[pos] == '-' ? -1 : 1);
    pos += 6;
  } else {
    return std::nullopt;
  }
  if (pos != s.size()) return std::nullopt;
  const int64_t local_seconds = days_from_civil(year, month, day) * 86400 + int64_t{hour} * 3600 +
                                int64_t{minute} * 60 + second;
  return instant{local_seconds - offset, nanos};
}

instant instant_from_unix_ms(double ms) {
  // The range of a JS Date; outside it (or NaN) there is no meaningful instant.
  if (!std::isfinite(ms) || std::fabs(ms) > 8.64e15) return instant{};
  // Whole milliseconds are exact in a double of this range; split them in integers so float
  // rounding cannot push the fraction outside 0..999'999'999 ns.
  const double whole = std::floor(ms);
  const auto whole_ms = static_cast<int64_t>(whole);
  int64_t nanos = std::llround((ms - whole) * 1e6);  // 0..1'000'000
  int64_t seconds = whole_ms / 1000;
  int64_t rest_ms = whole_ms % 1000;
  if (rest_ms < 0) {
    rest_ms += 1000;
    --seconds;
  }
  nanos += rest_ms * 1000000;
  if (nanos >= 1000000000) {
    nanos -= 1000000000;
    ++seconds;
  }
  return instant{seconds, static_cast<int32_t>(nanos)};
}

}  // namespace lq
