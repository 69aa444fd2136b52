// Loyalty API authentication (API spec 5): `Authorization: Bearer <ACCESS_TOKEN>` names the user,
// `Merchant-Key` must be the key of that user's merchant. Secrets are compared in constant time.
#pragma once

#include <optional>
#include <shared_mutex>
#include <string>
#include <string_view>
#include <vector>

#include "result.hpp"
#include "store.hpp"

namespace lq::service {

struct caller {
  std::string user_id;
  std::string merchant_id;
};

/// Equality whose running time depends only on the length of `presented`, not on where the
/// two differ nor on which of them is longer.
bool constant_time_equal(std::string_view presented, std::string_view expected);

class credentials {
 public:
  /// Reads every user's token and merchant's key; the caller holds db.lock().
  void load(store& db);

  /// The caller, or a 401 error whose message names the failing header.
  result<caller> authenticate(std::optional<std::string_view> authorization,
                              std::optional<std::string_view> merchant_key) const;

 private:
  struct user_secret {
    std::string token;
    std::string user_id;
    std::string merchant_id;
  };
  struct merchant_secret {
    std::string key;
    std::string merchant_id;
  };
  mutable std::shared_mutex mutex_;
  std::vector<user_secret> users_;
  std::vector<merchant_secret> merchants_;
};

}  // namespace lq::service
