// What every fuzz target shares: a check that stops the run (a crash libFuzzer reports and
// saves), the pinned clock, and a JSON nesting-depth scan for the differential checks.
#pragma once

#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <string_view>

#include "lq/time/instant.hpp"

namespace lq_fuzz {

[[noreturn]] inline void violated(const char* what, const char* file, int line) {
  std::fprintf(stderr, "fuzz check failed: %s (%s:%d)\n", what, file, line);
  std::abort();
}

/// The instant every target uses when a request has no order_timestamp.
inline lq::instant fixed_now() {
  return lq::instant{1772442000, 0};  // 2026-03-02T09:00:00Z
}

/// The deepest nesting of arrays and objects in a JSON-like text (strings skipped).
inline int nesting_depth(std::string_view text) {
  int depth = 0;
  int deepest = 0;
  bool in_string = false;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (in_string) {
      if (c == '\\') {
        ++i;
      } else if (c == '"') {
        in_string = false;
      }
    } else if (c == '"') {
      in_string = true;
    } else if (c == '{' || c == '[') {
      if (++depth > deepest) deepest = depth;
    } else if (c == '}' || c == ']') {
      --depth;
    }
  }
  return deepest;
}

}  // namespace lq_fuzz

#define LQ_FUZZ_CHECK(condition)                                           \
  do {                                                                     \
    if (!(condition)) ::lq_fuzz::violated(#condition, __FILE__, __LINE__); \
  } while (0)
