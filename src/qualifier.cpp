#include "qualifier.hpp"

#include "model/basket_context.hpp"
#include "rules/evaluate_offer.hpp"
#include "rules/explain.hpp"

namespace lq {

std::optional<error> qualifier::set_snapshot(std::string_view snapshot_json) {
  result<snapshot> loaded = load_snapshot(snapshot_json);
  if (!loaded) return loaded.err();
  snapshot_ = std::make_shared<const snapshot>(std::move(loaded.value()));
  return std::nullopt;
}

namespace {
const error kNoSnapshot{422, "no snapshot is loaded"};
}  // namespace

result<qualify_result> qualifier::qualify(std::string_view request_json, instant now) const {
  if (!snapshot_) return kNoSnapshot;
  result<basket_request> request = parse_request(request_json);
  if (!request) return request.err();
  return lq::qualify(*snapshot_, *request, now);
}

result<std::string> qualifier::qualify_json(std::string_view request_json, instant now) const {
  result<qualify_result> found = qualify(request_json, now);
  if (!found) return found.err();
  return render_qualify(*snapshot_, *found);
}

result<std::string> qualifier::explain_json(std::string_view request_json, instant now) const {
  if (!snapshot_) return kNoSnapshot;
  result<basket_request> request = parse_request(request_json);
  if (!request) return request.err();
  return render_explain(*snapshot_, lq::explain(*snapshot_, *request, now));
}

std::string qualifier::entities_json() const {
  return snapshot_ ? render_entities(*snapshot_)
                   : std::string("{\"rewards\":[],\"points_products\":[]}");
}

result<basket_check> qualifier::check_basket(const basket_request& request, instant now,
                                             const std::optional<offer_ref>& wanted) const {
  if (!snapshot_) return kNoSnapshot;
  const snapshot& snap = *snapshot_;
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

}  // namespace lq
