// RFC 3339 instants (instant.hpp): `Z`/`z` or ±HH:MM offsets, optional fraction, real dates only.
#include <catch2/catch.hpp>

#include <cstdint>
#include <string>

#include "lq/time/instant.hpp"

namespace {

/// "seconds.nanos" or "nullopt", for readable failures.
std::string parsed(const std::string& text) {
  const auto t = lq::parse_rfc3339(text);
  if (!t) return "nullopt";
  return std::to_string(t->seconds) + "." + std::to_string(t->nanos);
}

constexpr int64_t kMarch2At9 = 1772442000;  // 2026-03-02T09:00:00Z

}  // namespace

TEST_CASE("RFC 3339 instants in UTC, with Z or z") {
  CHECK(parsed("1970-01-01T00:00:00Z") == "0.0");
  CHECK(parsed("2026-03-02T09:00:00Z") == std::to_string(kMarch2At9) + ".0");
  CHECK(parsed("2026-03-02T09:00:00z") == std::to_string(kMarch2At9) + ".0");
  CHECK(parsed("1969-12-31T23:59:59Z") == "-1.0");
  CHECK(parsed("2024-02-29T12:00:00Z") == "1709208000.0");
  CHECK(parsed("0001-01-01T00:00:00Z") == "-62135596800.0");
  CHECK(parsed("9999-12-31T23:59:59Z") == "253402300799.0");
}

TEST_CASE("RFC 3339 offsets are subtracted to get the instant") {
  const std::string nine_utc = std::to_string(kMarch2At9) + ".0";
  CHECK(parsed("2026-03-02T10:00:00+01:00") == nine_utc);
  CHECK(parsed("2026-03-02T14:30:00+05:30") == nine_utc);
  CHECK(parsed("2026-03-02T03:30:00-05:30") == nine_utc);
  CHECK(parsed("2026-03-01T23:00:00-10:00") == nine_utc);
  CHECK(parsed("2026-03-03T08:59:00+23:59") == nine_utc);
  CHECK(parsed("2026-03-02T09:00:00+00:00") == nine_utc);
  CHECK(parsed("2026-03-02T09:00:00-00:00") == nine_utc);
}

TEST_CASE("RFC 3339 fractions of a second") {
  CHECK(parsed("1970-01-01T00:00:01.5Z") == "1.500000000");
  CHECK(parsed("1970-01-01T00:00:01.123456789Z") == "1.123456789");
  CHECK(parsed("1970-01-01T00:00:01.000000001Z") == "1.1");
  CHECK(parsed("1970-01-01T00:00:01.0Z") == "1.0");
  CHECK(parsed("2026-03-01T23:59:59.250-10:00") ==
        std::to_string(kMarch2At9 + 3599) + ".250000000");
  CHECK(parsed("1969-12-31T23:59:59.5Z") == "-1.500000000");
}

TEST_CASE("RFC 3339 fractions longer than nanoseconds are accepted") {
  const auto t = lq::parse_rfc3339("1970-01-01T00:00:01.123456789012Z");
  REQUIRE(t.has_value());
  CHECK(t->seconds == 1);
  CHECK(t->nanos >= 123456789);
  CHECK(t->nanos <= 123456790);
}

TEST_CASE("dates that do not exist are rejected") {
  for (const char* bad : {
           "2026-02-30T00:00:00Z",
           "2026-02-29T00:00:00Z",  // 2026 is not a leap year
           "1900-02-29T00:00:00Z",  // nor is 1900
           "2026-04-31T00:00:00Z",
           "2026-13-01T00:00:00Z",
           "2026-00-10T00:00:00Z",
           "2026-01-00T00:00:00Z",
           "2026-01-32T00:00:00Z",
           "2026-03-02T24:00:00Z",
           "2026-03-02T09:60:00Z",
           "2026-03-02T09:00:61Z",
           "2026-03-02T09:00:00+24:00",
           "2026-03-02T09:00:00+05:60",
       }) {
    INFO("input: " << bad);
    CHECK_FALSE(lq::parse_rfc3339(bad).has_value());
  }
  CHECK(lq::parse_rfc3339("2000-02-29T00:00:00Z").has_value());
}

TEST_CASE("malformed timestamps are rejected") {
  for (const char* bad : {
           "",
           "02/03/2026",
           "2026-03-02",
           "2026-03-02T09:00:00",  // no offset
           "2026-03-02T09:00Z",    // no seconds
           "2026-3-2T09:00:00Z",
           "2026-03-02T9:00:00Z",
           "26-03-02T09:00:00Z",
           "+2026-03-02T09:00:00Z",
           "20260302T090000Z",
           "2026-03-02X09:00:00Z",
           "2026-03-02T09:00:00+0100",
           "2026-03-02T09:00:00+01",
           "2026-03-02T09:00:00+1:00",
           "2026-03-02T09:00:00.Z",
           "2026-03-02T09:00:00,5Z",
           "2026-03-02T09:00:00ZZ",
           "2026-03-02T09:00:00Z ",
           " 2026-03-02T09:00:00Z",
           "2026-03-02T09:00:00UTC",
           "2026-03-02T09:00:00GMT+1",
           "2026-03-02T09:00:00+01:00Z",
           "2026-O3-02T09:00:00Z",
           "1772442000",
       }) {
    INFO("input: '" << bad << "'");
    CHECK_FALSE(lq::parse_rfc3339(bad).has_value());
  }
}

TEST_CASE("instants compare as time") {
  const auto a = lq::parse_rfc3339("2026-03-02T10:00:00+02:00");  // 08:00Z
  const auto b = lq::parse_rfc3339("2026-03-02T09:00:00Z");
  const auto c = lq::parse_rfc3339("2026-03-02T09:00:00.5Z");
  REQUIRE(a);
  REQUIRE(b);
  REQUIRE(c);
  CHECK(*a < *b);
  CHECK(*b < *c);
  CHECK(*c > *a);
  CHECK(*a <= *a);
  CHECK(*a >= *a);
  CHECK(*b != *c);
  CHECK(*lq::parse_rfc3339("2026-03-02T11:00:00+02:00") == *b);
}

TEST_CASE("a JS Date's milliseconds convert to an instant") {
  const lq::instant nine = lq::instant_from_unix_ms(1772442000000.0);
  CHECK(nine.seconds == kMarch2At9);
  CHECK(nine.nanos == 0);
  const lq::instant later = lq::instant_from_unix_ms(1500.0);
  CHECK(later.seconds == 1);
  CHECK(later.nanos == 500000000);
  const lq::instant before_epoch = lq::instant_from_unix_ms(-1500.0);
  CHECK(before_epoch.seconds == -2);
  CHECK(before_epoch.nanos == 500000000);
}

TEST_CASE("an instant is written in RFC 3339, UTC, the fraction exact without trailing zeros") {
  CHECK(lq::format_rfc3339(lq::instant{kMarch2At9, 0}) == "2026-03-02T09:00:00Z");
  CHECK(lq::format_rfc3339(lq::instant{kMarch2At9, 500000000}) == "2026-03-02T09:00:00.5Z");
  CHECK(lq::format_rfc3339(lq::instant{kMarch2At9, 123456789}) == "2026-03-02T09:00:00.123456789Z");
  CHECK(lq::format_rfc3339(lq::instant{-2, 500000000}) == "1969-12-31T23:59:58.5Z");
  const auto read = lq::parse_rfc3339("2026-03-02T11:00:00.000120+02:00");
  REQUIRE(read);
  CHECK(lq::format_rfc3339(*read) == "2026-03-02T09:00:00.00012Z");
  CHECK(*lq::parse_rfc3339(lq::format_rfc3339(*read)) == *read);
}

TEST_CASE("the servers' times are written to the millisecond, .mmm only when there is one") {
  CHECK(lq::format_rfc3339_ms(lq::instant{kMarch2At9, 0}) == "2026-03-02T09:00:00Z");
  CHECK(lq::format_rfc3339_ms(lq::instant{kMarch2At9, 500000000}) == "2026-03-02T09:00:00.500Z");
  CHECK(lq::format_rfc3339_ms(lq::instant{kMarch2At9, 999999}) == "2026-03-02T09:00:00Z");
  CHECK(lq::format_rfc3339_ms(lq::instant_from_unix_ms(1772442000123.0)) ==
        "2026-03-02T09:00:00.123Z");
  CHECK(lq::format_rfc3339_ms(lq::instant_from_unix_ms(-1500.0)) == "1969-12-31T23:59:58.500Z");
}
