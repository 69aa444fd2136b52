// Bounded reads and writes on a connection's socket, for the guarded server: every wait has a
// deadline, a close lets the answer leave first, and the peer is named for the logs and the
// per-peer share.
#pragma once

#include <chrono>
#include <cstddef>
#include <string>

#include <httplib.h>

namespace lq::front::socket_io {

using clock_type = std::chrono::steady_clock;

/// poll() for `events` up to `timeout_ms`: >0 ready (or hung up), 0 on timeout, <0 on error.
int wait_for(socket_t sock, short events, int timeout_ms);

/// Milliseconds left until `deadline`, 0 once past.
int remaining_ms(clock_type::time_point deadline);

/// Sends all of `data`, waiting for the socket up to `timeout_ms` in all; false when it cannot.
bool send_all(socket_t sock, const char* data, size_t size, int timeout_ms);

/// The remote address (and port, when `port` is given); empty when unknown.
std::string peer_address(socket_t sock, int* port);

/// The remote address as the per-peer share counts it (peer_address.hpp).
std::string peer_key(socket_t sock);

/// Closes after the response has left: stop sending, read (and drop) what the client still sends
/// for a moment, so that its unread bytes do not turn the close into a reset that loses the answer.
void linger_and_close(socket_t sock, int linger_ms);

/// Reads whatever is available into `buffer`; >0 bytes read, 0 at the client's end of stream,
/// <0 on a timeout or error.
ssize_t receive(socket_t sock, std::string& buffer, int timeout_ms);

}  // namespace lq::front::socket_io
