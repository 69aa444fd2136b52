#include "front/http/connection/guarded_server.hpp"

#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>

#include <algorithm>
#include <chrono>
#include <optional>
#include <string>

#include "front/http/access_log.hpp"
#include "front/http/connection/buffered_stream.hpp"
#include "front/http/connection/connection_pool.hpp"
#include "front/http/connection/socket_io.hpp"
#include "front/http/framing/chunked_decoder.hpp"
#include "front/http/framing/reason_phrase.hpp"
#include "lq/qualifier.hpp"
#include "lq/render.hpp"

namespace lq::front {

using socket_io::clock_type;
using socket_io::linger_and_close;
using socket_io::receive;
using socket_io::remaining_ms;
using socket_io::send_all;

namespace {

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
  req.remote_addr = socket_io::peer_address(sock, nullptr);
  httplib::Response res;
  res.status = e.code;
  res.body = body;
  log_request(req, res);
}

}  // namespace

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
          ? "this client (" + socket_io::peer_key(sock) + ") already holds " +
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

}  // namespace lq::front
