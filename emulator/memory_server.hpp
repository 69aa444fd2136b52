// The native front's request path without a socket: an HTTP/1.1 request as bytes in, the response
// as bytes out. The request passes the same framing checks (front/http/framing/request_framing.hpp)
// and reaches the same httplib routing and handlers that front/http/connection/guarded_server.hpp
// gives a socket's requests, so the service's and the hub's routes answer the emulator with the
// same code, status and bytes.
#pragma once

#include <string>
#include <string_view>

#include <httplib.h>

#include "front/http/framing/request_framing.hpp"

namespace lq::emulator {

class memory_server : public httplib::Server {
 public:
  explicit memory_server(const front::framing_limits& limits = {});

  /// The response to one whole request (head and body, framed by Content-Length or chunked)
  /// from the client at address `peer`.
  std::string answer(std::string_view request, std::string peer);

 private:
  front::framing_limits limits_;
};

}  // namespace lq::emulator
