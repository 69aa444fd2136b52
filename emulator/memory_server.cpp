#include "memory_server.hpp"

#include <algorithm>
#include <cstring>
#include <utility>

#include "front/http/framing/chunked_decoder.hpp"
#include "front/http/framing/reason_phrase.hpp"
#include "lq/render.hpp"

namespace lq::emulator {

namespace {

// One canonical request for httplib to parse; what httplib writes is kept as the response.
class memory_stream : public httplib::Stream {
 public:
  memory_stream(std::string request, std::string peer)
      : request_(std::move(request)), peer_(std::move(peer)) {}

  bool is_readable() const override { return position_ < request_.size(); }
  bool is_writable() const override { return true; }
  ssize_t read(char* ptr, size_t size) override {
    const size_t count = std::min(size, request_.size() - position_);
    std::memcpy(ptr, request_.data() + position_, count);
    position_ += count;
    return static_cast<ssize_t>(count);
  }
  ssize_t write(const char* ptr, size_t size) override {
    response_.append(ptr, size);
    return static_cast<ssize_t>(size);
  }
  // The client's address as the caller gives it (the wasm runtime's socket peer; 127.0.0.1 for
  // emulator.fetch, a caller in this process): the per-client limits count it as natively.
  void get_remote_ip_and_port(std::string& ip, int& port) const override {
    ip = peer_;
    port = 0;
  }
  void get_local_ip_and_port(std::string& ip, int& port) const override {
    ip = "127.0.0.1";
    port = 0;
  }
  socket_t socket() const override { return 0; }

  std::string take_response() { return std::move(response_); }

 private:
  std::string request_;
  std::string peer_;
  size_t position_ = 0;
  std::string response_;
};

// An error the framing layer answers, in the bytes the native front writes for it (the API's
// error body, then the connection closes).
std::string framing_error(const error& e) {
  const std::string body = render_error(e);
  return "HTTP/1.1 " + std::to_string(e.code) + " " + front::reason_phrase_of(e.code) +
         "\r\nContent-Type: application/json\r\nContent-Length: " + std::to_string(body.size()) +
         "\r\nConnection: close\r\n\r\n" + body;
}

}  // namespace

memory_server::memory_server(const front::framing_limits& limits) : limits_(limits) {
  set_payload_max_length(limits_.max_body_bytes);
}

std::string memory_server::answer(std::string_view request, std::string peer) {
  result<std::optional<size_t>> found = front::find_head_end(request, limits_);
  if (!found) return framing_error(found.err());
  if (!found->has_value()) return framing_error(error{400, "the request head is incomplete"});
  const size_t head_end = **found;
  result<front::request_head> head =
      front::parse_request_head(request.substr(0, head_end), limits_);
  if (!head) return framing_error(head.err());

  std::string body;
  if (head->chunked) {
    front::chunked_decoder decoder(limits_);
    size_t consumed = head_end;
    result<bool> complete = decoder.feed(request, consumed);
    if (!complete) return framing_error(complete.err());
    if (!*complete) {
      return framing_error(error{400, "the chunked body ends before its last chunk"});
    }
    body = decoder.body();
  } else {
    const size_t received = request.size() - head_end;
    if (received < head->content_length) {
      return framing_error(error{400, "the body ends after " + std::to_string(received) +
                                          " of its " + std::to_string(head->content_length) +
                                          " bytes (Content-Length)"});
    }
    body = std::string(request.substr(head_end, head->content_length));
  }

  // As the native front hands it on: the canonical head, always framed by Content-Length.
  std::string canonical = std::move(head->canonical_head);
  canonical += "\r\nContent-Length: " + std::to_string(body.size());
  canonical += "\r\n\r\n";
  canonical += body;
  memory_stream stream(std::move(canonical), std::move(peer));
  bool closed = false;
  process_request(stream, false, closed, nullptr);
  return stream.take_response();
}

}  // namespace lq::emulator
