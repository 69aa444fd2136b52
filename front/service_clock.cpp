#include "front/service_clock.hpp"

#include <chrono>
#include <cstdio>

#include "lq/time/civil_time.hpp"

namespace lq::service {

instant service_clock::now() const {
  return fixed_ ? *fixed_ : instant_from_ms(wall_ms());
}

int64_t service_clock::wall_ms() {
  using namespace std::chrono;
  return duration_cast<milliseconds>(system_clock::now().time_since_epoch()).count();
}

instant instant_from_ms(int64_t ms) {
  int64_t seconds = ms / 1000;
  int64_t rest = ms % 1000;
  if (rest < 0) {
    rest += 1000;
    --seconds;
  }
  return instant{seconds, static_cast<int32_t>(rest * 1'000'000)};
}

std::string format_rfc3339(instant t) {
  const civil_time c = civil_from_seconds(t.seconds);
  char text[40];
  const int millis = t.nanos / 1'000'000;
  if (millis != 0) {
    std::snprintf(text, sizeof text, "%04lld-%02d-%02dT%02d:%02d:%02d.%03dZ",
                  static_cast<long long>(c.year), c.month, c.day, c.hour, c.minute, c.second,
                  millis);
  } else {
    std::snprintf(text, sizeof text, "%04lld-%02d-%02dT%02d:%02d:%02dZ",
                  static_cast<long long>(c.year), c.month, c.day, c.hour, c.minute, c.second);
  }
  return text;
}

}  // namespace lq::service
