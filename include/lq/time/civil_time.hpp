// Proleptic Gregorian calendar arithmetic on Unix seconds (no time zones, no leap seconds).
#pragma once

#include <cstdint>

namespace lq {

struct civil_time {
  int64_t year = 1970;
  int month = 1;    // 1..12
  int day = 1;      // 1..31
  int hour = 0;     // 0..23
  int minute = 0;   // 0..59
  int second = 0;   // 0..59
  int weekday = 4;  // 0 = Sunday .. 6 = Saturday
  int yearday = 0;  // 0 = January 1
};

/// Days since 1970-01-01 of a calendar date (month 1..12).
int64_t days_from_civil(int64_t year, int month, int day);

/// Calendar fields of a count of seconds since the epoch.
civil_time civil_from_seconds(int64_t seconds);

bool is_leap_year(int64_t year);

/// Days in a month (1..12) of a year.
int days_in_month(int64_t year, int month);

/// Weekday (0 = Sunday) of a count of days since 1970-01-01.
int weekday_from_days(int64_t days);

}  // namespace lq
