#include "front/service_clock.hpp"

#include <chrono>

#include "lq/time/instant.hpp"

namespace lq::front {

instant service_clock::now() const {
  return fixed_ ? *fixed_ : instant_from_unix_ms(wall_ms());
}

int64_t service_clock::wall_ms() {
  using namespace std::chrono;
  return duration_cast<milliseconds>(system_clock::now().time_since_epoch()).count();
}

}  // namespace lq::front
