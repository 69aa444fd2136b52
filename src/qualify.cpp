#include "qualify.hpp"

#include "evaluation.hpp"

namespace lq {

namespace {

// The context of the last call, reused so a call allocates nothing once warm (single-threaded
// faces; the service gives each thread its own).
thread_local basket_context scratch_context;

}  // namespace

qualify_result qualify(const snapshot& snap, const basket_request& request, instant now) {
  qualify_result result;
  basket_context& context = scratch_context;
  build_context(snap, request, now, context);
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

explain_result explain(const snapshot& snap, const basket_request& request, instant now) {
  explain_result result;
  basket_context& context = scratch_context;
  build_context(snap, request, now, context);
  const auto reward_count = static_cast<uint32_t>(snap.rewards.size());
  result.entries.reserve(snap.offer_count());
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
      const auto position = static_cast<uint32_t>(result.entries.size());
      if (!result.best) {
        result.best = position;
      } else {
        // Largest discount; ties: earliest expiry (none = last), then id.
        const explanation& best = result.entries[*result.best];
        const offer& incumbent =
            snap.offer_at(best.kind == offer_kind::reward ? best.index : reward_count + best.index);
        bool better = entry.discount_cents > best.discount_cents;
        if (entry.discount_cents == best.discount_cents) {
          if (item.retire_at.has_value() != incumbent.retire_at.has_value()) {
            better = item.retire_at.has_value();
          } else if (item.retire_at && *item.retire_at != *incumbent.retire_at) {
            better = *item.retire_at < *incumbent.retire_at;
          } else {
            better = item.id < incumbent.id;
          }
        }
        if (better) result.best = position;
      }
    }
    result.entries.push_back(std::move(entry));
  }
  return result;
}

}  // namespace lq
