#include "rules/qualify.hpp"

#include "model/basket_context.hpp"
#include "rules/discount.hpp"
#include "rules/eligibility.hpp"

namespace lq {

qualify_result qualify(const snapshot& snap, const basket_request& request, instant now) {
  qualify_result result;
  const basket_context& context = resolve_basket(snap, request, now);
  if (context.empty) return result;
  const auto reward_count = static_cast<uint32_t>(snap.rewards.size());
  for (uint32_t i = 0; i < reward_count; ++i) {
    const offer& item = snap.rewards[i];
    if (passes_rules(item, request, context, nullptr) &&
        discount_of(item, i, request, context).cents > 0) {
      result.rewards.push_back(i);
    }
  }
  for (uint32_t i = 0; i < snap.points_products.size(); ++i) {
    const offer& item = snap.points_products[i];
    if (passes_rules(item, request, context, nullptr) &&
        discount_of(item, reward_count + i, request, context).cents > 0) {
      result.points_products.push_back(i);
    }
  }
  return result;
}

}  // namespace lq
