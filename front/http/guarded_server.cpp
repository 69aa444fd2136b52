#include "front/http/guarded_server.hpp"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <deque>
#include <functional>
#include <optional>
#include <string>
#include <thread>
#include <unordered_map>
#include <vector>

#include "front/http/access_log.hpp"
#include "front/http/peer_address.hpp"
#include "lq/qualifier.hpp"
#include "lq/render.hpp"

namespace lq::service {

namespace {

using clock_type = std::chrono::steady_clock;

int wait_for(socket_t sock, short events, int timeout_ms) {
  pollfd entry{sock, events, 0};
  int ready;
  do {
    ready = ::poll(&entry, 1, std::max(timeout_ms, 0));
  } while (ready < 0 && errno == EINTR);
  if (ready > 0 && (entry.revents & (events | POLLHUP | POLLERR)) == 0) return 0;
  return ready;
}

int remaining_ms(clock_type::time_point deadline) {
  const auto left =
      std::chrono::duration_cast<std::chrono::milliseconds>(deadline - clock_type::now());
  return static_cast<int>(std::max<int64_t>(left.count(), 0));
}

bool send_all(socket_t sock, const char* data, size_t size, int timeout_ms) {
  const auto deadline = clock_type::now() + std::chrono::milliseconds(timeout_ms);
  while (size > 0) {
    const ssize_t sent = ::send(sock, data, size, MSG_NOSIGNAL | MSG_DONTWAIT);
    if (sent > 0) {
      data += sent;
      size -= static_cast<size_t>(sent);
      continue;
    }
    if (sent < 0 && errno == EINTR) continue;
    if (sent < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
      if (wait_for(sock, POLLOUT, remaining_ms(deadline)) <= 0) return false;
      continue;
    }
    return false;
  }
  return true;
}

std::string peer_address(socket_t sock, int* port) {
  sockaddr_storage address{};
  socklen_t length = sizeof address;
  if (::getpeername(sock, reinterpret_cast<sockaddr*>(&address), &length) != 0) return {};
  char text[INET6_ADDRSTRLEN] = {};
  if (address.ss_family == AF_INET) {
    const auto* v4 = reinterpret_cast<const sockaddr_in*>(&address);
    ::inet_ntop(AF_INET, &v4->sin_addr, text, sizeof text);
    if (port) *port = ntohs(v4->sin_port);
  } else if (address.ss_family == AF_INET6) {
    const auto* v6 = reinterpret_cast<const sockaddr_in6*>(&address);
    ::inet_ntop(AF_INET6, &v6->sin6_addr, text, sizeof text);
    if (port) *port = ntohs(v6->sin6_port);
  }
  return text;
}

std::string peer_key(socket_t sock) {
  return client_of_address(peer_address(sock, nullptr));
}

constexpr size_t kMaxPendingRejections = 1024;

// Connection threads: one per admitted connection (they mostly wait on their socket), created on
// demand up to the cap and kept. A connection beyond the cap, or beyond its peer's share, goes to
// one thread that answers 503; when even that queue is full it is closed at once. httplib's
// accept loop hands each accepted socket over as a job that calls process_and_close_socket(sock);
// enqueue() runs that job at once, on the accept thread, so that the server can call admit()
// with the socket, whose peer decides.
class connection_pool : public httplib::TaskQueue {
 public:
  connection_pool(const connection_limits& limits, std::function<void(socket_t)> serve,
                  std::function<void(socket_t, refusal)> refuse)
      : max_(limits.max_connections),
        max_per_peer_(limits.max_connections_per_peer),
        serve_(std::move(serve)),
        refuse_(std::move(refuse)) {
    rejecter_ = std::thread([this] { reject_loop(); });
  }

  void enqueue(std::function<void()> fn) override { fn(); }

  /// Serves, refuses or closes an accepted connection.
  void admit(socket_t sock) {
    std::string peer = peer_key(sock);
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

  void shutdown() override {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      stopping_ = true;
    }
    job_ready_.notify_all();
    rejection_ready_.notify_all();
    for (std::thread& thread : threads_) thread.join();
    rejecter_.join();
  }

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
  void drain(job_queue& queue, std::condition_variable& ready, Run run, After after) {
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

  void work() {
    drain(
        jobs_, job_ready_, [this](const connection& c) { serve_(c.sock); },
        [this](const connection& c) {
          --admitted_;
          auto held = per_peer_.find(c.peer);
          if (held != per_peer_.end() && --held->second == 0) per_peer_.erase(held);
        });
  }

  void reject_loop() {
    drain(
        rejections_, rejection_ready_, [this](const connection& c) { refuse_(c.sock, c.reason); },
        [](const connection&) {});
  }

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

// One canonical request, already received whole, for httplib to parse; the response goes
// straight to the socket.
class buffered_stream : public httplib::Stream {
 public:
  buffered_stream(socket_t sock, std::string request, int write_timeout_ms)
      : sock_(sock), data_(std::move(request)), write_timeout_ms_(write_timeout_ms) {}

  bool is_readable() const override { return position_ < data_.size(); }
  bool is_writable() const override { return wait_for(sock_, POLLOUT, write_timeout_ms_) > 0; }
  ssize_t read(char* ptr, size_t size) override {
    const size_t count = std::min(size, data_.size() - position_);
    std::memcpy(ptr, data_.data() + position_, count);
    position_ += count;
    return static_cast<ssize_t>(count);
  }
  ssize_t write(const char* ptr, size_t size) override {
    return send_all(sock_, ptr, size, write_timeout_ms_) ? static_cast<ssize_t>(size) : -1;
  }
  void get_remote_ip_and_port(std::string& ip, int& port) const override {
    ip = peer_address(sock_, &port);
  }
  void get_local_ip_and_port(std::string& ip, int& port) const override {
    sockaddr_storage address{};
    socklen_t length = sizeof address;
    ip.clear();
    port = 0;
    if (::getsockname(sock_, reinterpret_cast<sockaddr*>(&address), &length) != 0) return;
    char text[INET6_ADDRSTRLEN] = {};
    if (address.ss_family == AF_INET) {
      const auto* v4 = reinterpret_cast<const sockaddr_in*>(&address);
      ::inet_ntop(AF_INET, &v4->sin_addr, text, sizeof text);
      port = ntohs(v4->sin_port);
    }
    ip = text;
  }
  socket_t socket() const override { return sock_; }

 private:
  socket_t sock_;
  std::string data_;
  size_t position_ = 0;
  int write_timeout_ms_;
};

// An error answered by the front layer, with the API's error body; the connection then closes.
void answer_error(socket_t sock, const error& e, const std::string& method,
                  const std::string& target, int write_timeout_ms) {
  const std::string body = render_error(e);
  std::string response =
      "HTTP/1.1 " + std::to_string(e.code) + " " + reason_phrase_of(e.code) +
      "\r\nContent-Type: application/json\r\nContent-Length: " + std::to_string(body.size()) +
      "\r\nConnection: close\r\n";
  if (e.code == 503) response += "Retry-After: 1\r\n";
  response += "\r\n" + body;
  send_all(sock, response.data(), response.size(), write_timeout_ms);

  httplib::Request req;
  req.method = method;
  req.path = target.substr(0, target.find('?'));
  req.remote_addr = peer_address(sock, nullptr);
  httplib::Response res;
  res.status = e.code;
  res.body = body;
  log_request(req, res);
}

// Closes after the response has left: stop sending, read (and drop) what the client still sends
// for a moment, so that its unread bytes do not turn the close into a reset that loses the answer.
void linger_and_close(socket_t sock, int linger_ms) {
  ::shutdown(sock, SHUT_WR);
  const auto deadline = clock_type::now() + std::chrono::milliseconds(linger_ms);
  char scratch[16384];
  size_t drained = 0;
  while (drained < (size_t{4} << 20) && wait_for(sock, POLLIN, remaining_ms(deadline)) > 0) {
    const ssize_t got = ::recv(sock, scratch, sizeof scratch, MSG_DONTWAIT);
    if (got <= 0) break;
    drained += static_cast<size_t>(got);
  }
  ::close(sock);
}

// Reads whatever is available into `buffer`; >0 bytes read, 0 at the client's end of stream,
// <0 on a timeout or error.
ssize_t receive(socket_t sock, std::string& buffer, int timeout_ms) {
  if (wait_for(sock, POLLIN, timeout_ms) <= 0) return -1;
  char chunk[16384];
  ssize_t got;
  do {
    got = ::recv(sock, chunk, sizeof chunk, MSG_DONTWAIT);
  } while (got < 0 && errno == EINTR);
  if (got > 0) buffer.append(chunk, static_cast<size_t>(got));
  if (got < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) return -1;
  return got < 0 ? -2 : got;
}

}  // namespace

size_t worker_count(const connection_limits& limits) {
  if (limits.workers > 0) return limits.workers;
  return std::max<size_t>(4, size_t{4} * std::max(1u, std::thread::hardware_concurrency()));
}

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

guarded_server::guarded_server(const connection_limits& limits)
    : limits_(limits), gate_(worker_count(limits)) {
  new_task_queue = [this] {
    auto* pool = new connection_pool(
        limits_, [this](socket_t sock) { serve_connection(sock); },
        [this](socket_t sock, refusal reason) { reject_connection(sock, reason); });
    pool_ = pool;
    return pool;
  };
  set_payload_max_length(limits_.framing.max_body_bytes);
  set_keep_alive_max_count(limits_.keep_alive_max_requests);
  set_keep_alive_timeout(std::max(1, limits_.keep_alive_timeout_ms / 1000));
}

void guarded_server::widen_listen_backlog() {
  // Listening again on a listening socket only changes its backlog.
  ::listen(svr_sock_, SOMAXCONN);
}

bool guarded_server::process_and_close_socket(socket_t sock) {
  // Called on the accept thread (connection_pool::enqueue runs the job at once).
  static_cast<connection_pool*>(pool_)->admit(sock);
  return true;
}

void guarded_server::reject_connection(socket_t sock, refusal reason) {
  // Read what the client sent promptly (so that the close does not reset the answer away), answer
  // 503 and close; bounded to well under a second per connection.
  std::string ignored;
  receive(sock, ignored, 50);
  const std::string message =
      reason == refusal::peer_limit
          ? "this client (" + peer_key(sock) + ") already holds " +
                std::to_string(limits_.max_connections_per_peer) +
                " open connections, the most one client may hold (--max-connections-per-peer); "
                "close one or retry shortly"
          : "the service is at its connection limit (" + std::to_string(limits_.max_connections) +
                "); retry shortly";
  answer_error(sock, error{503, message}, "-", "-", 200);
  linger_and_close(sock, 100);
}

void guarded_server::serve_connection(socket_t sock) {
  int yes = 1;
  ::setsockopt(sock, IPPROTO_TCP, TCP_NODELAY, &yes, sizeof yes);
  const framing_limits& framing = limits_.framing;
  std::string buffer;
  bool client_done = false;  // the client half-closed: answer what arrived, then close
  for (size_t served = 0; is_running(); ++served) {
    // Wait for the next request, in slices so that a stopping server does not wait for idlers.
    if (buffer.empty()) {
      if (client_done) break;
      const auto idle_deadline =
          clock_type::now() + std::chrono::milliseconds(limits_.keep_alive_timeout_ms);
      ssize_t got = -1;
      while (is_running() && remaining_ms(idle_deadline) > 0) {
        got = receive(sock, buffer, std::min(200, remaining_ms(idle_deadline)));
        if (got != -1) break;
      }
      if (got <= 0) break;
    }
    const auto deadline = clock_type::now() + std::chrono::milliseconds(limits_.request_timeout_ms);
    // More bytes of this request, waiting in slices so that a stopping server does not wait
    // for a stalled client's deadline.
    auto receive_more = [&]() {
      if (client_done) return false;
      ssize_t got = -1;
      while (got == -1 && remaining_ms(deadline) > 0 && is_running()) {
        got = receive(sock, buffer, std::min(200, remaining_ms(deadline)));
      }
      if (got == 0) client_done = true;
      return got > 0;
    };
    auto timed_out = [&]() { return remaining_ms(deadline) == 0; };

    // Blank lines before a request line are allowed (RFC 9112 2.2).
    size_t leading = 0;
    while (leading < buffer.size() && (buffer[leading] == '\r' || buffer[leading] == '\n')) {
      ++leading;
    }
    buffer.erase(0, leading);

    // The head.
    size_t head_end = 0;
    while (true) {
      result<std::optional<size_t>> found = find_head_end(buffer, framing);
      if (!found) {
        answer_error(sock, found.err(), "-", "-", limits_.write_timeout_ms);
        return linger_and_close(sock, 1000);
      }
      if (found->has_value()) {
        head_end = **found;
        break;
      }
      if (!receive_more()) {
        if (timed_out() && !buffer.empty()) {
          answer_error(sock, error{408, "the request did not arrive in time"}, "-", "-",
                       limits_.write_timeout_ms);
          return linger_and_close(sock, 100);
        }
        return linger_and_close(sock, 0);  // closed or silent mid-head: nothing to answer
      }
    }
    result<request_head> head =
        parse_request_head(std::string_view(buffer).substr(0, head_end), framing);
    if (!head) {
      // The log line names the method and target when the request line has them.
      const std::string line =
          buffer.substr(0, std::min(buffer.find_first_of("\r\n"), size_t{300}));
      const size_t space = line.find(' ');
      const size_t second = space == std::string::npos ? space : line.find(' ', space + 1);
      const bool named = space != std::string::npos && space > 0 && space <= 16;
      answer_error(sock, head.err(), named ? line.substr(0, space) : "-",
                   named ? line.substr(space + 1, second == std::string::npos ? std::string::npos
                                                                              : second - space - 1)
                         : "-",
                   limits_.write_timeout_ms);
      return linger_and_close(sock, 1000);
    }
    const bool has_body = head->chunked || head->content_length > 0;
    if (head->expects_continue && has_body && buffer.size() == head_end) {
      static const char kContinue[] = "HTTP/1.1 100 Continue\r\n\r\n";
      send_all(sock, kContinue, sizeof kContinue - 1, limits_.write_timeout_ms);
    }

    // The body, counted as it arrives. When it stops arriving: nothing to answer while stopping,
    // 408 past the request deadline, otherwise 400 saying how it was cut short.
    const auto body_stopped = [&](const std::string& cut_short) {
      if (!is_running()) return linger_and_close(sock, 0);
      answer_error(sock,
                   timed_out() ? error{408, "the request body did not arrive in time"}
                               : error{400, cut_short},
                   head->method, head->target, limits_.write_timeout_ms);
      return linger_and_close(sock, 100);
    };
    std::string body;
    // Where this request ends in `buffer`: after the body (Content-Length), or where the chunked
    // decoder stopped.
    size_t request_end = head->chunked ? head_end : head_end + head->content_length;
    if (head->chunked) {
      chunked_decoder decoder(framing);
      size_t consumed = head_end;
      while (true) {
        result<bool> complete = decoder.feed(buffer, consumed);
        if (!complete) {
          answer_error(sock, complete.err(), head->method, head->target, limits_.write_timeout_ms);
          return linger_and_close(sock, 1000);
        }
        if (*complete) break;
        // Keep the buffer small: drop what the decoder has taken.
        buffer.erase(head_end, consumed - head_end);
        consumed = head_end;
        if (!receive_more()) return body_stopped("the chunked body ends before its last chunk");
      }
      body = decoder.body();
      request_end = consumed;
    } else {
      while (buffer.size() - head_end < head->content_length) {
        if (!receive_more()) {
          return body_stopped("the body ends after " + std::to_string(buffer.size() - head_end) +
                              " of its " + std::to_string(head->content_length) +
                              " bytes (Content-Length)");
        }
      }
      body = buffer.substr(head_end, head->content_length);
    }
    buffer.erase(0, request_end);

    std::string canonical = std::move(head->canonical_head);
    // Always framed by Content-Length, so httplib never reads a body up to the end of the stream.
    canonical += "\r\nContent-Length: " + std::to_string(body.size());
    canonical += "\r\n\r\n";
    canonical += body;

    const bool last = served + 1 >= limits_.keep_alive_max_requests || !is_running() ||
                      (client_done && buffer.empty());
    bool closed = false;
    gate_.acquire();
    buffered_stream stream(sock, std::move(canonical), limits_.write_timeout_ms);
    bool written = false;
    try {
      written = process_request(stream, last, closed, nullptr);
    } catch (...) {
      written = false;
    }
    gate_.release();
    if (!written || closed || last) break;
  }
  linger_and_close(sock, client_done ? 0 : 100);
}

}  // namespace lq::service
