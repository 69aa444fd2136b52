// The engine as the faces (wasm, CLI, service, bench) use it: one loaded snapshot, JSON in, JSON
// out. The only engine header a face includes; it brings what a face handles besides: instant and
// civil time, decimal with its formatting, JSON string quoting, result and render_error, and the
// request reader (parse_request, with the members a face reads alongside; render_request).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/civil_time.hpp"
#include "base/decimal.hpp"
#include "base/instant.hpp"
#include "base/result.hpp"
#include "json/json_writer.hpp"
#include "model/offer.hpp"
#include "model/request.hpp"
#include "model/snapshot.hpp"
#include "render/render.hpp"
#include "rules/qualify.hpp"

namespace lq {

/// An offer a basket asks for, by kind and id.
struct offer_ref {
  offer_kind kind = offer_kind::reward;
  std::string id;
};

/// How one offer fares on a basket (the first of that kind and id in output order).
struct offer_check {
  bool found = false;
  bool qualifies = false;
  int64_t discount_cents = 0;
  int64_t points = 0;                // points products: the cost
  std::string points_experience_id;  // points products: the experience the points come from
};

/// What a face that bills a basket needs, from one evaluation of it.
struct basket_check {
  instant order_time;                      // the request's order_timestamp, else `now`
  decimal base;                            // the subtotal, else every unit's full price
  std::optional<std::string> location_id;  // the request's location, if of the snapshot merchant
  offer_check offer;                       // the offer asked for, if any
};

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

  /// Evaluates a request read with parse_request once: its base amount, location and, when
  /// `wanted` is given, how that offer fares (as explain reports it).
  result<basket_check> check_basket(const basket_request& request, instant now,
                                    const std::optional<offer_ref>& wanted) const;

 private:
  std::shared_ptr<const snapshot> snapshot_;
};

}  // namespace lq
