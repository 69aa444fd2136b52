#include "front/http/failure_brake.hpp"

#include <iterator>

namespace lq::front {

namespace {

constexpr int64_t kWindowMs = 1000;

}  // namespace

std::optional<int> failure_brake::fail(const std::string& client, int64_t now_ms) {
  std::lock_guard<std::mutex> lock(mutex_);
  auto found = records_.find(client);
  if (found == records_.end()) {
    make_room(now_ms);
    found = records_.emplace(client, record{now_ms, 0, 0, now_ms}).first;
  }
  record& r = found->second;
  r.last_ms = now_ms;
  const auto wait = [&]() -> std::optional<int> {
    r.braked_until_ms = now_ms + limits_.brake_ms;
    return static_cast<int>((limits_.brake_ms + 999) / 1000);
  };
  // Braked: every failure keeps it braked, so a client that ignores Retry-After stays there.
  if (r.braked_until_ms > now_ms) return wait();
  if (now_ms - r.window_start_ms >= kWindowMs) {
    r.window_start_ms = now_ms;
    r.failures = 0;
    r.braked_until_ms = 0;
  }
  if (++r.failures > limits_.failures_per_second) return wait();
  return std::nullopt;
}

size_t failure_brake::clients() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return records_.size();
}

// Room for one more client: those with nothing left to remember go first (their window and
// brake are over), then, if every one is live, the one idle longest.
void failure_brake::make_room(int64_t now_ms) {
  if (records_.size() < limits_.max_clients) return;
  for (auto it = records_.begin(); it != records_.end();) {
    const bool over =
        now_ms - it->second.window_start_ms >= kWindowMs && it->second.braked_until_ms <= now_ms;
    it = over ? records_.erase(it) : std::next(it);
  }
  if (records_.size() < limits_.max_clients) return;
  auto oldest = records_.begin();
  for (auto it = records_.begin(); it != records_.end(); ++it) {
    if (it->second.last_ms < oldest->second.last_ms) oldest = it;
  }
  if (oldest != records_.end()) records_.erase(oldest);
}

}  // namespace lq::front
