#include "rules/explain.hpp"

#include "model/basket_context.hpp"
#include "model/offer_order.hpp"
#include "rules/evaluate_offer.hpp"

namespace lq {

explain_result explain(const snapshot& snap, const basket_request& request, instant now) {
  explain_result result;
  const basket_context& context = resolve_basket(snap, request, now);
  const auto reward_count = static_cast<uint32_t>(snap.rewards.size());
  result.entries.reserve(snap.offer_count());
  const offer* best = nullptr;
  for (uint32_t global = 0; global < snap.offer_count(); ++global) {
    const offer& item = snap.offer_at(global);
    explanation entry;
    entry.kind = item.kind;
    entry.index = global < reward_count ? global : global - reward_count;
    const offer_evaluation evaluation =
        evaluate_offer(item, global, request, context, &entry.reasons);
    entry.qualifies = evaluation.qualifies;
    entry.discount_cents = evaluation.discount_cents;
    if (entry.qualifies) {
      // Largest discount; ties: the offer order.
      const bool better = !best ||
                          entry.discount_cents > result.entries[*result.best].discount_cents ||
                          (entry.discount_cents == result.entries[*result.best].discount_cents &&
                           expires_before(item, *best));
      if (better) {
        result.best = static_cast<uint32_t>(result.entries.size());
        best = &item;
      }
    }
    result.entries.push_back(std::move(entry));
  }
  return result;
}

}  // namespace lq
