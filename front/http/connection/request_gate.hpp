// The gate in front of httplib's handlers: the guarded server's connections are many and mostly
// idle, its requests are handled `workers` at a time (connection_limits.hpp).
#pragma once

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <mutex>

namespace lq::front {

/// At most `slots` holders at once, granted strictly in arrival order (a fair queue keeps the
/// tail latency close to the median when more requests wait than there are workers).
class request_gate {
 public:
  explicit request_gate(size_t slots) : free_(slots) {}
  void acquire();
  void release();

 private:
  struct waiter {
    std::condition_variable granted_cv;
    bool granted = false;
  };
  std::mutex mutex_;
  size_t free_;
  std::deque<waiter*> waiting_;
};

}  // namespace lq::front
