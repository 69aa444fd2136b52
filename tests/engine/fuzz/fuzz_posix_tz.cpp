// libFuzzer target: parse_posix_tz (RFC 8536 3.3 syntax), a canonical re-rendering that must parse
// back to the same rule, and the local time it gives: offsets are the rule's own, and the offset
// changes exactly at the instants transitions_in_year reports.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <string_view>
#include <vector>

#include "base/posix_tz.hpp"
#include "harness/fuzz_check.hpp"
#include "lq/time/civil_time.hpp"

namespace {

std::string duration(int32_t seconds) {
  std::string out = seconds < 0 ? "-" : "";
  const int64_t magnitude = seconds < 0 ? -static_cast<int64_t>(seconds) : seconds;
  out += std::to_string(magnitude / 3600) + ":" + std::to_string(magnitude / 60 % 60) + ":" +
         std::to_string(magnitude % 60);
  return out;
}

std::string rule_text(const lq::tz_transition_rule& rule) {
  std::string out;
  switch (rule.kind) {
    case lq::tz_transition_rule::form::julian_no_leap:
      out = "J" + std::to_string(rule.day);
      break;
    case lq::tz_transition_rule::form::zero_based_day:
      out = std::to_string(rule.day);
      break;
    case lq::tz_transition_rule::form::month_week_day:
      out = "M" + std::to_string(rule.month) + "." + std::to_string(rule.week) + "." +
            std::to_string(rule.day);
      break;
  }
  return out + "/" + duration(rule.time_of_day);
}

// The rule written out in full (every field explicit); offsets count WEST of UTC in the text.
std::string canonical(const lq::posix_tz& tz) {
  std::string out = "<" + tz.std_abbreviation + ">" + duration(-tz.std_offset);
  if (!tz.has_dst) return out;
  out += "<" + tz.dst_abbreviation + ">";
  // The default DST offset (one hour ahead) can lie beyond what may be written (167 hours).
  if (tz.dst_offset != tz.std_offset + 3600) out += duration(-tz.dst_offset);
  return out + "," + rule_text(tz.dst_start) + "," + rule_text(tz.dst_end);
}

bool same_rule(const lq::tz_transition_rule& a, const lq::tz_transition_rule& b) {
  return a.kind == b.kind && a.day == b.day && a.month == b.month && a.week == b.week &&
         a.time_of_day == b.time_of_day;
}

bool same_tz(const lq::posix_tz& a, const lq::posix_tz& b) {
  if (a.std_abbreviation != b.std_abbreviation || a.std_offset != b.std_offset ||
      a.has_dst != b.has_dst) {
    return false;
  }
  return !a.has_dst || (a.dst_abbreviation == b.dst_abbreviation && a.dst_offset == b.dst_offset &&
                        same_rule(a.dst_start, b.dst_start) && same_rule(a.dst_end, b.dst_end));
}

void check_local_time(const lq::posix_tz& tz, int64_t t) {
  const int32_t offset = lq::utc_offset_at(tz, t);
  LQ_FUZZ_CHECK(offset == tz.std_offset || (tz.has_dst && offset == tz.dst_offset));
  const lq::civil_time local = lq::local_time_at(tz, t);
  LQ_FUZZ_CHECK(local.month >= 1 && local.month <= 12 && local.day >= 1 && local.day <= 31);
  LQ_FUZZ_CHECK(local.hour >= 0 && local.hour < 24 && local.minute >= 0 && local.minute < 60);
  LQ_FUZZ_CHECK(local.weekday >= 0 && local.weekday < 7 && local.yearday >= 0 &&
                local.yearday < 366);
}

// Between two reported transitions the offset does not change; at each it does.
void check_year(const lq::posix_tz& tz, int64_t year, uint64_t salt) {
  const std::vector<int64_t> changes = lq::transitions_in_year(tz, year);
  if (!tz.has_dst) {
    LQ_FUZZ_CHECK(changes.empty());
    return;
  }
  const int64_t begin = lq::days_from_civil(year, 1, 1) * 86400;
  const int64_t end = lq::days_from_civil(year + 1, 1, 1) * 86400;
  LQ_FUZZ_CHECK(std::is_sorted(changes.begin(), changes.end()));
  for (size_t i = 0; i < changes.size(); ++i) {
    LQ_FUZZ_CHECK(changes[i] >= begin && changes[i] < end);
    LQ_FUZZ_CHECK(i == 0 || changes[i] > changes[i - 1]);
    LQ_FUZZ_CHECK(lq::utc_offset_at(tz, changes[i] - 1) != lq::utc_offset_at(tz, changes[i]));
  }
  // Sample instants of the year: each has the offset of the last change (or of the year start).
  uint64_t x = salt | 1;
  for (int sample = 0; sample < 24; ++sample) {
    x ^= x << 13, x ^= x >> 7, x ^= x << 17;
    const int64_t t = begin + static_cast<int64_t>(x % static_cast<uint64_t>(end - begin));
    const auto after = std::upper_bound(changes.begin(), changes.end(), t);
    const int64_t anchor = after == changes.begin() ? begin : *(after - 1);
    LQ_FUZZ_CHECK(lq::utc_offset_at(tz, t) == lq::utc_offset_at(tz, anchor));
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const auto tz = lq::parse_posix_tz(text);
  if (!tz) return 0;
  constexpr int32_t kLimit = 167 * 3600 + 59 * 60 + 59;
  LQ_FUZZ_CHECK(tz->std_offset >= -kLimit && tz->std_offset <= kLimit);
  LQ_FUZZ_CHECK(tz->dst_offset >= -kLimit && tz->dst_offset <= kLimit + 3600);
  LQ_FUZZ_CHECK(tz->std_abbreviation.size() >= 3);

  const std::string again = canonical(*tz);
  const auto reparsed = lq::parse_posix_tz(again);
  LQ_FUZZ_CHECK(reparsed && same_tz(*tz, *reparsed));

  uint64_t salt = 0x9e3779b97f4a7c15ULL;
  for (char c : text) salt = (salt ^ static_cast<unsigned char>(c)) * 0x100000001b3ULL;
  const int64_t extremes[] = {0,
                              1772442000,
                              -62135596800,
                              253402300799,
                              8640000000000000,
                              -8640000000000000,
                              4000000000000000000,
                              std::numeric_limits<int64_t>::max(),
                              std::numeric_limits<int64_t>::min(),
                              static_cast<int64_t>(salt)};
  for (int64_t t : extremes) check_local_time(*tz, t);
  for (int64_t year : {int64_t{1970}, int64_t{2026}, int64_t{2028}, int64_t{0}, int64_t{-1},
                       int64_t{1} + static_cast<int64_t>(salt % 3000)}) {
    check_year(*tz, year, salt + static_cast<uint64_t>(year));
  }
  (void)lq::transitions_in_year(*tz, std::numeric_limits<int64_t>::max());
  (void)lq::transitions_in_year(*tz, 100000000000);
  return 0;
}
