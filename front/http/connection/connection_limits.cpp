#include "front/http/connection/connection_limits.hpp"

#include <algorithm>
#include <thread>

namespace lq::front {

size_t worker_count(const connection_limits& limits) {
  if (limits.workers > 0) return limits.workers;
  return std::max<size_t>(4, size_t{4} * std::max(1u, std::thread::hardware_concurrency()));
}

}  // namespace lq::front
