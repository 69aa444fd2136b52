#include "lq/qualifier.hpp"

#include "lq/request.hpp"
#include "lq/request_reader.hpp"
#include "readers/snapshot_reader.hpp"
#include "render/render.hpp"
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

}  // namespace lq
