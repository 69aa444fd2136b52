#include "front/http/connection/connection_pool.hpp"

#include <unistd.h>

#include <optional>
#include <utility>

#include "front/http/connection/socket_io.hpp"

namespace lq::front {

namespace {

constexpr size_t kMaxPendingRejections = 1024;

}  // namespace

connection_pool::connection_pool(const connection_limits& limits,
                                 std::function<void(socket_t)> serve,
                                 std::function<void(socket_t, refusal)> refuse)
    : max_(limits.max_connections),
      max_per_peer_(limits.max_connections_per_peer),
      serve_(std::move(serve)),
      refuse_(std::move(refuse)) {
  rejecter_ = std::thread([this] { reject_loop(); });
}

void connection_pool::admit(socket_t sock) {
  std::string peer = socket_io::peer_key(sock);
  std::unique_lock<std::mutex> lock(mutex_);
  std::optional<refusal> refused;
  auto held = per_peer_.find(peer);
  if (held != per_peer_.end() && held->second >= max_per_peer_) {
    refused = refusal::peer_limit;
  } else if (admitted_ >= max_) {
    refused = refusal::connection_limit;
  }
  if (refused || stopping_) {
    if (!stopping_ && rejections_.size() < kMaxPendingRejections) {
      rejections_.push_back({sock, std::move(peer), *refused});
      rejection_ready_.notify_one();
      return;
    }
    lock.unlock();
    ::close(sock);
    return;
  }
  ++admitted_;
  ++per_peer_[peer];
  jobs_.push_back({sock, std::move(peer), refusal::connection_limit});
  if (admitted_ > threads_.size()) {
    threads_.emplace_back([this] { work(); });
  } else {
    job_ready_.notify_one();
  }
}

void connection_pool::shutdown() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
  }
  job_ready_.notify_all();
  rejection_ready_.notify_all();
  for (std::thread& thread : threads_) thread.join();
  rejecter_.join();
}

template <typename Run, typename After>
void connection_pool::drain(job_queue& queue, std::condition_variable& ready, Run run,
                            After after) {
  std::unique_lock<std::mutex> lock(mutex_);
  while (true) {
    ready.wait(lock, [&] { return !queue.empty() || stopping_; });
    if (queue.empty()) return;
    connection next = std::move(queue.front());
    queue.pop_front();
    lock.unlock();
    run(next);
    lock.lock();
    after(next);
  }
}

void connection_pool::work() {
  drain(
      jobs_, job_ready_, [this](const connection& c) { serve_(c.sock); },
      [this](const connection& c) {
        --admitted_;
        auto held = per_peer_.find(c.peer);
        if (held != per_peer_.end() && --held->second == 0) per_peer_.erase(held);
      });
}

void connection_pool::reject_loop() {
  drain(
      rejections_, rejection_ready_, [this](const connection& c) { refuse_(c.sock, c.reason); },
      [](const connection&) {});
}

}  // namespace lq::front
