#include "account_snapshot.hpp"

#include <map>
#include <mutex>

#include "json_body.hpp"
#include "service_clock.hpp"
#include "tzif.hpp"

namespace lq::service {

std::optional<std::string> tz_rule_for(const std::string& time_zone) {
  static std::mutex mutex;
  static std::map<std::string, std::optional<std::string>> rules;
  std::lock_guard<std::mutex> lock(mutex);
  auto it = rules.find(time_zone);
  if (it == rules.end()) it = rules.emplace(time_zone, posix_tz_for_zone(time_zone)).first;
  return it->second;
}

namespace {

json zone_fields(json object, const std::string& time_zone) {
  object["time_zone"] = time_zone;
  if (std::optional<std::string> rule = tz_rule_for(time_zone)) object["tz_rule"] = *rule;
  return object;
}

}  // namespace

std::optional<std::string> build_account_snapshot(store& db, const std::string& user_id,
                                                  instant generated_at) {
  std::optional<user_row> user = db.user(user_id);
  if (!user) return std::nullopt;
  std::optional<merchant_row> merchant = db.merchant(user->merchant_id);
  if (!merchant) return std::nullopt;

  json snapshot = json::object();
  snapshot["schema_version"] = 1;
  snapshot["generated_at"] = format_rfc3339(generated_at);
  snapshot["merchant"] = zone_fields(json{{"id", merchant->id}}, merchant->time_zone);

  // Only this merchant's locations: another merchant's location_uid is then unknown, which the
  // rules treat exactly like a dropped one (no restriction matches), and nothing of another
  // merchant is exposed.
  json locations = json::array();
  for (const location_row& loc : db.locations_of(merchant->id)) {
    locations.push_back(
        zone_fields(json{{"uid", loc.uid}, {"id", loc.id}, {"merchant_id", loc.merchant_id}},
                    loc.time_zone.value_or(merchant->time_zone)));
  }
  snapshot["locations"] = std::move(locations);
  snapshot["user"] = json{{"id", user->id}};

  json points = json::array();
  for (const points_row& row : db.points_of(user->id)) {
    points.push_back(
        json{{"points_experience_id", row.points_experience_id}, {"balance", row.balance}});
  }
  snapshot["points"] = std::move(points);

  json rewards = json::array();
  for (const offer_row& row : db.rewards_of(user->id, merchant->id)) {
    json record = json::parse(row.record);
    record["state"] = row.state;  // the column is authoritative (redemption changes it)
    record["user_id"] = user->id;
    rewards.push_back(std::move(record));
  }
  snapshot["rewards"] = std::move(rewards);

  json products = json::array();
  for (const offer_row& row : db.points_products_of(merchant->id)) {
    products.push_back(json::parse(row.record));
  }
  snapshot["points_products"] = std::move(products);
  return snapshot.dump();
}

}  // namespace lq::service
