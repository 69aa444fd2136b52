// The numbers of the native servers' command lines (the loyalty service's and the store hub's).
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace lq::service {

/// A decimal integer from 0 to 65535 (a port, or a count checked further by the caller).
std::optional<int> parse_port(const std::string& text);

/// Non-negative seconds with an optional fraction ("900", "0.5"), to whole milliseconds.
std::optional<int64_t> parse_seconds_ms(const std::string& text);

}  // namespace lq::service
