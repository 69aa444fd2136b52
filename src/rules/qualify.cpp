#include "rules/qualify.hpp"

#include "model/basket_context.hpp"
#include "rules/evaluate_offer.hpp"

namespace lq {

qualify_result qualify(const snapshot& snap, const basket_request& request, instant now) {
  qualify_result result;
  const basket_context& context = resolve_basket(snap, request, now);
  if (context.empty) return result;
  const auto reward_count = static_cast<uint32_t>(snap.rewards.size());
  for (uint32_t i = 0; i < reward_count; ++i) {
    if (evaluate_offer(snap.rewards[i], i, request, context, nullptr).qualifies) {
      result.rewards.push_back(i);
    }
  }
  for (uint32_t i = 0; i < snap.points_products.size(); ++i) {
    const uint32_t number = snap.offer_number(offer_kind::points_product, i);
    if (evaluate_offer(snap.points_products[i], number, request, context, nullptr).qualifies) {
      result.points_products.push_back(i);
    }
  }
  return result;
}

}  // namespace lq
