#pragma once

#include <string>

namespace lq::front {

/// A remote address as the per-peer limits and the wrong-key brake count it: an IPv4 client on
/// an IPv6 socket (::ffff:127.0.0.1) counts as its IPv4 address.
std::string client_of_address(std::string address);

}  // namespace lq::front
