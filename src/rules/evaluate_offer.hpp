// Whether one offer qualifies on a basket: it passes every rule (eligibility) and its discount,
// rounded to cents, is above zero (rule 9). The one place qualify, explain and the service's
// basket check decide it. Inline: qualify calls it per offer, and a call more per offer costs
// qualify 3 % (bench/callgrind.sh L qualify).
#pragma once

#include <cstdint>
#include <vector>

#include "lq/answers/reason.hpp"
#include "lq/request.hpp"
#include "model/basket_context.hpp"
#include "model/offer.hpp"
#include "rules/discount.hpp"
#include "rules/eligibility.hpp"

namespace lq {

struct offer_evaluation {
  bool qualifies = false;
  int64_t discount_cents = 0;  // rounded; 0 when it does not qualify and no reasons were asked for
};

/// Evaluates `item` (global number `global`). With `reasons`, appends every failing reason (the
/// rules', then the discount's) and always computes the discount; without, stops at the first
/// failing rule.
inline offer_evaluation evaluate_offer(const offer& item, uint32_t global,
                                       const basket_request& request, const basket_context& context,
                                       std::vector<reason>* reasons) {
  offer_evaluation evaluation;
  const bool rules_pass = passes_rules(item, request, context, reasons);
  if (!rules_pass && !reasons) return evaluation;
  const discount_outcome discount = discount_of(item, global, request, context);
  if (discount.zero_reason && reasons) reasons->push_back({*discount.zero_reason, {}, {}});
  evaluation.qualifies = rules_pass && !discount.zero_reason;
  evaluation.discount_cents = discount.cents;
  return evaluation;
}

}  // namespace lq
