// The numbers and durations of the native servers' command lines (the loyalty service's and the
// store hub's).
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace lq::front {

/// A decimal integer from 0 to 65535 (a port, or a count checked further by the caller).
std::optional<int> parse_port(const std::string& text);

/// Non-negative seconds with an optional fraction ("900", "0.5"), to whole milliseconds.
std::optional<int64_t> parse_seconds_ms(const std::string& text);

/// A duration as the command line takes it: whole seconds with an optional unit, `s`, `m`, `h`
/// or `d` (`604800`, `7d`, `36h`, `90m`), from 1 s to 3650 d; nullopt otherwise.
std::optional<int64_t> parse_duration_ms(const std::string& text);

/// `7 days`, `36 hours`, `90 minutes`, `45 seconds`: the largest whole unit.
std::string describe_duration(int64_t ms);

}  // namespace lq::front
