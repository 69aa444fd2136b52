#include "emulator_clock.hpp"

#include <emscripten/emscripten.h>
#include <errno.h>
#include <sys/time.h>
#include <time.h>

namespace {

int64_t now_ms = 0;

}  // namespace

namespace lq::emulator {

void set_now_ms(int64_t ms) {
  now_ms = ms;
}

}  // namespace lq::emulator

// These definitions stand in for Emscripten's (JS library functions reading Date.now()): an
// object file's definition wins over the library's at link time. Monotonic time (durations in
// the access log) stays the runtime's own.
extern "C" {

int clock_gettime(clockid_t clock, struct timespec* tp) {
  int64_t ms = 0;
  if (clock == CLOCK_REALTIME) {
    ms = now_ms;
  } else if (clock == CLOCK_MONOTONIC || clock == CLOCK_MONOTONIC_RAW) {
    const double now = emscripten_get_now();
    tp->tv_sec = static_cast<time_t>(now / 1000);
    tp->tv_nsec = static_cast<long>((now - static_cast<double>(tp->tv_sec) * 1000) * 1e6);
    return 0;
  } else {
    errno = EINVAL;
    return -1;
  }
  int64_t seconds = ms / 1000;
  int64_t rest = ms % 1000;
  if (rest < 0) {
    rest += 1000;
    --seconds;
  }
  tp->tv_sec = static_cast<time_t>(seconds);
  tp->tv_nsec = static_cast<long>(rest * 1'000'000);
  return 0;
}

int gettimeofday(struct timeval* tv, void*) {
  struct timespec ts {};
  clock_gettime(CLOCK_REALTIME, &ts);
  tv->tv_sec = ts.tv_sec;
  tv->tv_usec = static_cast<suseconds_t>(ts.tv_nsec / 1000);
  return 0;
}

time_t time(time_t* out) {
  struct timespec ts {};
  clock_gettime(CLOCK_REALTIME, &ts);
  if (out) *out = ts.tv_sec;
  return ts.tv_sec;
}

}  // extern "C"
