// Loaded engines per user: the snapshot JSON and an lq::qualifier over it, built on first use
// and dropped whenever that user's data changes.
#pragma once

#include <map>
#include <memory>
#include <mutex>
#include <string>

#include "front/service_clock.hpp"
#include "lq/qualifier.hpp"
#include "store/store.hpp"

namespace lq::service {

struct account_view {
  std::string user_id;
  std::string snapshot_json;  // exactly the GET /api/account body
  qualifier engine;           // loaded from snapshot_json
};

class account_cache {
 public:
  account_cache(store& db, const front::service_clock& clock) : db_(db), clock_(clock) {}

  /// The user's current view; 404 for an unknown user, 500 when the engine rejects the data.
  /// Takes the store lock itself: never call it while holding that lock.
  result<std::shared_ptr<const account_view>> get(const std::string& user_id);
  /// Call after committing a change to the user's data (not holding the store lock).
  void invalidate(const std::string& user_id);
  void invalidate_all();

 private:
  std::mutex mutex_;  // taken before the store lock, never after it
  store& db_;
  const front::service_clock& clock_;
  std::map<std::string, std::shared_ptr<const account_view>> views_;
};

}  // namespace lq::service
