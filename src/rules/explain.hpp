// The explanation (contract section 4): every offer with its discount and every failing rule,
// and the best offer: the largest discount, ties broken by the offer order (model/offer_order.hpp).
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "lq/instant.hpp"
#include "model/offer.hpp"
#include "lq/reason.hpp"
#include "lq/request.hpp"
#include "model/snapshot.hpp"

namespace lq {

struct explanation {
  offer_kind kind = offer_kind::reward;
  uint32_t index = 0;  // into the snapshot list of its kind
  bool qualifies = false;
  int64_t discount_cents = 0;
  std::vector<reason> reasons;
};

struct explain_result {
  std::vector<explanation> entries;  // rewards in output order, then points products
  std::optional<uint32_t> best;      // index into entries
};

/// Every offer with its discount and every failing rule.
explain_result explain(const snapshot& snap, const basket_request& request, instant now);

}  // namespace lq
