#include "rules/explain.hpp"

#include "model/basket_context.hpp"
#include "model/offer_order.hpp"
#include "rules/evaluate_offer.hpp"

namespace lq {

namespace {

explanation entry_of(const snapshot& snap, uint32_t number, const basket_request& request,
                     const basket_context& context) {
  const offer& item = snap.offer_at(number);
  explanation entry;
  entry.kind = item.kind;
  entry.number = number;
  entry.id = item.id;
  const offer_evaluation evaluation =
      evaluate_offer(item, number, request, context, &entry.reasons);
  entry.qualifies = evaluation.qualifies;
  entry.discount_cents = evaluation.discount_cents;
  return entry;
}

}  // namespace

explain_result explain(const snapshot& snap, const basket_request& request, instant now) {
  explain_result result;
  const basket_context& context = resolve_basket(snap, request, now);
  result.entries.reserve(snap.offer_count());
  const offer* best = nullptr;
  for (uint32_t number = 0; number < snap.offer_count(); ++number) {
    explanation entry = entry_of(snap, number, request, context);
    if (entry.qualifies) {
      // Largest discount; ties: the offer order.
      const offer& item = snap.offer_at(number);
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

explanation explain_offer(const snapshot& snap, const basket_request& request, instant now,
                          uint32_t number) {
  return entry_of(snap, number, request, resolve_basket(snap, request, now));
}

}  // namespace lq
