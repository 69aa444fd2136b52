// Naming one offer of a snapshot: its kind and id.
#pragma once

#include <cstdint>
#include <string>

namespace lq {

enum class offer_kind : uint8_t { reward, points_product };

/// An offer by kind and id (a reward and a points product may share an id).
struct offer_ref {
  offer_kind kind = offer_kind::reward;
  std::string id;
};

}  // namespace lq
