#include "front/http/connection/socket_io.hpp"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>

#include "front/http/peer_address.hpp"

namespace lq::front::socket_io {

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

}  // namespace lq::front::socket_io
