// The explanation (contract section 4) as values: how each offer fares on a basket, and the best.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "lq/answers/offer_ref.hpp"
#include "lq/answers/reason.hpp"

namespace lq {

/// How one offer fares on one basket: one entry of the explanation.
struct explanation {
  offer_kind kind = offer_kind::reward;
  uint32_t number = 0;  // the offer number (qualifier::offer_number)
  std::string_view id;  // a view into the loaded snapshot, valid until the next load
  bool qualifies = false;
  int64_t discount_cents = 0;   // what it would give, rounded, even when it does not qualify
  std::vector<reason> reasons;  // every failing rule; empty exactly when it qualifies
};

struct explain_result {
  std::vector<explanation> entries;  // every offer, by offer number
  std::optional<uint32_t> best;  // index into entries: the largest discount, ties by offer order
};

}  // namespace lq
