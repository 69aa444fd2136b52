#include "front/http/connection/request_gate.hpp"

namespace lq::front {

void request_gate::acquire() {
  std::unique_lock<std::mutex> lock(mutex_);
  if (free_ > 0 && waiting_.empty()) {
    --free_;
    return;
  }
  waiter self;
  waiting_.push_back(&self);
  self.granted_cv.wait(lock, [&self] { return self.granted; });
}

void request_gate::release() {
  std::lock_guard<std::mutex> lock(mutex_);
  if (waiting_.empty()) {
    ++free_;
    return;
  }
  waiter* next = waiting_.front();  // the slot passes straight to the longest waiter
  waiting_.pop_front();
  next->granted = true;
  next->granted_cv.notify_one();
}

}  // namespace lq::front
