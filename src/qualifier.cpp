#include "lq/qualifier.hpp"

#include <utility>

#include "lq/json/json_writer.hpp"
#include "lq/request_reader.hpp"
#include "model/basket_context.hpp"
#include "model/snapshot.hpp"
#include "readers/snapshot_reader.hpp"
#include "render/render.hpp"
#include "rules/explain.hpp"
#include "rules/qualify.hpp"

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

uint32_t qualifier::reward_count() const {
  return snapshot_ ? static_cast<uint32_t>(snapshot_->rewards.size()) : 0;
}

uint32_t qualifier::points_product_count() const {
  return snapshot_ ? static_cast<uint32_t>(snapshot_->points_products.size()) : 0;
}

uint32_t qualifier::offer_number(offer_kind kind, uint32_t index) const {
  return snapshot_ ? snapshot_->offer_number(kind, index) : index;
}

offer_view qualifier::offer_at(uint32_t number) const {
  const offer& item = snapshot_->offer_at(number);
  offer_view view;
  view.kind = item.kind;
  view.number = number;
  view.id = item.id;
  view.entity_json = item.entity_json;
  view.redeemable = item.redeemable;
  view.points = item.points;
  view.points_experience_id = item.points_experience_id;
  return view;
}

std::optional<uint32_t> qualifier::number_of(const offer_ref& wanted) const {
  if (!snapshot_) return std::nullopt;
  const auto& list =
      wanted.kind == offer_kind::reward ? snapshot_->rewards : snapshot_->points_products;
  for (uint32_t index = 0; index < list.size(); ++index) {
    if (list[index].id == wanted.id) return snapshot_->offer_number(wanted.kind, index);
  }
  return std::nullopt;
}

std::optional<offer_view> qualifier::find_offer(const offer_ref& wanted) const {
  const std::optional<uint32_t> number = number_of(wanted);
  if (!number) return std::nullopt;
  return offer_at(*number);
}

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

result<explain_result> qualifier::explain(std::string_view request_json, instant now) const {
  if (!snapshot_) return kNoSnapshot;
  result<basket_request> request = parse_request(request_json);
  if (!request) return request.err();
  return lq::explain(*snapshot_, *request, now);
}

result<std::string> qualifier::explain_json(std::string_view request_json, instant now) const {
  result<explain_result> explained = explain(request_json, now);
  if (!explained) return explained.err();
  return render_explain(*explained);
}

result<explanation> qualifier::offer_outcome(std::string_view request_json, const offer_ref& wanted,
                                             instant now) const {
  if (!snapshot_) return kNoSnapshot;
  result<basket_request> request = parse_request(request_json);
  if (!request) return request.err();
  return offer_outcome(*request, wanted, now);
}

result<explanation> qualifier::offer_outcome(const basket_request& request, const offer_ref& wanted,
                                             instant now) const {
  if (!snapshot_) return kNoSnapshot;
  const std::optional<uint32_t> number = number_of(wanted);
  if (!number) {
    std::string message = wanted.kind == offer_kind::reward ? "the snapshot has no reward "
                                                            : "the snapshot has no points product ";
    append_json_string(message, wanted.id);
    return error{404, std::move(message)};
  }
  return explain_offer(*snapshot_, request, now, *number);
}

result<basket_summary> qualifier::summarize(const basket_request& request, instant now) const {
  if (!snapshot_) return kNoSnapshot;
  const basket_context& context = resolve_basket(*snapshot_, request, now);
  basket_summary summary;
  summary.order_time = context.order_time;
  summary.base = context.base;
  summary.items_total = context.everything.sum_full;
  if (context.place) summary.location_id = context.place->id;
  return summary;
}

std::string qualifier::entities_json() const {
  return snapshot_ ? render_entities(*snapshot_)
                   : std::string("{\"rewards\":[],\"points_products\":[]}");
}

}  // namespace lq
