// A brake on clients that keep failing authentication: past `failures_per_second` failures of one
// client (a remote address) within a second, its failures are answered 429 with Retry-After
// instead of 401, and it stays braked until it has failed nothing for `brake_ms`. Only failures
// count and only failures are braked: a request that brings the right secret is always served,
// whoever shares its address (the kiosk server's proxy, a NAT). At most `max_clients` clients are
// remembered; past it the one idle longest is forgotten first, so memory stays bounded.
#pragma once

#include <cstddef>
#include <cstdint>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>

namespace lq::front {

struct failure_brake_limits {
  size_t failures_per_second = 10;
  int64_t brake_ms = 1000;
  size_t max_clients = 4096;
};

class failure_brake {
 public:
  explicit failure_brake(failure_brake_limits limits = {}) : limits_(limits) {}

  /// Counts a failure of `client` at `now_ms` (a steady clock): nullopt to answer it as usual
  /// (401), else the seconds it is told to wait (429 with Retry-After).
  std::optional<int> fail(const std::string& client, int64_t now_ms);

  /// The clients remembered now (at most max_clients).
  size_t clients() const;

  const failure_brake_limits& limits() const { return limits_; }

 private:
  struct record {
    int64_t window_start_ms = 0;
    size_t failures = 0;
    int64_t braked_until_ms = 0;  // 0: not braked
    int64_t last_ms = 0;
  };
  void make_room(int64_t now_ms);

  failure_brake_limits limits_;
  mutable std::mutex mutex_;
  std::unordered_map<std::string, record> records_;
};

}  // namespace lq::front
