#include "domain/baskets/basket_check.hpp"

namespace lq::service {

result<basket_check> check_basket(const qualifier& engine, const basket_request& request,
                                  instant now, const std::optional<offer_ref>& wanted) {
  result<basket_summary> summary = engine.summarize(request, now);
  if (!summary) return summary.err();
  basket_check check;
  check.order_time = summary->order_time;
  check.base = summary->base;
  check.items_total = summary->items_total;
  check.location_id = std::move(summary->location_id);
  if (!wanted) return check;
  const std::optional<offer_view> item = engine.find_offer(*wanted);
  if (!item) return check;
  result<explanation> outcome = engine.offer_outcome(request, *wanted, now);
  if (!outcome) return outcome.err();
  check.offer.found = true;
  check.offer.qualifies = outcome->qualifies;
  check.offer.discount_cents = outcome->qualifies ? outcome->discount_cents : 0;
  check.offer.points = item->points;
  check.offer.points_experience_id = std::string(item->points_experience_id);
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
