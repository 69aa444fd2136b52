#include "model/offer_order.hpp"

namespace lq {

bool expires_before(const offer& a, const offer& b) {
  if (a.retire_at.has_value() != b.retire_at.has_value()) return a.retire_at.has_value();
  if (a.retire_at && *a.retire_at != *b.retire_at) return *a.retire_at < *b.retire_at;
  return a.id < b.id;
}

bool costs_fewer_points(const offer& a, const offer& b) {
  return a.points != b.points ? a.points < b.points : a.id < b.id;
}

}  // namespace lq
