// The emulator's one clock. Every time the service and the hub read in the wasm build (the C
// library's clock_gettime(CLOCK_REALTIME), gettimeofday and time, so std::chrono::system_clock
// too) is the instant the JS side set for the request in progress, read from the `now` clock
// createEmulator was given: a test moves that clock and a purchase lands, without waiting.
#pragma once

#include <cstdint>

namespace lq::emulator {

/// The instant (milliseconds since the epoch) every wall-clock read returns until the next call.
void set_now_ms(int64_t ms);

}  // namespace lq::emulator
