// What httplib reads a request from and writes its response to, behind the guarded server.
#pragma once

#include <cstddef>
#include <string>
#include <utility>

#include <httplib.h>

namespace lq::front {

// One canonical request, already received whole, for httplib to parse; the response goes
// straight to the socket.
class buffered_stream : public httplib::Stream {
 public:
  buffered_stream(socket_t sock, std::string request, int write_timeout_ms)
      : sock_(sock), data_(std::move(request)), write_timeout_ms_(write_timeout_ms) {}

  bool is_readable() const override { return position_ < data_.size(); }
  bool is_writable() const override;
  ssize_t read(char* ptr, size_t size) override;
  ssize_t write(const char* ptr, size_t size) override;
  void get_remote_ip_and_port(std::string& ip, int& port) const override;
  void get_local_ip_and_port(std::string& ip, int& port) const override;
  socket_t socket() const override { return sock_; }

 private:
  socket_t sock_;
  std::string data_;
  size_t position_ = 0;
  int write_timeout_ms_;
};

}  // namespace lq::front
