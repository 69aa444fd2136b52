// lq::posix_tz_for_zone (include/lq/tzif.hpp) in the emulator: where the native service reads a
// zone's POSIX TZ rule from the system tzdata, the wasm runtime asks the JS runtime's Intl data
// through the package's own tzRuleFromIntl (web/account/intl_tz_rule.js), which gives the same
// offsets across every DST edge of this year and next (tests/package/account/intl_tz_rule.test.js).
// "This year" is the emulator's clock's. No tzdata file is read, so it works in browsers and
// workers.
#include <emscripten/emscripten.h>

#include <algorithm>
#include <string>
#include <vector>

#include "lq/time/tzif.hpp"

// The rule's length, written into `out` when it fits `capacity`; -1 for a zone Intl does not know.
EM_JS(int, lq_intl_tz_rule, (const char* zone, char* out, int capacity),
      { return Module.lqTzRule(UTF8ToString(zone), out, capacity); });

namespace lq {

std::optional<std::string> posix_tz_for_zone(std::string_view time_zone, const std::string&) {
  // The names the native reader takes (the characters of tzdata's file names, no `..`), no
  // others: Intl would also take `america/new_york`, which the native service refuses.
  const auto zone_char = [](char c) {
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '/' ||
           c == '_' || c == '-' || c == '+' || c == '.';
  };
  if (time_zone.empty() || time_zone.size() > 255 || time_zone.front() == '/' ||
      time_zone.find("..") != std::string_view::npos ||
      !std::all_of(time_zone.begin(), time_zone.end(), zone_char)) {
    return std::nullopt;
  }
  const std::string zone(time_zone);
  std::vector<char> rule(256);
  int length = lq_intl_tz_rule(zone.c_str(), rule.data(), static_cast<int>(rule.size()));
  if (length < 0) return std::nullopt;
  if (static_cast<size_t>(length) > rule.size()) {
    rule.resize(static_cast<size_t>(length));
    length = lq_intl_tz_rule(zone.c_str(), rule.data(), static_cast<int>(rule.size()));
  }
  return std::string(rule.data(), static_cast<size_t>(length));
}

}  // namespace lq
