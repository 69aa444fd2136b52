// The qualifying set (API spec 2.2) as indices into the snapshot's lists.
#pragma once

#include <cstdint>
#include <vector>

namespace lq {

/// Indices into the snapshot's rewards / points products, in output order
/// (qualifier::offer_number turns one into an offer number).
struct qualify_result {
  std::vector<uint32_t> rewards;
  std::vector<uint32_t> points_products;
};

}  // namespace lq
