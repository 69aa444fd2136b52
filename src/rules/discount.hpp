// Contract 3.3 (rule 9): what an offer takes off a basket.
#pragma once

#include <cstdint>
#include <optional>

#include "lq/answers/reason.hpp"
#include "lq/request.hpp"
#include "model/basket_context.hpp"
#include "model/offer.hpp"

namespace lq {

struct discount_outcome {
  int64_t cents = 0;
  std::optional<reason_code> zero_reason;  // why rule 9 fails, when cents == 0
};

/// The discount of `item` (global number `global`) on the basket, rounded to cents.
discount_outcome discount_of(const offer& item, uint32_t global, const basket_request& request,
                             const basket_context& context);

}  // namespace lq
