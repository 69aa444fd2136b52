// The service's notion of "now": the system clock, or a fixed instant for tests (--now).
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "lq/time/instant.hpp"

namespace lq::front {

class service_clock {
 public:
  explicit service_clock(std::optional<instant> fixed = std::nullopt) : fixed_(fixed) {}

  /// The order time of a request without order_timestamp, and of generated_at.
  instant now() const;
  /// Real milliseconds since the epoch; processing delays always run on real time.
  static int64_t wall_ms();

 private:
  std::optional<instant> fixed_;
};

}  // namespace lq::front
