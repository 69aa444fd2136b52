// The output order of offers: rewards are listed in the offer order, which also breaks ties for
// the best offer; points products by their cost.
#pragma once

#include "model/offer.hpp"

namespace lq {

/// The offer order: earliest retire_at first (none last), then id. Rewards are listed in it,
/// and among offers of equal discount the best is the first in it.
bool expires_before(const offer& a, const offer& b);

/// The order points products are listed in: fewest points first, then id.
bool costs_fewer_points(const offer& a, const offer& b);

}  // namespace lq
