#include "domain/purchases/purchase_ledger.hpp"

#include "domain/baskets/points_bounds.hpp"
#include "domain/purchases/purchase.hpp"

namespace lq::service {

result<int64_t> record_purchase(store& db, const merchant_row& merchant,
                                const purchase_entry& entry, int64_t processing_delay_ms) {
  std::optional<purchase_row> purchase =
      new_purchase(merchant, entry.user_id, entry.amount, entry.purchased_at, processing_delay_ms);
  if (!purchase) return error{400, entry.unrepresentable_message};
  if (auto range = points_out_of_range(db, entry.user_id, purchase->points_experience_id,
                                       purchase->points, entry.amount_field)) {
    return *range;
  }
  purchase->source = entry.source;
  purchase->location_id = entry.location_id;
  purchase->basket_id = entry.basket_id;
  return db.insert_purchase(*purchase);
}

}  // namespace lq::service
