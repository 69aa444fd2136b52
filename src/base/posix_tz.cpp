// POSIX TZ strings in the TZif-footer syntax (RFC 8536 section 3.3) and the local time they give.
#include "base/posix_tz.hpp"

#include <algorithm>
#include <array>
#include <cstddef>
#include <utility>

namespace lq {

namespace {

constexpr int32_t kSecondsPerHour = 3600;
constexpr int64_t kSecondsPerDay = 86400;
// RFC 8536 extends transition times to -167..167 hours; UTC offsets are accepted that wide too.
constexpr int kMaxHours = 167;
// Instants are clamped here before rule arithmetic so that year +/- 2 cannot overflow int64.
constexpr int64_t kMaxSeconds = 4'000'000'000'000'000'000;
constexpr int64_t kMaxYear = 100'000'000'000;

bool is_ascii_digit(char c) {
  return c >= '0' && c <= '9';
}
bool is_ascii_alpha(char c) {
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z');
}

// A cursor over the TZ text. Parse steps return nullopt on malformed input; the caller then
// rejects the whole string, so a failed step need not restore the position.
class tz_reader {
 public:
  explicit tz_reader(std::string_view text) : text_(text) {}

  bool at_end() const { return pos_ == text_.size(); }
  char peek() const { return at_end() ? '\0' : text_[pos_]; }

  bool consume(char c) {
    if (at_end() || text_[pos_] != c) return false;
    ++pos_;
    return true;
  }

  // 1..max_digits decimal digits; more digits than that is an error, not a split number.
  std::optional<int> number(int max_digits) {
    int value = 0;
    int digits = 0;
    while (!at_end() && is_ascii_digit(text_[pos_])) {
      if (++digits > max_digits) return std::nullopt;
      value = value * 10 + (text_[pos_] - '0');
      ++pos_;
    }
    if (digits == 0) return std::nullopt;
    return value;
  }

  // `EST` (>= 3 letters) or `<+0530>` (>= 3 of alnum, '+', '-'); brackets are not kept.
  std::optional<std::string> abbreviation() {
    const std::size_t begin = pos_;
    if (consume('<')) {
      while (!at_end() &&
             (is_ascii_alpha(peek()) || is_ascii_digit(peek()) || peek() == '+' || peek() == '-')) {
        ++pos_;
      }
      const std::size_t length = pos_ - begin - 1;
      if (!consume('>') || length < 3) return std::nullopt;
      return std::string(text_.substr(begin + 1, length));
    }
    while (!at_end() && is_ascii_alpha(peek())) ++pos_;
    if (pos_ - begin < 3) return std::nullopt;
    return std::string(text_.substr(begin, pos_ - begin));
  }

  // [+-]hh[:mm[:ss]] as signed seconds, with the sign as written.
  std::optional<int32_t> signed_duration() {
    int32_t sign = 1;
    if (consume('-')) {
      sign = -1;
    } else {
      consume('+');
    }
    const auto hours = number(3);
    if (!hours || *hours > kMaxHours) return std::nullopt;
    int minutes = 0;
    int seconds = 0;
    if (consume(':')) {
      const auto mm = number(2);
      if (!mm || *mm > 59) return std::nullopt;
      minutes = *mm;
      if (consume(':')) {
        const auto ss = number(2);
        if (!ss || *ss > 59) return std::nullopt;
        seconds = *ss;
      }
    }
    return sign * (*hours * kSecondsPerHour + minutes * 60 + seconds);
  }

  // `Jn`, `n` or `Mm.w.d`, then an optional `/time`.
  std::optional<tz_transition_rule> transition_rule() {
    tz_transition_rule rule;
    if (consume('J')) {
      const auto n = number(3);
      if (!n || *n < 1 || *n > 365) return std::nullopt;
      rule.kind = tz_transition_rule::form::julian_no_leap;
      rule.day = *n;
    } else if (consume('M')) {
      const auto month = number(2);
      if (!month || *month < 1 || *month > 12 || !consume('.')) return std::nullopt;
      const auto week = number(1);
      if (!week || *week < 1 || *week > 5 || !consume('.')) return std::nullopt;
      const auto weekday = number(1);
      if (!weekday || *weekday > 6) return std::nullopt;
      rule.kind = tz_transition_rule::form::month_week_day;
      rule.month = *month;
      rule.week = *week;
      rule.day = *weekday;
    } else {
      const auto n = number(3);
      if (!n || *n > 365) return std::nullopt;
      rule.kind = tz_transition_rule::form::zero_based_day;
      rule.day = *n;
    }
    if (consume('/')) {
      const auto time = signed_duration();
      if (!time) return std::nullopt;
      rule.time_of_day = *time;
    }
    return rule;
  }

 private:
  std::string_view text_;
  std::size_t pos_ = 0;
};

// Days since the epoch of the local date a rule names in `year`. Fields are clamped so that a
// hand-built rule cannot index out of range.
int64_t rule_day(const tz_transition_rule& rule, int64_t year) {
  const int64_t jan1 = days_from_civil(year, 1, 1);
  switch (rule.kind) {
    case tz_transition_rule::form::julian_no_leap: {
      // Jn never counts February 29, so from J60 (March 1) on a leap year is one day ahead.
      const int n = std::clamp(rule.day, 1, 365);
      return jan1 + n - 1 + (is_leap_year(year) && n >= 60 ? 1 : 0);
    }
    case tz_transition_rule::form::zero_based_day:
      return jan1 + std::clamp(rule.day, 0, 365);
    case tz_transition_rule::form::month_week_day: {
      const int month = std::clamp(rule.month, 1, 12);
      const int week = std::clamp(rule.week, 1, 5);
      const int weekday = std::clamp(rule.day, 0, 6);
      const int64_t first = days_from_civil(year, month, 1);
      int day_of_month = 1 + (weekday - weekday_from_days(first) + 7) % 7 + (week - 1) * 7;
      // Week 5 means "last": step back while it overshoots the month.
      while (day_of_month > days_in_month(year, month)) day_of_month -= 7;
      return first + day_of_month - 1;
    }
  }
  return jan1;
}

// DST starts at a local STANDARD time and ends at a local DAYLIGHT time (POSIX).
int64_t dst_start_utc(const posix_tz& tz, int64_t year) {
  return rule_day(tz.dst_start, year) * kSecondsPerDay + tz.dst_start.time_of_day - tz.std_offset;
}

int64_t dst_end_utc(const posix_tz& tz, int64_t year) {
  return rule_day(tz.dst_end, year) * kSecondsPerDay + tz.dst_end.time_of_day - tz.dst_offset;
}

// As in tzcode: a year whose DST starts and ends at the same instant, or lasts a whole year or
// more, has no transitions; with no transitions at all, DST is in force all year (RFC 8536).
bool year_has_transitions(const posix_tz& tz, int64_t year) {
  const int64_t start = dst_start_utc(tz, year);
  const int64_t end = dst_end_utc(tz, year);
  const int64_t year_seconds = (is_leap_year(year) ? 366 : 365) * kSecondsPerDay;
  return end < start || (start < end && end - start < year_seconds);
}

struct dst_event {
  int64_t at = 0;
  bool starts_dst = false;
};

// The events of years first..first+count-1, sorted; on a tie an end sorts before a start, so
// back-to-back years of DST stay in DST.
template <std::size_t N>
std::size_t collect_events(const posix_tz& tz, int64_t first, std::array<dst_event, N>& events) {
  std::size_t count = 0;
  for (int64_t year = first; year < first + static_cast<int64_t>(N / 2); ++year) {
    if (!year_has_transitions(tz, year)) continue;
    events[count++] = {dst_start_utc(tz, year), true};
    events[count++] = {dst_end_utc(tz, year), false};
  }
  // Insertion sort: at most eight events (and GCC 12 misreads std::sort on a std::array).
  auto before = [](const dst_event& a, const dst_event& b) {
    return a.at != b.at ? a.at < b.at : (!a.starts_dst && b.starts_dst);
  };
  for (std::size_t i = 1; i < count; ++i) {
    for (std::size_t j = i; j > 0 && before(events[j], events[j - 1]); --j) {
      std::swap(events[j], events[j - 1]);
    }
  }
  return count;
}

int64_t year_of(int64_t unix_seconds) {
  return civil_from_seconds(unix_seconds).year;
}

}  // namespace

std::optional<posix_tz> parse_posix_tz(std::string_view text) {
  tz_reader in(text);
  posix_tz tz;
  auto std_name = in.abbreviation();
  if (!std_name) return std::nullopt;
  const auto std_offset = in.signed_duration();
  if (!std_offset) return std::nullopt;
  tz.std_abbreviation = std::move(*std_name);
  tz.std_offset = -*std_offset;  // TZ strings count hours WEST of UTC
  if (in.at_end()) return tz;

  auto dst_name = in.abbreviation();
  if (!dst_name) return std::nullopt;
  tz.has_dst = true;
  tz.dst_abbreviation = std::move(*dst_name);
  tz.dst_offset = tz.std_offset + kSecondsPerHour;
  if (!in.at_end() && in.peek() != ',') {
    const auto dst_offset = in.signed_duration();
    if (!dst_offset) return std::nullopt;
    tz.dst_offset = -*dst_offset;
  }
  if (in.at_end()) {
    // POSIX leaves the rule implementation-defined; tzcode and glibc use the US rule.
    tz.dst_start = tz_transition_rule{tz_transition_rule::form::month_week_day, 0, 3, 2, 7200};
    tz.dst_end = tz_transition_rule{tz_transition_rule::form::month_week_day, 0, 11, 1, 7200};
    return tz;
  }
  if (!in.consume(',')) return std::nullopt;
  const auto start = in.transition_rule();
  if (!start || !in.consume(',')) return std::nullopt;
  const auto end = in.transition_rule();
  if (!end || !in.at_end()) return std::nullopt;
  tz.dst_start = *start;
  tz.dst_end = *end;
  return tz;
}

posix_tz utc_tz() {
  posix_tz tz;
  tz.std_abbreviation = "UTC";
  return tz;
}

int32_t utc_offset_at(const posix_tz& tz, int64_t unix_seconds) {
  if (!tz.has_dst) return tz.std_offset;
  const int64_t t = std::clamp(unix_seconds, -kMaxSeconds, kMaxSeconds);
  // Two years back: a transition of year y-1 can be pushed past t by a +167h time of day, and
  // the state at t must still come from an event at or before t.
  std::array<dst_event, 8> events;
  const std::size_t count = collect_events(tz, year_of(t) - 2, events);
  if (count == 0) return tz.dst_offset;
  const dst_event* last = nullptr;
  for (std::size_t i = 0; i < count && events[i].at <= t; ++i) last = &events[i];
  if (last != nullptr) return last->starts_dst ? tz.dst_offset : tz.std_offset;
  // Nothing at or before t (only for contrived rules): the state is what the next event ends.
  return events[0].starts_dst ? tz.std_offset : tz.dst_offset;
}

civil_time local_time_at(const posix_tz& tz, int64_t unix_seconds) {
  const int64_t t = std::clamp(unix_seconds, -kMaxSeconds, kMaxSeconds);
  return civil_from_seconds(t + utc_offset_at(tz, t));
}

// The year is the UTC calendar year: instants in [year-01-01T00:00Z, (year+1)-01-01T00:00Z).
std::vector<int64_t> transitions_in_year(const posix_tz& tz, int64_t year) {
  std::vector<int64_t> result;
  if (!tz.has_dst || year < -kMaxYear || year > kMaxYear) return result;
  const int64_t begin = days_from_civil(year, 1, 1) * kSecondsPerDay;
  const int64_t end = days_from_civil(year + 1, 1, 1) * kSecondsPerDay;
  // Rule events of the neighbouring years can land in this one (times of day up to +/-167h).
  std::array<dst_event, 6> events;
  const std::size_t count = collect_events(tz, year - 1, events);
  for (std::size_t i = 0; i < count; ++i) {
    const int64_t at = events[i].at;
    if (at < begin || at >= end || (!result.empty() && result.back() == at)) continue;
    // An event is a transition only if the offset really changes (not when DST runs on, or
    // when the DST offset equals the standard one).
    if (utc_offset_at(tz, at - 1) != utc_offset_at(tz, at)) result.push_back(at);
  }
  return result;
}

}  // namespace lq
