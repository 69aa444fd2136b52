// libFuzzer target: parse_rfc3339 against a reference built on the C library's timegm, and
// instant_from_unix_ms on the input's first eight bytes read as a double.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <ctime>
#include <optional>
#include <string_view>

#include "harness/fuzz_check.hpp"
#include "lq/time/civil_time.hpp"
#include "lq/time/instant.hpp"

namespace {

bool digits_at(std::string_view s, size_t pos, size_t width, int& out) {
  if (pos + width > s.size()) return false;
  out = 0;
  for (size_t i = pos; i < pos + width; ++i) {
    if (s[i] < '0' || s[i] > '9') return false;
    out = out * 10 + (s[i] - '0');
  }
  return true;
}

std::optional<lq::instant> reference_parse(std::string_view s) {
  int year, month, day, hour, minute, second;
  if (s.size() < 20 || !digits_at(s, 0, 4, year) || s[4] != '-' || !digits_at(s, 5, 2, month) ||
      s[7] != '-' || !digits_at(s, 8, 2, day) || (s[10] != 'T' && s[10] != 't') ||
      !digits_at(s, 11, 2, hour) || s[13] != ':' || !digits_at(s, 14, 2, minute) || s[16] != ':' ||
      !digits_at(s, 17, 2, second)) {
    return std::nullopt;
  }
  static const int kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  const bool leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0);
  if (month < 1 || month > 12) return std::nullopt;
  const int month_days = month == 2 && leap ? 29 : kDays[month - 1];
  if (day < 1 || day > month_days || hour > 23 || minute > 59 || second > 60) return std::nullopt;
  size_t pos = 19;
  int32_t nanos = 0;
  if (pos < s.size() && s[pos] == '.') {
    size_t digits = 0;
    for (++pos; pos < s.size() && s[pos] >= '0' && s[pos] <= '9'; ++pos, ++digits) {
      if (digits < 9) nanos = nanos * 10 + (s[pos] - '0');
    }
    if (digits == 0) return std::nullopt;
    for (; digits < 9; ++digits) nanos *= 10;
  }
  if (pos >= s.size()) return std::nullopt;
  long offset = 0;
  if (s[pos] == 'Z' || s[pos] == 'z') {
    ++pos;
  } else if (s[pos] == '+' || s[pos] == '-') {
    int oh, om;
    if (!digits_at(s, pos + 1, 2, oh) || pos + 3 >= s.size() || s[pos + 3] != ':' ||
        !digits_at(s, pos + 4, 2, om) || oh > 23 || om > 59) {
      return std::nullopt;
    }
    offset = (oh * 3600L + om * 60L) * (s[pos] == '-' ? -1 : 1);
    pos += 6;
  } else {
    return std::nullopt;
  }
  if (pos != s.size()) return std::nullopt;
  std::tm tm{};
  tm.tm_year = year - 1900;
  tm.tm_mon = month - 1;
  tm.tm_mday = day;
  tm.tm_hour = hour;
  tm.tm_min = minute;
  tm.tm_sec = second;  // 60 (a leap second) normalises to the next minute, as in the engine
  const time_t utc = timegm(&tm);
  return lq::instant{static_cast<int64_t>(utc) - offset, nanos};
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const auto parsed = lq::parse_rfc3339(text);
  const auto expected = reference_parse(text);
  LQ_FUZZ_CHECK(parsed.has_value() == expected.has_value());
  if (parsed) {
    LQ_FUZZ_CHECK(parsed->seconds == expected->seconds && parsed->nanos == expected->nanos);
    // The calendar arithmetic round-trips.
    const lq::civil_time civil = lq::civil_from_seconds(parsed->seconds);
    LQ_FUZZ_CHECK(lq::days_from_civil(civil.year, civil.month, civil.day) * 86400 +
                      int64_t{civil.hour} * 3600 + int64_t{civil.minute} * 60 + civil.second ==
                  parsed->seconds);
  }

  if (size >= 8) {
    double ms;
    std::memcpy(&ms, data, sizeof ms);
    const lq::instant t = lq::instant_from_unix_ms(ms);
    LQ_FUZZ_CHECK(t.nanos >= 0 && t.nanos < 1000000000);
    if (std::isfinite(ms) && std::fabs(ms) <= 8.64e15) {
      // Within a microsecond of the double (JS Dates are whole milliseconds).
      const double back = static_cast<double>(t.seconds) * 1000.0 + t.nanos / 1e6;
      LQ_FUZZ_CHECK(std::fabs(back - ms) <= std::fmax(1e-3, std::fabs(ms) * 1e-15));
      if (ms == std::floor(ms)) {
        const auto whole = static_cast<int64_t>(ms);
        const int64_t floor_seconds = whole / 1000 - (whole % 1000 < 0 ? 1 : 0);
        LQ_FUZZ_CHECK(t.seconds == floor_seconds);
        LQ_FUZZ_CHECK(t.nanos == static_cast<int32_t>((whole - floor_seconds * 1000) * 1000000));
      }
    } else if (!std::isfinite(ms)) {
      LQ_FUZZ_CHECK(t.seconds == 0 && t.nanos == 0);
    }
  }
  return 0;
}
