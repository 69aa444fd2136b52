// A point in time, and RFC 3339 parsing.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace lq {

/// Seconds since 1970-01-01T00:00:00Z plus a non-negative nanosecond fraction.
struct instant {
  int64_t seconds = 0;
  int32_t nanos = 0;  // 0..999'999'999

  friend bool operator<(instant a, instant b) {
    return a.seconds != b.seconds ? a.seconds < b.seconds : a.nanos < b.nanos;
  }
  friend bool operator>(instant a, instant b) { return b < a; }
  friend bool operator<=(instant a, instant b) { return !(b < a); }
  friend bool operator>=(instant a, instant b) { return !(a < b); }
  friend bool operator==(instant a, instant b) {
    return a.seconds == b.seconds && a.nanos == b.nanos;
  }
  friend bool operator!=(instant a, instant b) { return !(a == b); }
};

/// Parses RFC 3339 `YYYY-MM-DDTHH:MM:SS[.fraction](Z|±HH:MM)`; nullopt when malformed.
std::optional<instant> parse_rfc3339(std::string_view text);

/// The instant `ms` milliseconds after the epoch (a JS Date's getTime()).
instant instant_from_unix_ms(double ms);

}  // namespace lq
