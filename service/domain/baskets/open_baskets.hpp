// What a user's open (checkout, placed) baskets may take in the database. They reserve nothing
// and bill nothing, so they are kept only while in use: at most `max_count` per user (default
// 50, --max-open-baskets) and 4 MiB of stored bodies together; one untouched for 24 hours is
// dropped. Beyond a cap a new or grown open basket is 429. Any one basket, whatever its state,
// takes at most 64 KiB: as sent (the body of POST /api/baskets and of the qualifying call,
// which reads the same basket) and as stored (the canonical body can be larger than the
// request). A real basket is a few KB: the demo's whole menu, every item twice, is 5 KB.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "lq/qualifier.hpp"
#include "store/store.hpp"

namespace lq::service {

constexpr int kDefaultMaxOpenBaskets = 50;
constexpr int64_t kOpenBasketLifetimeSeconds = int64_t{24} * 60 * 60;
constexpr int64_t kMaxOpenBasketBytes = int64_t{4} * 1024 * 1024;
constexpr int64_t kMaxBasketBytes = int64_t{64} * 1024;

struct open_basket_limits {
  int max_count = kDefaultMaxOpenBaskets;
};

/// Drops the user's open baskets not updated for 24 hours before `now`. Inside the write
/// transaction, before the basket is read.
void drop_stale_open_baskets(store& db, const std::string& user_id, instant now);

/// A 413 when a basket body (of either basket endpoint), as sent, is over 64 KiB.
std::optional<error> check_basket_body_size(std::string_view body);

/// A 413 when `row` is too large to store; for an open `row`, a 429 naming the cap when storing
/// it would pass the user's open-basket caps (`existing`: the stored basket it replaces).
std::optional<error> check_basket_size(store& db, const open_basket_limits& limits,
                                       const basket_row& row,
                                       const std::optional<basket_row>& existing);

}  // namespace lq::service
