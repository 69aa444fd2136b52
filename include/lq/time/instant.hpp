// A point in time: RFC 3339 read and written, and a Unix time in milliseconds made an instant.
// The one place of each (scripts/check-includes.mjs keeps it so).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
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

/// `2026-11-24T13:15:00Z`, the fraction exact to the nanosecond without its trailing zeros
/// (`.5`, `.123456789`): the canonical request's `order_timestamp`.
std::string format_rfc3339(instant t);

/// `2026-11-24T13:15:00Z`, with `.mmm` when the instant has a millisecond part (a finer part is
/// dropped): the times the local service and the store hub write.
std::string format_rfc3339_ms(instant t);

/// The HTTP-date of `t` (RFC 9110 5.6.7), to the second: `Tue, 24 Nov 2026 13:15:00 GMT`.
std::string format_http_date(instant t);

/// The instant `ms` milliseconds after the epoch (a JS Date's getTime(), a row's stored time).
instant instant_from_unix_ms(double ms);

}  // namespace lq
