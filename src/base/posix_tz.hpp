// POSIX TZ strings in the full syntax of a TZif footer (RFC 8536 section 3.3), and local time.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "lq/time/civil_time.hpp"

namespace lq {

/// One DST transition rule: `Jn`, `n` or `Mm.w.d`, plus the local time of day it takes effect.
struct tz_transition_rule {
  enum class form { julian_no_leap, zero_based_day, month_week_day };
  form kind = form::month_week_day;
  int day = 0;                 // Jn: 1..365; n: 0..365; Mm.w.d: d (0 = Sunday .. 6)
  int month = 0;               // Mm.w.d only: 1..12
  int week = 0;                // Mm.w.d only: 1..5 (5 = last)
  int32_t time_of_day = 7200;  // seconds after local midnight, -167h..167h; default 02:00:00
};

/// A parsed POSIX TZ rule. Offsets are seconds EAST of UTC (the TZ string's sign is inverted).
struct posix_tz {
  std::string std_abbreviation;
  int32_t std_offset = 0;
  bool has_dst = false;
  std::string dst_abbreviation;
  int32_t dst_offset = 0;
  tz_transition_rule dst_start;
  tz_transition_rule dst_end;
};

/// Parses e.g. `EST5EDT,M3.2.0,M11.1.0`, `<+0530>-5:30`, `CET-1CEST,M3.5.0,M10.5.0/3`;
/// nullopt when the text is not a valid TZif-footer TZ string.
std::optional<posix_tz> parse_posix_tz(std::string_view text);

/// UTC itself (what the engine uses when no rule is known).
posix_tz utc_tz();

/// The offset from UTC, in seconds east, in force at `unix_seconds`.
int32_t utc_offset_at(const posix_tz& tz, int64_t unix_seconds);

/// The local calendar time at `unix_seconds`.
civil_time local_time_at(const posix_tz& tz, int64_t unix_seconds);

/// The instants (Unix seconds, ascending) at which the offset changes during a calendar year.
std::vector<int64_t> transitions_in_year(const posix_tz& tz, int64_t year);

}  // namespace lq
