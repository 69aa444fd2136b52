// POSIX TZ rules (contract 3.1 rule 6): the full TZif-footer syntax and the local time it gives.
#include <catch2/catch.hpp>

#include <cstdint>
#include <cstdio>
#include <limits>
#include <string>
#include <string_view>
#include <vector>

#include "base/posix_tz.hpp"

namespace {

using lq::posix_tz;
using lq::tz_transition_rule;

posix_tz tz_of(std::string_view text) {
  const auto tz = lq::parse_posix_tz(text);
  INFO("TZ string: " << text);
  REQUIRE(tz.has_value());
  return *tz;
}

bool parses(std::string_view text) {
  return lq::parse_posix_tz(text).has_value();
}

int64_t utc(int64_t year, int month, int day, int hour, int minute, int second) {
  return lq::days_from_civil(year, month, day) * 86400 + int64_t{hour} * 3600 +
         int64_t{minute} * 60 + second;
}

// The local wall time with the offset in force, e.g. "2026-03-08T03:00:00-04:00".
std::string local(const posix_tz& tz, int64_t unix_seconds) {
  const lq::civil_time c = lq::local_time_at(tz, unix_seconds);
  const int32_t offset = lq::utc_offset_at(tz, unix_seconds);
  const int32_t magnitude = offset < 0 ? -offset : offset;
  char text[64];
  std::snprintf(text, sizeof text, "%04lld-%02d-%02dT%02d:%02d:%02d%c%02d:%02d",
                static_cast<long long>(c.year), c.month, c.day, c.hour, c.minute, c.second,
                offset < 0 ? '-' : '+', magnitude / 3600, magnitude / 60 % 60);
  return text;
}

// The local times a second before `at` (a transition), at it and a second after.
void check_around(const posix_tz& tz, int64_t at, std::string_view before, std::string_view at_text,
                  std::string_view after) {
  CHECK(local(tz, at - 1) == before);
  CHECK(local(tz, at) == at_text);
  CHECK(local(tz, at + 1) == after);
}

bool same_rule(const tz_transition_rule& a, const tz_transition_rule& b) {
  return a.kind == b.kind && a.day == b.day && a.month == b.month && a.week == b.week &&
         a.time_of_day == b.time_of_day;
}

tz_transition_rule mwd(int month, int week, int weekday, int32_t time_of_day = 7200) {
  return {tz_transition_rule::form::month_week_day, weekday, month, week, time_of_day};
}

}  // namespace

TEST_CASE("a standard-time-only rule stores its offset east of UTC") {
  const posix_tz est = tz_of("EST5");
  CHECK(est.std_abbreviation == "EST");
  CHECK(est.std_offset == -18000);
  CHECK_FALSE(est.has_dst);

  CHECK(tz_of("JST-9").std_offset == 9 * 3600);
  CHECK(tz_of("GMT0").std_offset == 0);
  CHECK(tz_of("UTC0").std_abbreviation == "UTC");
  CHECK(tz_of("EST+5").std_offset == -18000);
  CHECK(tz_of("ABC-5:30").std_offset == 19800);
  CHECK(tz_of("ABC+3:25:17").std_offset == -(3 * 3600 + 25 * 60 + 17));
  CHECK(tz_of("ABC05:05").std_offset == -(5 * 3600 + 5 * 60));
}

TEST_CASE("quoted abbreviations may hold digits and signs and are stored without brackets") {
  const posix_tz kolkata_like = tz_of("<+0530>-5:30");
  CHECK(kolkata_like.std_abbreviation == "+0530");
  CHECK(kolkata_like.std_offset == 19800);

  CHECK(tz_of("<-0930>9:30").std_offset == -(9 * 3600 + 30 * 60));
  CHECK(tz_of("<+0845>-8:45").std_offset == 8 * 3600 + 45 * 60);
  CHECK(tz_of("<-00>0").std_abbreviation == "-00");
  CHECK(tz_of("<UTC>0").std_abbreviation == "UTC");

  const posix_tz nuuk = tz_of("<-02>2<-01>,M3.5.0/-1,M10.5.0/0");
  CHECK(nuuk.std_abbreviation == "-02");
  CHECK(nuuk.dst_abbreviation == "-01");
  CHECK(nuuk.std_offset == -7200);
  CHECK(nuuk.dst_offset == -3600);
}

TEST_CASE("a DST name without an offset is one hour ahead of standard time") {
  const posix_tz new_york = tz_of("EST5EDT,M3.2.0,M11.1.0");
  CHECK(new_york.has_dst);
  CHECK(new_york.dst_abbreviation == "EDT");
  CHECK(new_york.std_offset == -18000);
  CHECK(new_york.dst_offset == -14400);

  const posix_tz st_johns = tz_of("NST3:30NDT,M3.2.0,M11.1.0");
  CHECK(st_johns.std_offset == -12600);
  CHECK(st_johns.dst_offset == -9000);

  SECTION("an explicit DST offset wins, even when it is behind standard time") {
    const posix_tz lord_howe = tz_of("<+1030>-10:30<+11>-11,M10.1.0,M4.1.0");
    CHECK(lord_howe.std_offset == 37800);
    CHECK(lord_howe.dst_offset == 39600);

    const posix_tz dublin = tz_of("IST-1GMT0,M10.5.0,M3.5.0/1");
    CHECK(dublin.std_offset == 3600);
    CHECK(dublin.dst_offset == 0);

    const posix_tz troll = tz_of("<+00>0<+02>-2,M3.5.0/1,M10.5.0/3");
    CHECK(troll.dst_offset == 7200);
  }
}

TEST_CASE("a DST name without a rule uses the US rule M3.2.0,M11.1.0") {
  const posix_tz tz = tz_of("EST5EDT");
  CHECK(tz.has_dst);
  CHECK(same_rule(tz.dst_start, mwd(3, 2, 0)));
  CHECK(same_rule(tz.dst_end, mwd(11, 1, 0)));
  CHECK(local(tz, utc(2026, 3, 8, 7, 0, 0)) == "2026-03-08T03:00:00-04:00");

  const posix_tz with_offset = tz_of("AAA3BBB1");
  CHECK(with_offset.dst_offset == -3600);
  CHECK(same_rule(with_offset.dst_end, mwd(11, 1, 0)));
}

TEST_CASE("transition dates parse in the Jn, n and Mm.w.d forms") {
  const posix_tz julian = tz_of("AAA0BBB,J1,J365");
  CHECK(same_rule(julian.dst_start, {tz_transition_rule::form::julian_no_leap, 1, 0, 0, 7200}));
  CHECK(same_rule(julian.dst_end, {tz_transition_rule::form::julian_no_leap, 365, 0, 0, 7200}));

  const posix_tz zero_based = tz_of("AAA0BBB,0,365");
  CHECK(same_rule(zero_based.dst_start, {tz_transition_rule::form::zero_based_day, 0, 0, 0, 7200}));
  CHECK(same_rule(zero_based.dst_end, {tz_transition_rule::form::zero_based_day, 365, 0, 0, 7200}));

  const posix_tz month_week_day = tz_of("AAA0BBB,M1.1.0,M12.5.6");
  CHECK(same_rule(month_week_day.dst_start, mwd(1, 1, 0)));
  CHECK(same_rule(month_week_day.dst_end, mwd(12, 5, 6)));
  CHECK(same_rule(tz_of("AAA0BBB,M03.2.0,M11.1.0").dst_start, mwd(3, 2, 0)));
}

TEST_CASE("transition times take a sign, minutes, seconds and hours from -167 to 167") {
  CHECK(tz_of("CET-1CEST,M3.5.0,M10.5.0/3").dst_end.time_of_day == 3 * 3600);
  CHECK(tz_of("<-02>2<-01>,M3.5.0/-1,M10.5.0/0").dst_start.time_of_day == -3600);
  CHECK(tz_of("<-02>2<-01>,M3.5.0/-1,M10.5.0/0").dst_end.time_of_day == 0);
  CHECK(tz_of("IST-2IDT,M3.4.4/26,M10.5.0").dst_start.time_of_day == 26 * 3600);
  CHECK(tz_of("EET-2EEST,M3.4.4/50,M10.4.4/50").dst_end.time_of_day == 50 * 3600);
  CHECK(tz_of("<+1245>-12:45<+1345>,M9.5.0/2:45,M4.1.0/3:45").dst_start.time_of_day ==
        2 * 3600 + 45 * 60);
  CHECK(tz_of("AAA0BBB,M3.2.0/+1:02:03,M11.1.0").dst_start.time_of_day == 3723);
  CHECK(tz_of("AAA0BBB,J60/167,J300/-167").dst_start.time_of_day == 167 * 3600);
  CHECK(tz_of("AAA0BBB,J60/167,J300/-167").dst_end.time_of_day == -167 * 3600);
  CHECK(tz_of("AAA0BBB,J60/-167:59:59,J300").dst_start.time_of_day == -(167 * 3600 + 3599));

  CHECK_FALSE(parses("AAA0BBB,J60/168,J300"));
  CHECK_FALSE(parses("AAA0BBB,J60/-168,J300"));
}

TEST_CASE("UTC offsets are accepted leniently up to 167 hours") {
  CHECK(tz_of("AAA24").std_offset == -24 * 3600);
  CHECK(tz_of("AAA-167").std_offset == 167 * 3600);
  CHECK(tz_of("AAA167:59:59BBB-167").dst_offset == 167 * 3600);
  CHECK_FALSE(parses("AAA168"));
  CHECK_FALSE(parses("AAA0BBB-168"));
}

TEST_CASE("malformed TZ strings are rejected") {
  const std::vector<std::string_view> invalid = {
      "",
      "EST",
      "ES5",
      "E5",
      "5",
      "EST 5",
      " EST5",
      "EST5 ",
      "EST5x",
      "EST5:",
      "EST5:60",
      "EST5:30:60",
      "EST5:30:",
      "EST+",
      "EST-",
      "EST1234",
      "<AB>5",
      "<A B>5",
      "<+05",
      "<+05>",
      "<>5",
      "EST5ED",
      "EST5EDT,",
      "EST5EDT4,",
      "EST5EDT,M3.2.0",
      "EST5EDT,M3.2.0,",
      "EST5EDT,M3.2.0,M11.1.0,",
      "EST5EDT,M3.2.0,M11.1.0x",
      "EST5EDT;M3.2.0,M11.1.0",
      "EST5EDT!",
      "EST5EDT5x",
      "EST5EDT,M3.2,M11.1.0",
      "EST5EDT,M0.1.0,M11.1.0",
      "EST5EDT,M13.1.0,M11.1.0",
      "EST5EDT,M3.0.0,M11.1.0",
      "EST5EDT,M3.6.0,M11.1.0",
      "EST5EDT,M3.2.7,M11.1.0",
      "EST5EDT,M3.2.0/,M11.1.0",
      "EST5EDT,M3.2.0/1:,M11.1.0",
      "EST5EDT,M3.2.0/x,M11.1.0",
      "EST5EDT,J0,J365",
      "EST5EDT,J366,J1",
      "EST5EDT,366,1",
      "EST5EDT,J,1",
      "EST5EDT,-1,1",
      ":America/New_York",
      "America/New_York",
      std::string_view("EST5\0", 5),
  };
  for (const std::string_view text : invalid) {
    INFO("TZ string: \"" << std::string(text) << "\"");
    CHECK_FALSE(parses(text));
  }
}

TEST_CASE("utc_tz is UTC with no DST") {
  const posix_tz tz = lq::utc_tz();
  CHECK_FALSE(tz.has_dst);
  CHECK(tz.std_offset == 0);
  CHECK(local(tz, utc(2026, 7, 1, 12, 34, 56)) == "2026-07-01T12:34:56+00:00");
  CHECK(lq::transitions_in_year(tz, 2026).empty());
}

TEST_CASE("America/New_York springs forward at 02:00 EST and falls back at 02:00 EDT") {
  const posix_tz tz = tz_of("EST5EDT,M3.2.0,M11.1.0");
  const int64_t spring = utc(2026, 3, 8, 7, 0, 0);
  check_around(tz, spring, "2026-03-08T01:59:59-05:00", "2026-03-08T03:00:00-04:00",
               "2026-03-08T03:00:01-04:00");

  const int64_t fall = utc(2026, 11, 1, 6, 0, 0);
  check_around(tz, fall, "2026-11-01T01:59:59-04:00", "2026-11-01T01:00:00-05:00",
               "2026-11-01T01:00:01-05:00");

  CHECK(lq::transitions_in_year(tz, 2026) == std::vector<int64_t>{spring, fall});
  CHECK(lq::local_time_at(tz, spring).weekday == 0);
  CHECK(lq::local_time_at(tz, utc(2026, 1, 15, 4, 0, 0)).weekday == 3);  // still Wednesday
}

TEST_CASE("Europe/Berlin changes at 01:00 UTC with the end time written as /3") {
  const posix_tz tz = tz_of("CET-1CEST,M3.5.0,M10.5.0/3");
  const int64_t spring = utc(2026, 3, 29, 1, 0, 0);
  check_around(tz, spring, "2026-03-29T01:59:59+01:00", "2026-03-29T03:00:00+02:00",
               "2026-03-29T03:00:01+02:00");

  const int64_t fall = utc(2026, 10, 25, 1, 0, 0);
  check_around(tz, fall, "2026-10-25T02:59:59+02:00", "2026-10-25T02:00:00+01:00",
               "2026-10-25T02:00:01+01:00");

  // M10.5.0 is the last Sunday even in a month with only four of them.
  CHECK(lq::transitions_in_year(tz, 2026) == std::vector<int64_t>{spring, fall});
  CHECK(lq::transitions_in_year(tz, 2027) ==
        std::vector<int64_t>{utc(2027, 3, 28, 1, 0, 0), utc(2027, 10, 31, 1, 0, 0)});
}

TEST_CASE("southern-hemisphere DST spans the new year") {
  const posix_tz sydney = tz_of("AEST-10AEDT,M10.1.0,M4.1.0/3");
  CHECK(local(sydney, utc(2026, 1, 15, 0, 0, 0)) == "2026-01-15T11:00:00+11:00");
  CHECK(local(sydney, utc(2026, 7, 15, 0, 0, 0)) == "2026-07-15T10:00:00+10:00");
  CHECK(local(sydney, utc(2026, 12, 31, 12, 59, 59)) == "2026-12-31T23:59:59+11:00");
  CHECK(local(sydney, utc(2026, 12, 31, 13, 0, 0)) == "2027-01-01T00:00:00+11:00");

  const int64_t autumn = utc(2026, 4, 4, 16, 0, 0);
  check_around(sydney, autumn, "2026-04-05T02:59:59+11:00", "2026-04-05T02:00:00+10:00",
               "2026-04-05T02:00:01+10:00");

  const int64_t spring = utc(2026, 10, 3, 16, 0, 0);
  check_around(sydney, spring, "2026-10-04T01:59:59+10:00", "2026-10-04T03:00:00+11:00",
               "2026-10-04T03:00:01+11:00");
  CHECK(lq::transitions_in_year(sydney, 2026) == std::vector<int64_t>{autumn, spring});

  SECTION("Lord Howe moves by half an hour") {
    const posix_tz lord_howe = tz_of("<+1030>-10:30<+11>-11,M10.1.0,M4.1.0");
    const int64_t end = utc(2026, 4, 4, 15, 0, 0);
    CHECK(local(lord_howe, end - 1) == "2026-04-05T01:59:59+11:00");
    CHECK(local(lord_howe, end) == "2026-04-05T01:30:00+10:30");
    const int64_t start = utc(2026, 10, 3, 15, 30, 0);
    CHECK(local(lord_howe, start - 1) == "2026-10-04T01:59:59+10:30");
    CHECK(local(lord_howe, start) == "2026-10-04T02:30:00+11:00");
  }

  SECTION("Chatham changes at 2:45 standard and 3:45 daylight time") {
    const posix_tz chatham = tz_of("<+1245>-12:45<+1345>,M9.5.0/2:45,M4.1.0/3:45");
    const int64_t end = utc(2026, 4, 4, 14, 0, 0);
    CHECK(local(chatham, end - 1) == "2026-04-05T03:44:59+13:45");
    CHECK(local(chatham, end) == "2026-04-05T02:45:00+12:45");
    const int64_t start = utc(2026, 9, 26, 14, 0, 0);
    CHECK(local(chatham, start - 1) == "2026-09-27T02:44:59+12:45");
    CHECK(local(chatham, start) == "2026-09-27T03:45:00+13:45");
  }
}

TEST_CASE("America/Santiago changes at 24:00 on the first Saturday") {
  const posix_tz tz = tz_of("<-04>4<-03>,M9.1.6/24,M4.1.6/24");
  const int64_t end = utc(2026, 4, 5, 3, 0, 0);
  check_around(tz, end, "2026-04-04T23:59:59-03:00", "2026-04-04T23:00:00-04:00",
               "2026-04-04T23:00:01-04:00");

  const int64_t start = utc(2026, 9, 6, 4, 0, 0);
  check_around(tz, start, "2026-09-05T23:59:59-04:00", "2026-09-06T01:00:00-03:00",
               "2026-09-06T01:00:01-03:00");
  CHECK(local(tz, utc(2027, 1, 1, 2, 59, 59)) == "2026-12-31T23:59:59-03:00");
}

TEST_CASE("Europe/Dublin has negative DST: the daylight-saving period is winter") {
  const posix_tz tz = tz_of("IST-1GMT0,M10.5.0,M3.5.0/1");
  CHECK(local(tz, utc(2026, 1, 15, 12, 0, 0)) == "2026-01-15T12:00:00+00:00");
  CHECK(local(tz, utc(2026, 7, 15, 12, 0, 0)) == "2026-07-15T13:00:00+01:00");

  const int64_t spring = utc(2026, 3, 29, 1, 0, 0);
  check_around(tz, spring, "2026-03-29T00:59:59+00:00", "2026-03-29T02:00:00+01:00",
               "2026-03-29T02:00:01+01:00");

  const int64_t fall = utc(2026, 10, 25, 1, 0, 0);
  check_around(tz, fall, "2026-10-25T01:59:59+01:00", "2026-10-25T01:00:00+00:00",
               "2026-10-25T01:00:01+00:00");
  CHECK(lq::transitions_in_year(tz, 2026) == std::vector<int64_t>{spring, fall});
}

TEST_CASE("America/Nuuk changes at -01:00 and 00:00 local time") {
  const posix_tz tz = tz_of("<-02>2<-01>,M3.5.0/-1,M10.5.0/0");
  // -1:00 on Sunday March 29 is 23:00 on Saturday March 28.
  const int64_t spring = utc(2026, 3, 29, 1, 0, 0);
  check_around(tz, spring, "2026-03-28T22:59:59-02:00", "2026-03-29T00:00:00-01:00",
               "2026-03-29T00:00:01-01:00");

  const int64_t fall = utc(2026, 10, 25, 1, 0, 0);
  check_around(tz, fall, "2026-10-24T23:59:59-01:00", "2026-10-24T23:00:00-02:00",
               "2026-10-24T23:00:01-02:00");
  CHECK(lq::local_time_at(tz, fall).weekday == 6);
}

TEST_CASE("Asia/Jerusalem starts DST at 26:00 on the fourth Thursday") {
  const posix_tz tz = tz_of("IST-2IDT,M3.4.4/26,M10.5.0");
  // Thursday March 26, 26:00 IST is Friday March 27, 02:00 IST.
  const int64_t spring = utc(2026, 3, 27, 0, 0, 0);
  check_around(tz, spring, "2026-03-27T01:59:59+02:00", "2026-03-27T03:00:00+03:00",
               "2026-03-27T03:00:01+03:00");
  CHECK(lq::local_time_at(tz, spring).weekday == 5);

  const int64_t fall = utc(2026, 10, 24, 23, 0, 0);
  check_around(tz, fall, "2026-10-25T01:59:59+03:00", "2026-10-25T01:00:00+02:00",
               "2026-10-25T01:00:01+02:00");
}

TEST_CASE("Asia/Kolkata has a half-hour offset and no transitions") {
  const posix_tz tz = tz_of("IST-5:30");
  CHECK(local(tz, utc(2026, 12, 31, 18, 29, 59)) == "2026-12-31T23:59:59+05:30");
  CHECK(local(tz, utc(2026, 12, 31, 18, 30, 0)) == "2027-01-01T00:00:00+05:30");
  CHECK(lq::transitions_in_year(tz, 2026).empty());
}

TEST_CASE("all-year DST keeps the DST offset and has no transitions") {
  // RFC 8536 3.3.1: DST from January 1 00:00 to December 31 24:00 plus the DST shift.
  const posix_tz tz = tz_of("EST5EDT,0/0,J365/25");
  for (const int64_t year : {2026, 2027, 2028, 2100}) {
    INFO("year " << year);
    CHECK(lq::transitions_in_year(tz, year).empty());
    const int64_t jan1 = utc(year, 1, 1, 5, 0, 0);
    for (const int64_t t :
         {jan1 - 1, jan1, jan1 + 1, utc(year, 7, 1, 0, 0, 0), utc(year, 12, 31, 23, 59, 59)}) {
      CHECK(lq::utc_offset_at(tz, t) == -14400);
    }
  }
  CHECK(local(tz, utc(2027, 1, 1, 3, 59, 59)) == "2026-12-31T23:59:59-04:00");

  SECTION("also east of UTC") {
    const posix_tz east = tz_of("<+03>-3<+04>,0/0,J365/25");
    CHECK(lq::utc_offset_at(east, utc(2026, 12, 31, 20, 0, 0)) == 4 * 3600);
    CHECK(lq::utc_offset_at(east, utc(2028, 2, 29, 12, 0, 0)) == 4 * 3600);
    CHECK(lq::transitions_in_year(east, 2028).empty());
  }
}

TEST_CASE("Jn days never count February 29 but zero-based days do") {
  const posix_tz julian = tz_of("AAA0BBB-1,J60/0,J300/0");
  const posix_tz zero_based = tz_of("AAA0BBB-1,59/0,299/0");
  // 2027 is a common year: J60 and day 59 are both March 1.
  CHECK(lq::transitions_in_year(julian, 2027).front() == utc(2027, 3, 1, 0, 0, 0));
  CHECK(lq::transitions_in_year(zero_based, 2027).front() == utc(2027, 3, 1, 0, 0, 0));
  // 2028 is a leap year: J60 is still March 1, day 59 is February 29.
  CHECK(lq::transitions_in_year(julian, 2028).front() == utc(2028, 3, 1, 0, 0, 0));
  CHECK(lq::transitions_in_year(zero_based, 2028).front() == utc(2028, 2, 29, 0, 0, 0));
  // The end is given in daylight time (+1), so 00:00 local is 23:00 UTC the day before.
  CHECK(lq::transitions_in_year(julian, 2028).back() == utc(2028, 10, 26, 23, 0, 0));
  CHECK(lq::transitions_in_year(zero_based, 2028).back() == utc(2028, 10, 25, 23, 0, 0));
}

TEST_CASE("transitions_in_year counts by the UTC calendar year") {
  // DST starts at local midnight of January 1 (+14), which is still December 31 in UTC.
  const posix_tz tz = tz_of("<+14>-14<+15>,J1/0,J200/0");
  CHECK(lq::transitions_in_year(tz, 2027) ==
        std::vector<int64_t>{utc(2027, 7, 18, 9, 0, 0), utc(2027, 12, 31, 10, 0, 0)});
  CHECK(local(tz, utc(2027, 12, 31, 10, 0, 0)) == "2028-01-01T01:00:00+15:00");
  CHECK(local(tz, utc(2027, 12, 31, 9, 59, 59)) == "2027-12-31T23:59:59+14:00");

  SECTION("and a transition pushed 167 hours into the next year still counts there") {
    const posix_tz late = tz_of("AAA0BBB-1,M3.5.0,M12.5.0/167");
    const std::vector<int64_t> year_2026 = lq::transitions_in_year(late, 2026);
    const std::vector<int64_t> year_2027 = lq::transitions_in_year(late, 2027);
    // Each year opens with the previous year's end: the last Sunday of December + 167h.
    REQUIRE(year_2026.size() == 2);
    REQUIRE(year_2027.size() == 2);
    CHECK(year_2026.front() == utc(2026, 1, 3, 22, 0, 0));  // Sun Dec 28 + 167h, DST (+1)
    CHECK(year_2027.front() == utc(2027, 1, 2, 22, 0, 0));  // Sun Dec 27 + 167h, DST (+1)
    CHECK(lq::utc_offset_at(late, utc(2027, 1, 1, 0, 0, 0)) == 3600);
    CHECK(lq::utc_offset_at(late, utc(2027, 1, 2, 22, 0, 0)) == 0);
  }
}

TEST_CASE("instants at the ends of int64 do not overflow") {
  const posix_tz tz = tz_of("EST5EDT,M3.2.0,M11.1.0");
  for (const int64_t t :
       {std::numeric_limits<int64_t>::min(), std::numeric_limits<int64_t>::max()}) {
    const int32_t offset = lq::utc_offset_at(tz, t);
    CHECK((offset == -18000 || offset == -14400));
    CHECK(lq::local_time_at(tz, t).month >= 1);
  }
  CHECK(lq::transitions_in_year(tz, std::numeric_limits<int64_t>::max()).empty());
}
