// Where an offer may be redeemed and where a basket is: the request's `redemption_venue`.
#pragma once

#include <cstdint>

namespace lq {

/// `unknown` is a venue this engine does not know (it matches none).
enum class venue : uint8_t { instore, online, all, unknown };

}  // namespace lq
