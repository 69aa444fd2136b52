// Contract 3.3 (rule 9): what an offer takes off a basket, and the discount rule an offer's
// `type` / `item_kind` fold into.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

#include "model/basket_context.hpp"
#include "model/offer.hpp"
#include "model/reason.hpp"
#include "model/request.hpp"

namespace lq {

struct discount_outcome {
  int64_t cents = 0;
  std::optional<reason_code> zero_reason;  // why rule 9 fails, when cents == 0
};

/// The discount of `item` (global number `global`) on the basket, rounded to cents.
discount_outcome discount_of(const offer& item, uint32_t global, const basket_request& request,
                             const basket_context& context);

/// The rule of a record's `type` and, for `item`, `item_kind`; `unsupported` for any other.
discount_rule discount_rule_of(std::string_view type, std::string_view item_kind);

}  // namespace lq
