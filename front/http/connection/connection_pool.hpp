// The guarded server's connections (guarded_server.hpp): who is admitted, who is refused, and the
// threads that serve them.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <functional>
#include <mutex>
#include <string>
#include <thread>
#include <unordered_map>
#include <vector>

#include <httplib.h>

#include "front/http/connection/connection_limits.hpp"

namespace lq::front {

// Connection threads: one per admitted connection (they mostly wait on their socket), created on
// demand up to the cap and kept. A connection beyond the cap, or beyond its peer's share, goes to
// one thread that answers 503; when even that queue is full it is closed at once. httplib's
// accept loop hands each accepted socket over as a job that calls process_and_close_socket(sock);
// enqueue() runs that job at once, on the accept thread, so that the server can call admit()
// with the socket, whose peer decides.
class connection_pool : public httplib::TaskQueue {
 public:
  connection_pool(const connection_limits& limits, std::function<void(socket_t)> serve,
                  std::function<void(socket_t, refusal)> refuse);

  void enqueue(std::function<void()> fn) override { fn(); }

  /// Serves, refuses or closes an accepted connection.
  void admit(socket_t sock);

  void shutdown() override;

 private:
  struct connection {
    socket_t sock;
    std::string peer;
    refusal reason;  // for a refused one
  };
  using job_queue = std::deque<connection>;

  // Runs `run` on the connections of `queue` in order until the pool stops and the queue is
  // empty; `after` runs under the lock after each.
  template <typename Run, typename After>
  void drain(job_queue& queue, std::condition_variable& ready, Run run, After after);
  void work();
  void reject_loop();

  const size_t max_;
  const size_t max_per_peer_;
  std::function<void(socket_t)> serve_;
  std::function<void(socket_t, refusal)> refuse_;
  std::mutex mutex_;
  std::condition_variable job_ready_;
  std::condition_variable rejection_ready_;
  job_queue jobs_;
  job_queue rejections_;
  std::vector<std::thread> threads_;
  std::thread rejecter_;
  size_t admitted_ = 0;
  std::unordered_map<std::string, size_t> per_peer_;  // admitted connections by peer
  bool stopping_ = false;
};

}  // namespace lq::front
