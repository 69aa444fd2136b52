// The qualifying set (API spec 2.2): the offers that pass every rule and give a discount.
#pragma once

#include "lq/answers/qualify_result.hpp"
#include "lq/request.hpp"
#include "lq/time/instant.hpp"
#include "model/snapshot.hpp"

namespace lq {

/// The qualifying rewards and points products for a basket at order time (request's, else `now`).
qualify_result qualify(const snapshot& snap, const basket_request& request, instant now);

}  // namespace lq
