#include "front/http/constant_time.hpp"

#include <cstddef>

namespace lq::front {

bool constant_time_equal(std::string_view presented, std::string_view expected) {
  if (expected.empty()) return false;
  // Walk the presented value once, reading the expected one cyclically, so neither the
  // position of the first difference nor the expected length shows in the timing.
  volatile unsigned char diff = presented.size() != expected.size() ? 1 : 0;
  for (size_t i = 0; i < presented.size(); ++i) {
    diff = diff | static_cast<unsigned char>(presented[i] ^ expected[i % expected.size()]);
  }
  return diff == 0;
}

}  // namespace lq::front
