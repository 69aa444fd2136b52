#include "domain/baskets/points_bounds.hpp"

namespace lq::service {

std::optional<error> points_out_of_range(store& db, const std::string& user_id,
                                         const std::string& points_experience_id,
                                         std::optional<int64_t> points, const std::string& field) {
  const std::string limit = std::to_string(kMaxPointsBalance);
  if (!points || *points < 0 || *points > kMaxPointsBalance) {
    return error{400, field + " is out of range: the points it accrues would exceed " + limit};
  }
  const int64_t committed = db.committed_and_pending_points(user_id, points_experience_id);
  if (committed > kMaxPointsBalance - *points) {
    return error{400, field + " is out of range: the points it accrues (" +
                          std::to_string(*points) + ") would take the balance beyond " + limit};
  }
  return std::nullopt;
}

}  // namespace lq::service
