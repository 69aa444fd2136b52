// The reason phrase of a status line, for the responses the front writes itself (the refusals
// of the connection layer, the emulator's framing errors).
#pragma once

namespace lq::front {

/// The status line's reason phrase for the statuses the service sends ("Error" for others).
const char* reason_phrase_of(int status);

}  // namespace lq::front
