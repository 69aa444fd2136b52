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
  check.items_total = context.everything.sum_full;
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

std::optional<error> check_declared_subtotal(const basket_request& request,
                                             const basket_check& check) {
  if (!request.subtotal || *request.subtotal <= check.items_total) return std::nullopt;
  return error{400, "subtotal " + format_decimal(*request.subtotal) +
                        " is above the total of the basket's items, " +
                        format_decimal(check.items_total) +
                        " (each item's price plus its modifiers' prices, times its quantity; an "
                        "item without a price counts 0): a basket cannot declare more than it "
                        "holds"};
}

}  // namespace lq::service
