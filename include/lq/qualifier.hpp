// The engine as the faces (wasm, CLI, service, bench) use it: one loaded snapshot, JSON in, JSON
// out. It includes what its declarations need; a face includes the rest it uses itself (the
// request reader model/request.hpp, render/render.hpp, base/decimal.hpp...).
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "lq/instant.hpp"
#include "lq/result.hpp"
#include "model/snapshot.hpp"
#include "rules/qualify.hpp"

namespace lq {

class qualifier {
 public:
  /// Loads a snapshot; on error (code 422) the previously loaded snapshot stays in force.
  std::optional<error> set_snapshot(std::string_view snapshot_json);
  bool has_snapshot() const { return snapshot_ != nullptr; }
  /// The loaded snapshot; only valid when has_snapshot().
  const snapshot& current() const { return *snapshot_; }

  /// Indices of the qualifying offers; `now` is used when the request has no order_timestamp.
  result<qualify_result> qualify(std::string_view request_json, instant now) const;
  /// The API spec 2.2 response body.
  result<std::string> qualify_json(std::string_view request_json, instant now) const;
  /// The contract section 4 explanation.
  result<std::string> explain_json(std::string_view request_json, instant now) const;
  /// `{"rewards":[entity...],"points_products":[entity...]}` for every offer, in output order.
  std::string entities_json() const;

 private:
  std::shared_ptr<const snapshot> snapshot_;
};

}  // namespace lq
