#include "instant.hpp"

#include <cmath>

#include "civil_time.hpp"

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

}  // namespace

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
  if (!std::isfinite(ms) || std::fabs(ms) > 8.64e18) return instant{};
  const double seconds = std::floor(ms / 1000.0);
  auto nanos = static_cast<int32_t>(std::llround((ms - seconds * 1000.0) * 1e6));
  auto whole = static_cast<int64_t>(seconds);
  if (nanos >= 1000000000) {
    nanos -= 1000000000;
    ++whole;
  }
  return instant{whole, nanos};
}

}  // namespace lq
