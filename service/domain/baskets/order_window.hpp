// The order times a billing accepts: `order_timestamp` is the client's clock, so billing takes it
// only within a window around the service's clock — at most `max_age_ms` before it (a queued
// order replayed later; default 7 days, the JS client's maxStaleMs) and at most `max_lead_ms`
// after it (a client clock running a little fast; 5 minutes).
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "lq/qualifier.hpp"

namespace lq::service {

constexpr int64_t kDefaultMaxOrderAgeMs = 7LL * 24 * 60 * 60 * 1000;
constexpr int64_t kMaxOrderLeadMs = 5LL * 60 * 1000;

struct order_window {
  int64_t max_age_ms = kDefaultMaxOrderAgeMs;
  int64_t max_lead_ms = kMaxOrderLeadMs;
};

/// A 400 naming `order_timestamp` when `order_time` lies outside the window around `now`.
std::optional<error> check_order_time(const order_window& window, instant order_time, instant now);

}  // namespace lq::service
