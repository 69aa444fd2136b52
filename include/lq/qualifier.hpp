// The engine's front door: one loaded snapshot, and every question a face asks of it. A face
// (wasm, the service, bench) includes nothing of the engine outside include/lq/.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "lq/answers/basket_summary.hpp"
#include "lq/answers/explanation.hpp"
#include "lq/answers/offer_ref.hpp"
#include "lq/answers/offer_view.hpp"
#include "lq/answers/qualify_result.hpp"
#include "lq/request.hpp"
#include "lq/result.hpp"
#include "lq/time/instant.hpp"

namespace lq {

struct snapshot;  // model/snapshot.hpp, private to the engine and its tests

class qualifier {
 public:
  /// Loads a snapshot; on error (code 422) the previously loaded snapshot stays in force.
  std::optional<error> set_snapshot(std::string_view snapshot_json);
  bool has_snapshot() const { return snapshot_ != nullptr; }
  /// The loaded snapshot, for the engine's own tests; only valid when has_snapshot().
  const snapshot& current() const { return *snapshot_; }

  /// Offers are numbered once: rewards first, then points products, each in output order.
  /// Without a snapshot there are none.
  uint32_t reward_count() const;
  uint32_t points_product_count() const;
  /// The number of the offer at `index` of its kind's list.
  uint32_t offer_number(offer_kind kind, uint32_t index) const;
  /// Offer `number` (below reward_count() + points_product_count()).
  offer_view offer_at(uint32_t number) const;
  /// The first offer of that kind and id in output order, if any.
  std::optional<offer_view> find_offer(const offer_ref& wanted) const;

  /// Indices of the qualifying offers; `now` is used when the request has no order_timestamp.
  result<qualify_result> qualify(std::string_view request_json, instant now) const;
  /// The API spec 2.2 response body.
  result<std::string> qualify_json(std::string_view request_json, instant now) const;
  /// The contract section 4 explanation.
  result<explain_result> explain(std::string_view request_json, instant now) const;
  /// The same explanation as JSON text.
  result<std::string> explain_json(std::string_view request_json, instant now) const;
  /// How one offer fares on the basket: its explanation entry. 404 when the snapshot has no such
  /// offer.
  result<explanation> offer_outcome(std::string_view request_json, const offer_ref& wanted,
                                    instant now) const;
  /// The same for a request already read (lq/request_reader.hpp).
  result<explanation> offer_outcome(const basket_request& request, const offer_ref& wanted,
                                    instant now) const;
  /// The request's order time, base amount, items total and location, as the rules read them.
  result<basket_summary> summarize(const basket_request& request, instant now) const;
  /// `{"rewards":[entity...],"points_products":[entity...]}` for every offer, in output order.
  std::string entities_json() const;

 private:
  std::optional<uint32_t> number_of(const offer_ref& wanted) const;
  std::shared_ptr<const snapshot> snapshot_;
};

}  // namespace lq
