// The explanation (contract section 4): every offer with its discount and every failing rule,
// and the best offer: the largest discount, ties broken by the offer order (model/offer_order.hpp).
#pragma once

#include <cstdint>

#include "lq/answers/explanation.hpp"
#include "lq/request.hpp"
#include "lq/time/instant.hpp"
#include "model/snapshot.hpp"

namespace lq {

/// Every offer with its discount and every failing rule.
explain_result explain(const snapshot& snap, const basket_request& request, instant now);

/// How offer `number` fares: its entry of explain().
explanation explain_offer(const snapshot& snap, const basket_request& request, instant now,
                          uint32_t number);

}  // namespace lq
