// The engine's POSIX TZ evaluation against glibc for every zone of the system tzdata, and the
// native TZif reader that takes the footers from it. Linux/glibc only.
#include <catch2/catch.hpp>

#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

#include "base/posix_tz.hpp"
#include "lq/time/civil_time.hpp"
#include "lq/time/tzif.hpp"

namespace {

const char* const kZoneinfoDir = "/usr/share/zoneinfo";

// Puts TZ back as it was (set or unset) when the test ends, pass or fail.
class tz_environment_guard {
 public:
  tz_environment_guard() {
    if (const char* tz = std::getenv("TZ")) saved_ = tz;
  }
  ~tz_environment_guard() {
    if (saved_) {
      setenv("TZ", saved_->c_str(), 1);
    } else {
      unsetenv("TZ");
    }
    tzset();
  }
  tz_environment_guard(const tz_environment_guard&) = delete;
  tz_environment_guard& operator=(const tz_environment_guard&) = delete;

 private:
  std::optional<std::string> saved_;
};

struct zone_file {
  std::string name;  // e.g. America/New_York
  std::string path;
};

// Every regular file (or link to one) under the zoneinfo directory, except the posix/ and
// right/ trees, which repeat the zones (right/ with leap seconds that POSIX TZ cannot express).
std::vector<zone_file> zone_files() {
  namespace fs = std::filesystem;
  std::vector<zone_file> files;
  std::error_code error;
  fs::recursive_directory_iterator it(kZoneinfoDir, error);
  for (const fs::recursive_directory_iterator end; !error && it != end; it.increment(error)) {
    const fs::path relative = it->path().lexically_relative(kZoneinfoDir);
    if (it.depth() == 0 && (relative == "posix" || relative == "right")) {
      it.disable_recursion_pending();
      continue;
    }
    std::error_code type_error;
    if (!it->is_regular_file(type_error)) continue;
    files.push_back({relative.generic_string(), it->path().string()});
  }
  std::sort(files.begin(), files.end(),
            [](const zone_file& a, const zone_file& b) { return a.name < b.name; });
  return files;
}

int64_t utc(int64_t year, int month, int day, int hour) {
  return lq::days_from_civil(year, month, day) * 86400 + int64_t{hour} * 3600;
}

// The instants to compare in one zone: around each transition, plus mid-winter and mid-summer.
std::vector<int64_t> probe_instants(const lq::posix_tz& tz, int64_t first_year, int64_t last_year) {
  std::vector<int64_t> instants;
  for (int64_t year = first_year; year <= last_year; ++year) {
    for (const int64_t at : lq::transitions_in_year(tz, year)) {
      for (const int64_t delta : {-3601, -1, 0, 1, 3600}) instants.push_back(at + delta);
    }
    instants.push_back(utc(year, 1, 15, 12));
    instants.push_back(utc(year, 7, 15, 12));
  }
  return instants;
}

std::string describe(int64_t year, int month, int day, int hour, int minute, int second,
                     int weekday, int yearday, long offset) {
  std::ostringstream out;
  out << year << '-' << month << '-' << day << ' ' << hour << ':' << minute << ':' << second
      << " wday=" << weekday << " yday=" << yearday << " gmtoff=" << offset;
  return out.str();
}

struct comparison_tally {
  int zones = 0;
  int zones_with_dst = 0;
  long comparisons = 0;
  long at_transitions = 0;
  long skipped = 0;
  long mismatches = 0;
  std::ostringstream first_mismatches;
};

// Compares engine and glibc (under the TZ value already set) at each instant after `skip_until`.
void compare_zone(const std::string& zone, const lq::posix_tz& tz, const std::string& footer,
                  const std::vector<int64_t>& instants, std::optional<int64_t> skip_until,
                  comparison_tally& tally) {
  long zone_comparisons = 0;
  for (const int64_t at : instants) {
    if (skip_until && at <= *skip_until) {
      ++tally.skipped;
      continue;
    }
    const time_t glibc_time = static_cast<time_t>(at);
    struct tm glibc {};
    if (localtime_r(&glibc_time, &glibc) == nullptr) {
      FAIL_CHECK("glibc localtime_r failed for " << zone << " at " << at);
      continue;
    }
    const lq::civil_time engine = lq::local_time_at(tz, at);
    const int32_t engine_offset = lq::utc_offset_at(tz, at);
    ++zone_comparisons;
    if (engine_offset != lq::utc_offset_at(tz, at - 1)) ++tally.at_transitions;

    const bool same = engine.year == glibc.tm_year + 1900 && engine.month == glibc.tm_mon + 1 &&
                      engine.day == glibc.tm_mday && engine.hour == glibc.tm_hour &&
                      engine.minute == glibc.tm_min && engine.second == glibc.tm_sec &&
                      engine.weekday == glibc.tm_wday && engine.yearday == glibc.tm_yday &&
                      engine_offset == glibc.tm_gmtoff;
    if (!same && ++tally.mismatches <= 20) {
      tally.first_mismatches << zone << " (" << footer << ") at " << at << ": engine "
                             << describe(engine.year, engine.month, engine.day, engine.hour,
                                         engine.minute, engine.second, engine.weekday,
                                         engine.yearday, engine_offset)
                             << ", glibc "
                             << describe(glibc.tm_year + 1900, glibc.tm_mon + 1, glibc.tm_mday,
                                         glibc.tm_hour, glibc.tm_min, glibc.tm_sec, glibc.tm_wday,
                                         glibc.tm_yday, glibc.tm_gmtoff)
                             << '\n';
    }
  }
  if (zone_comparisons > 0) {
    ++tally.zones;
    if (tz.has_dst) ++tally.zones_with_dst;
  }
  tally.comparisons += zone_comparisons;
}

// Runs `compare` (which sets TZ and calls compare_zone) for each zone file with a footer.
template <typename Compare>
comparison_tally compare_all_zones(Compare compare) {
  const std::vector<zone_file> files = zone_files();
  REQUIRE(!files.empty());
  const tz_environment_guard restore_tz;
  comparison_tally tally;
  for (const zone_file& file : files) {
    const auto info = lq::read_tzif(file.path);
    if (!info || info->footer.empty()) continue;  // not TZif (zone.tab, ...) or no footer
    const auto tz = lq::parse_posix_tz(info->footer);
    INFO("zone " << file.name << ", footer " << info->footer);
    CHECK(tz.has_value());
    if (tz) compare(file, *info, *tz, tally);
  }
  return tally;
}

void require_thorough(const comparison_tally& tally) {
  INFO("first mismatches:\n" << tally.first_mismatches.str());
  CHECK(tally.mismatches == 0);
  // Guard against a vacuous pass (no tzdata, a broken walk, everything skipped).
  REQUIRE(tally.zones >= 300);
  REQUIRE(tally.zones_with_dst >= 50);
  REQUIRE(tally.comparisons >= 10000);
  REQUIRE(tally.at_transitions >= 1000);
  SUCCEED("zones " << tally.zones << " (with DST " << tally.zones_with_dst << "), comparisons "
                   << tally.comparisons << " (" << tally.at_transitions
                   << " at transitions), skipped " << tally.skipped);
}

}  // namespace

// glibc reads the TZif file and switches to the footer after the last explicit transition.
// In "fat" tzdata builds the explicit data runs to 2037 (or 2038-01-19, or 2087 for
// Africa/Casablanca), so the window reaches past it.
TEST_CASE("after its explicit transitions every tzdata zone follows its footer as in glibc") {
  const comparison_tally tally =
      compare_all_zones([](const zone_file& file, const lq::tzif_info& info, const lq::posix_tz& tz,
                           comparison_tally& out) {
        const std::string tz_value = ":" + file.path;
        setenv("TZ", tz_value.c_str(), 1);
        tzset();
        compare_zone(file.name, tz, info.footer, probe_instants(tz, 2026, 2049),
                     info.last_transition, out);
      });
  require_thorough(tally);
}

// The footer string handed to glibc's own TZ parser: no explicit data, so 2026 to 2037 as is,
// plus noon UTC of every fifth day so that a transition the engine missed cannot go unnoticed
// (no DST period in tzdata is that short).
TEST_CASE("every tzdata footer gives the same local time as glibc's TZ parser, 2026 to 2037") {
  const comparison_tally tally =
      compare_all_zones([](const zone_file& file, const lq::tzif_info& info, const lq::posix_tz& tz,
                           comparison_tally& out) {
        setenv("TZ", info.footer.c_str(), 1);
        tzset();
        std::vector<int64_t> instants = probe_instants(tz, 2026, 2037);
        for (int64_t day = lq::days_from_civil(2026, 1, 1); day < lq::days_from_civil(2038, 1, 1);
             day += 5) {
          instants.push_back(day * 86400 + int64_t{12} * 3600);
        }
        compare_zone(file.name, tz, info.footer, instants, std::nullopt, out);
      });
  require_thorough(tally);
}

TEST_CASE("posix_tz_for_zone gives the footer of a system zone") {
  CHECK(lq::posix_tz_for_zone("America/New_York") ==
        std::optional<std::string>("EST5EDT,M3.2.0,M11.1.0"));
  CHECK(lq::posix_tz_for_zone("Asia/Kolkata") == std::optional<std::string>("IST-5:30"));
  CHECK_FALSE(lq::posix_tz_for_zone("Nowhere/Atlantis").has_value());
  CHECK_FALSE(lq::posix_tz_for_zone("zone.tab").has_value());  // exists, but not TZif
  CHECK_FALSE(lq::posix_tz_for_zone("America").has_value());   // a directory
}

TEST_CASE("zone names that could leave the zoneinfo directory are refused") {
  for (const char* name : {"", "/etc/localtime", "../zoneinfo/UTC", "America/../UTC", "..",
                           "America/New York", "UTC\n"}) {
    INFO("name \"" << name << "\"");
    CHECK_FALSE(lq::posix_tz_for_zone(name).has_value());
  }
  CHECK_FALSE(lq::posix_tz_for_zone(std::string_view("UTC\0x", 5)).has_value());
}

TEST_CASE("read_tzif rejects truncated and foreign files") {
  const std::string source = std::string(kZoneinfoDir) + "/America/New_York";
  std::ifstream in(source, std::ios::binary);
  const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  REQUIRE(bytes.size() > 100);
  const auto whole = lq::read_tzif(source);
  REQUIRE(whole.has_value());
  CHECK(whole->version >= 2);
  CHECK(whole->footer == "EST5EDT,M3.2.0,M11.1.0");
  CHECK(whole->last_transition.has_value());

  const std::string path =
      (std::filesystem::temp_directory_path() / ("lq_tzif_test_" + std::to_string(getpid())))
          .string();
  const auto write = [&path](const std::string& content) {
    std::ofstream(path, std::ios::binary | std::ios::trunc) << content;
  };
  for (const std::size_t length : {std::size_t{0}, std::size_t{4}, std::size_t{43}, std::size_t{44},
                                   bytes.size() / 2, bytes.size() - 1}) {
    INFO("first " << length << " bytes");
    write(bytes.substr(0, length));
    CHECK_FALSE(lq::read_tzif(path).has_value());
  }
  write("TZjf" + bytes.substr(4));
  CHECK_FALSE(lq::read_tzif(path).has_value());
  write(bytes);
  CHECK(lq::read_tzif(path).has_value());
  std::filesystem::remove(path);
}
