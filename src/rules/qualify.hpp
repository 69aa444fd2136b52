// The qualifying set (API spec 2.2): the offers that pass every rule and give a discount.
#pragma once

#include <cstdint>
#include <vector>

#include "lq/instant.hpp"
#include "lq/request.hpp"
#include "model/snapshot.hpp"

namespace lq {

/// Indices into snapshot.rewards / snapshot.points_products, in output order.
struct qualify_result {
  std::vector<uint32_t> rewards;
  std::vector<uint32_t> points_products;
};

/// The qualifying rewards and points products for a basket at order time (request's, else `now`).
qualify_result qualify(const snapshot& snap, const basket_request& request, instant now);

}  // namespace lq
