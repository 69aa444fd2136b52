#include "domain/baskets/basket_check.hpp"

#include "model/basket_context.hpp"
#include "model/snapshot.hpp"
#include "rules/evaluate_offer.hpp"

namespace lq::service {

result<basket_check> check_basket(const qualifier& engine, const basket_request& request,
                                  instant now, const std::optional<offer_ref>& wanted) {
  if (!engine.has_snapshot()) return error{422, "no snapshot is loaded"};
  const snapshot& snap = engine.current();
  const basket_context& context = resolve_basket(snap, request, now);
  basket_check check;
  check.order_time = context.order_time;
  check.base = context.base;
  if (context.place) check.location_id = context.place->id;
  if (!wanted) return check;
  for (uint32_t global = 0; global < snap.offer_count(); ++global) {
    const offer& item = snap.offer_at(global);
    if (item.kind != wanted->kind || item.id != wanted->id) continue;
    const offer_evaluation evaluation = evaluate_offer(item, global, request, context, nullptr);
    check.offer.found = true;
    check.offer.qualifies = evaluation.qualifies;
    check.offer.discount_cents = evaluation.discount_cents;
    check.offer.points = item.points;
    check.offer.points_experience_id = item.points_experience_id;
    break;
  }
  return check;
}

}  // namespace lq::service
