// The consumer API's sandbox operations (API spec 2.6, 2.7, 4.2-4.5): grant a campaign's reward,
// simulate a purchase that lands after the processing delay, list purchases and rewards. Each
// acts for the user of the access token, at that user's merchant. Defined by concern: the rewards
// in reward_grants.cpp, the purchases in simulated_purchases.cpp, the emulator's card helpers in
// registered_cards.cpp (what their requests read alike: sandbox_request.hpp).
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "domain/accounts/account_cache.hpp"
#include "domain/caller.hpp"
#include "front/service_clock.hpp"
#include "lq/qualifier.hpp"
#include "store/store.hpp"

namespace lq::service {

/// Filters of GET /purchases; an absent list is no filter.
struct purchase_filters {
  std::optional<std::vector<std::string>> ids;
  std::optional<std::vector<std::string>> location_ids;
  std::optional<std::vector<std::string>> sources;
  std::optional<instant> purchased_since;   // inclusive
  std::optional<instant> purchased_before;  // exclusive
  size_t limit = 100;
};

/// Filters of GET /rewards; an absent list is no filter.
struct reward_filters {
  std::optional<std::vector<std::string>> states;
  std::optional<std::vector<std::string>> ids;
  std::optional<std::vector<std::string>> campaign_ids;
};

class sandbox_service {
 public:
  sandbox_service(store& db, account_cache& accounts, const front::service_clock& clock,
                  int64_t processing_delay_ms, std::function<void()> purchase_queued)
      : db_(db),
        accounts_(accounts),
        clock_(clock),
        processing_delay_ms_(processing_delay_ms),
        purchase_queued_(std::move(purchase_queued)) {}

  /// POST /rewards/grant: `{"reward": {...}}` of the reward created; 400, 403, 404.
  result<std::string> grant(const caller& who, std::string_view body);
  /// POST /purchases: queues the purchase and returns its id; 400, 403.
  result<int64_t> simulate_purchase(const caller& who, std::string_view body);
  /// GET /purchases: `{"purchases": [...]}`, landed purchases only, the latest first.
  std::string list_purchases(const caller& who, const purchase_filters& filters);
  /// GET /rewards: `{"rewards": [...]}`, oldest first.
  std::string list_rewards(const caller& who, const reward_filters& filters);

  // The emulator's own helpers (not operations of the API spec): the fraud rule's inputs.
  /// POST /emulator/cards `{"card_number": "...", "replace": false}`: registers a card for the
  /// user; `{"card": {...}}`; 400, 403.
  result<std::string> register_card(const caller& who, std::string_view body);
  /// GET /emulator/fraud_report[?user_id=]: which campaign rewards the fraud rule would
  /// withhold from the user; 403 for another user.
  result<std::string> fraud_report(const caller& who, const std::optional<std::string>& user_id);

 private:
  store& db_;
  account_cache& accounts_;
  const front::service_clock& clock_;
  int64_t processing_delay_ms_;
  std::function<void()> purchase_queued_;
};

/// "pur_12" for purchase 12.
std::string purchase_public_id(int64_t id);

}  // namespace lq::service
