#include "domain/accounts/account_cache.hpp"

#include "domain/accounts/account_snapshot.hpp"

namespace lq::service {

result<std::shared_ptr<const account_view>> account_cache::get(const std::string& user_id) {
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = views_.find(user_id);
  if (it != views_.end()) return it->second;

  std::optional<std::string> snapshot;
  {
    auto store_lock = db_.lock();
    snapshot = build_account_snapshot(db_, user_id, clock_.now());
  }
  if (!snapshot) return error{404, "no such user"};
  auto view = std::make_shared<account_view>();
  view->user_id = user_id;
  view->snapshot_json = std::move(*snapshot);
  if (std::optional<error> rejected = view->engine.set_snapshot(view->snapshot_json)) {
    return error{500, "the stored account of " + user_id +
                          " cannot be loaded by the engine: " + rejected->message};
  }
  std::shared_ptr<const account_view> shared = std::move(view);
  views_.emplace(user_id, shared);
  return shared;
}

void account_cache::invalidate(const std::string& user_id) {
  std::lock_guard<std::mutex> lock(mutex_);
  views_.erase(user_id);
}

void account_cache::invalidate_all() {
  std::lock_guard<std::mutex> lock(mutex_);
  views_.clear();
}

}  // namespace lq::service
