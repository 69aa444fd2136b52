// The service's notion of "now": the system clock, or a fixed instant for tests (--now).
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "lq/qualifier.hpp"

namespace lq::service {

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

/// `2026-11-24T13:15:00Z`, with `.mmm` when the instant has a sub-second part.
std::string format_rfc3339(instant t);

/// The instant `ms` milliseconds after the epoch.
instant instant_from_ms(int64_t ms);

}  // namespace lq::service
