#include "front/http/peer_address.hpp"

namespace lq::front {

std::string client_of_address(std::string address) {
  constexpr const char kMapped[] = "::ffff:";
  if (address.rfind(kMapped, 0) == 0 && address.find('.') != std::string::npos) {
    address.erase(0, sizeof kMapped - 1);
  }
  return address;
}

}  // namespace lq::front
