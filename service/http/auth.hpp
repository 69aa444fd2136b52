// Authentication (API spec 5). Loyalty API: `Authorization: Bearer <ACCESS_TOKEN>` names the user,
// `Merchant-Key` must be the key of that user's merchant. Consumer API sandbox: the same bearer
// token and an `X-ClientId` of the fixture's clients. Secrets are compared in constant time.
#pragma once

#include <optional>
#include <shared_mutex>
#include <string>
#include <string_view>
#include <vector>

#include "domain/caller.hpp"
#include "front/http/constant_time.hpp"
#include "lq/qualifier.hpp"
#include "store/store.hpp"

namespace lq::service {

class credentials {
 public:
  /// Reads every user's token, merchant's key and client id; the caller holds db.lock().
  void load(store& db);

  /// The caller, or a 401 error whose message names the failing header.
  result<caller> authenticate(std::optional<std::string_view> authorization,
                              std::optional<std::string_view> merchant_key) const;

  /// The caller of a consumer API sandbox operation, or a 401 naming the failing header: the
  /// X-ClientId must be a known client bound to the token user's merchant (or to none).
  result<caller> authenticate_consumer(std::optional<std::string_view> authorization,
                                       std::optional<std::string_view> client_id) const;

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
  struct client_entry {
    std::string client_id;
    std::optional<std::string> merchant_id;
  };

  /// The user of a bearer token; nullptr when missing or invalid. The caller holds mutex_.
  const user_secret* user_of(std::optional<std::string_view> authorization) const;

  mutable std::shared_mutex mutex_;
  std::vector<user_secret> users_;
  std::vector<merchant_secret> merchants_;
  std::vector<client_entry> clients_;
};

}  // namespace lq::service
