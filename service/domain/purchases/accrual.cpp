#include "domain/purchases/accrual.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <set>
#include <string>
#include <vector>

#include "domain/purchases/campaigns.hpp"
#include "front/service_clock.hpp"

namespace lq::service {

void accrual_worker::start() {
  thread_ = std::thread([this] { run(); });
}

void accrual_worker::notify() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    notified_ = true;
  }
  wake_.notify_one();
}

void accrual_worker::stop() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_one();
  if (thread_.joinable()) thread_.join();
}

std::optional<int64_t> accrual_worker::land_due() {
  std::set<std::string> credited;
  std::vector<withheld_reward> withheld;
  std::optional<int64_t> next;
  {
    auto lock = db_.lock();
    const int64_t now = front::service_clock::wall_ms();
    const std::string at = format_rfc3339_ms(instant_from_unix_ms(now));
    for (const purchase_row& purchase : db_.due_purchases(now)) {
      front::transaction tx(db_.db());
      triggered_rewards triggered;
      if (db_.land_purchase(purchase, now, at)) {
        // In the same transaction: exactly once.
        triggered = issue_triggered_rewards(db_, purchase, at, fraud_rule_);
        credited.insert(purchase.user_id);
      }
      tx.commit();
      for (withheld_reward& reward : triggered.withheld) withheld.push_back(std::move(reward));
    }
    next = db_.next_due_ms();
  }
  for (const std::string& user : credited) accounts_.invalidate(user);
  for (const withheld_reward& reward : withheld) log_withheld_reward(reward);
  return next;
}

void accrual_worker::run() {
  using std::chrono::milliseconds;
  // Wake at least this often even with nothing due, so a clock step cannot strand a purchase.
  constexpr int64_t kMaxSleepMs = 60'000;
  while (true) {
    int64_t sleep_ms = kMaxSleepMs;
    try {
      if (std::optional<int64_t> next = land_due()) {
        sleep_ms = std::clamp<int64_t>(*next - front::service_clock::wall_ms(), 0, kMaxSleepMs);
      }
    } catch (const std::exception& e) {
      std::fprintf(stderr, "accrual: %s (retrying in 1 s)\n", e.what());
      sleep_ms = 1000;
    }
    std::unique_lock<std::mutex> lock(mutex_);
    wake_.wait_for(lock, milliseconds(sleep_ms), [this] { return stopping_ || notified_; });
    if (stopping_) return;
    notified_ = false;
  }
}

}  // namespace lq::service
