#include "front/http/connection/buffered_stream.hpp"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>

#include <algorithm>
#include <cstring>

#include "front/http/connection/socket_io.hpp"

namespace lq::front {

bool buffered_stream::is_writable() const {
  return socket_io::wait_for(sock_, POLLOUT, write_timeout_ms_) > 0;
}

ssize_t buffered_stream::read(char* ptr, size_t size) {
  const size_t count = std::min(size, data_.size() - position_);
  std::memcpy(ptr, data_.data() + position_, count);
  position_ += count;
  return static_cast<ssize_t>(count);
}

ssize_t buffered_stream::write(const char* ptr, size_t size) {
  return socket_io::send_all(sock_, ptr, size, write_timeout_ms_) ? static_cast<ssize_t>(size) : -1;
}

void buffered_stream::get_remote_ip_and_port(std::string& ip, int& port) const {
  ip = socket_io::peer_address(sock_, &port);
}

void buffered_stream::get_local_ip_and_port(std::string& ip, int& port) const {
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

}  // namespace lq::front
