// Basket create/update (POST /api/baskets): the qualifying body plus `id`, `state`, `rewards`
// and `points_products`. A selected offer must be one the qualifying call returns for the same
// basket (and, for a points product, redeemable); billing takes `order_timestamp` only within
// the order window, redeems the offer (or debits its points) and queues the purchase's accrual,
// once. From billing on, the basket id names that order: a re-send with another body is 409.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

#include "domain/accounts/account_cache.hpp"
#include "domain/baskets/basket_check.hpp"
#include "domain/baskets/open_baskets.hpp"
#include "domain/baskets/order_window.hpp"
#include "domain/caller.hpp"
#include "front/service_clock.hpp"
#include "lq/qualifier.hpp"
#include "store/store.hpp"

namespace lq::service {

struct basket_outcome {
  bool created = false;  // 201 rather than 200
  std::string id;
  std::string state;
  int64_t discount_cents = 0;
  std::optional<offer_ref> offer;  // the offer the basket holds (billed, for a billed one)
};

/// `{"id":...,"state":...,"discount":"x.xx","offer":{"kind":...,"id":...}|null}`.
std::string render_basket(const basket_outcome& outcome);

class basket_service {
 public:
  basket_service(store& db, account_cache& accounts, const front::service_clock& clock,
                 int64_t processing_delay_ms, order_window window, open_basket_limits open_limits,
                 std::function<void()> purchase_queued)
      : db_(db),
        accounts_(accounts),
        clock_(clock),
        processing_delay_ms_(processing_delay_ms),
        window_(window),
        open_limits_(open_limits),
        purchase_queued_(std::move(purchase_queued)) {}

  /// Creates or updates the caller's basket; errors are 400 (body, offer, order time, a
  /// subtotal above the items), 409 (state transition, a billed basket re-sent with another
  /// body), 413 (body or stored size over 64 KiB), 429 (open-basket caps).
  result<basket_outcome> submit(const caller& who, std::string_view body);

 private:
  store& db_;
  account_cache& accounts_;
  const front::service_clock& clock_;
  int64_t processing_delay_ms_;
  order_window window_;
  open_basket_limits open_limits_;
  std::function<void()> purchase_queued_;
};

}  // namespace lq::service
