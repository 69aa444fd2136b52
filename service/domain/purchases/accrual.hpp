// The processing delay (API spec 8): a purchase accrues its points, and triggers the campaigns it
// matches, once its due time passes. Pending purchases live in the database, so a restart picks
// them up where it left off.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <thread>

#include "domain/accounts/account_cache.hpp"
#include "store/store.hpp"

namespace lq::service {

class accrual_worker {
 public:
  /// `fraud_rule`: the sandbox fraud rule applies to the rewards purchases trigger (sandbox mode).
  accrual_worker(store& db, account_cache& accounts, bool fraud_rule)
      : db_(db), accounts_(accounts), fraud_rule_(fraud_rule) {}
  accrual_worker(const accrual_worker&) = delete;
  accrual_worker& operator=(const accrual_worker&) = delete;
  ~accrual_worker() { stop(); }

  void start();
  /// Wakes the worker: a purchase was queued.
  void notify();
  /// Finishes the batch in progress and joins.
  void stop();

  /// Lands every purchase due now, each credit committed with its landing; returns the next
  /// due time, if any purchase is still pending.
  std::optional<int64_t> land_due();

 private:
  void run();

  store& db_;
  account_cache& accounts_;
  bool fraud_rule_;
  std::mutex mutex_;
  std::condition_variable wake_;
  bool stopping_ = false;
  bool notified_ = false;
  std::thread thread_;
};

}  // namespace lq::service
