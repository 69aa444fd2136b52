// Basket create/update (POST /api/baskets): the qualifying body plus `id`, `state`, `rewards`
// and `points_products`. A selected offer must be one the qualifying call returns for the same
// basket; billing redeems it (or debits its points) and queues the purchase's accrual, once.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

#include "account_cache.hpp"
#include "auth.hpp"
#include "qualifier.hpp"
#include "service_clock.hpp"
#include "store.hpp"

namespace lq::service {

struct basket_outcome {
  bool created = false;  // 201 rather than 200
  std::string id;
  std::string state;
  int64_t discount_cents = 0;
};

/// `{"id":...,"state":...,"discount":"x.xx"}`.
std::string render_basket(const basket_outcome& outcome);

class basket_service {
 public:
  basket_service(store& db, account_cache& accounts, const service_clock& clock,
                 int64_t processing_delay_ms, std::function<void()> purchase_queued)
      : db_(db),
        accounts_(accounts),
        clock_(clock),
        processing_delay_ms_(processing_delay_ms),
        purchase_queued_(std::move(purchase_queued)) {}

  /// Creates or updates the caller's basket; errors are 400 (body), 409 (state transition).
  result<basket_outcome> submit(const caller& who, std::string_view body);

 private:
  store& db_;
  account_cache& accounts_;
  const service_clock& clock_;
  int64_t processing_delay_ms_;
  std::function<void()> purchase_queued_;
};

}  // namespace lq::service
