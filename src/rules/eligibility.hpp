// Rules 1-8 of contract 3.1-3.2 and affordability: may this offer be used on this basket at all?
#pragma once

#include <vector>

#include "lq/answers/reason.hpp"
#include "lq/request.hpp"
#include "model/basket_context.hpp"
#include "model/offer.hpp"

namespace lq {

/// True when `item` passes every rule; appends each failure to `reasons` when given, else stops
/// at the first.
bool passes_rules(const offer& item, const basket_request& request, const basket_context& context,
                  std::vector<reason>* reasons);

}  // namespace lq
