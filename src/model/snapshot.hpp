// The account snapshot (contract section 1), loaded and indexed once.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "base/posix_tz.hpp"
#include "lq/result.hpp"
#include "model/offer.hpp"

namespace lq {

struct location {
  std::string uid;
  std::string id;
  bool of_snapshot_merchant = true;
  std::optional<posix_tz> tz;
};

struct snapshot {
  std::string merchant_id;
  std::string user_id;
  std::optional<posix_tz> merchant_tz;
  std::vector<location> locations;
  std::unordered_map<std::string, uint32_t> location_by_uid;

  /// Rewards in output order (retire_at ascending, null last, then id).
  std::vector<offer> rewards;
  /// Points products in output order (points ascending, then id).
  std::vector<offer> points_products;

  /// Product ids and categories named by any offer, interned to small integers. The map's keys
  /// view the names `symbol_names` owns (each on the heap: it never moves), so that a lookup by a
  /// basket line's id (a view into the request text) builds no string.
  std::vector<std::unique_ptr<const std::string>> symbol_names;
  std::unordered_map<std::string_view, uint32_t> symbols;

  snapshot() = default;
  snapshot(snapshot&&) = default;
  snapshot& operator=(snapshot&&) = default;
  // A copy's symbol keys would view the original's names.
  snapshot(const snapshot&) = delete;
  snapshot& operator=(const snapshot&) = delete;

  /// Per symbol, the offers naming it in `products` / `categories`, as global offer numbers:
  /// rewards are 0..R-1, points products R..R+P-1.
  std::vector<std::vector<uint32_t>> offers_by_product;
  std::vector<std::vector<uint32_t>> offers_by_category;

  /// Offer numbers (global numbers): rewards first, then points products, each in output order.
  /// The one place the numbering is written.
  size_t offer_count() const { return rewards.size() + points_products.size(); }
  uint32_t offer_number(offer_kind kind, uint32_t index) const {
    return kind == offer_kind::reward ? index : static_cast<uint32_t>(rewards.size()) + index;
  }
  const offer& offer_at(uint32_t number) const {
    return number < rewards.size() ? rewards[number] : points_products[number - rewards.size()];
  }

  /// The symbol of a product id or category, if any offer names it.
  std::optional<uint32_t> symbol_of(std::string_view name) const;

  /// The symbol of `name`, added when new (while loading).
  uint32_t intern(const std::string& name);
  /// Fills offers_by_product / offers_by_category once the offers are in output order.
  void index_offers();
};

}  // namespace lq
