#include "rules/explain.hpp"

#include "model/basket_context.hpp"
#include "rules/discount.hpp"
#include "rules/eligibility.hpp"

namespace lq {

bool expires_before(const offer& a, const offer& b) {
  if (a.retire_at.has_value() != b.retire_at.has_value()) return a.retire_at.has_value();
  if (a.retire_at && *a.retire_at != *b.retire_at) return *a.retire_at < *b.retire_at;
  return a.id < b.id;
}

bool costs_fewer_points(const offer& a, const offer& b) {
  return a.points != b.points ? a.points < b.points : a.id < b.id;
}

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
    const bool rules_pass = passes_rules(item, request, context, &entry.reasons);
    const discount_outcome discount = discount_of(item, global, request, context);
    entry.discount_cents = discount.cents;
    if (discount.zero_reason) entry.reasons.push_back({*discount.zero_reason, {}, {}});
    entry.qualifies = rules_pass && !discount.zero_reason;
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
