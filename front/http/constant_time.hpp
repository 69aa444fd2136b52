// Comparing a presented secret (a token, a merchant key, a store key) with the expected one in
// constant time: the loyalty service's credentials and the store hub's key.
#pragma once

#include <string_view>

namespace lq::front {

/// Equality whose running time depends only on the length of `presented`, not on where the
/// two differ nor on which of them is longer. False when `expected` is empty.
bool constant_time_equal(std::string_view presented, std::string_view expected);

}  // namespace lq::front
