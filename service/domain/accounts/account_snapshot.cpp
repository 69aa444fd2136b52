#include "domain/accounts/account_snapshot.hpp"

#include <algorithm>
#include <map>
#include <mutex>
#include <set>

#include "domain/json_document.hpp"
#include "front/service_clock.hpp"
#include "lq/answers/reason.hpp"
#include "lq/time/tzif.hpp"

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
  snapshot["generated_at"] = format_rfc3339_ms(generated_at);
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
  snapshot["points"] = points;

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
    json record = json::parse(row.record);
    // The account read's name for what the product costs.
    record["cost"] = record.contains("points") ? record["points"] : json(0);
    products.push_back(std::move(record));
  }
  snapshot["points_products"] = std::move(products);

  // The loyalty service's account-read fields. `progress` is sent only to merchants without
  // points, and every merchant here has points; the service keeps no email.
  snapshot["id"] = user->id;
  snapshot["email"] = nullptr;
  snapshot["points_balances"] = std::move(points);
  return snapshot.dump();
}

namespace {

// Explain codes meaning "not usable now at this location and venue" (basket-independent).
bool unusable_here(reason_code code, bool location_asked) {
  switch (code) {
    case reason_code::venue_mismatch:
    case reason_code::location_mismatch:
    case reason_code::expired:
    case reason_code::not_started:
    case reason_code::outside_time_window:
      return true;
    case reason_code::location_required:
      return location_asked;
    default:
      return false;
  }
}

// The vendor's states of a usable reward (`delivered`, `active`) are this service's `redeemable`.
bool state_wanted(const std::vector<std::string>& states, const std::string& state) {
  return std::any_of(states.begin(), states.end(), [&](const std::string& wanted) {
    return wanted == state ||
           (state == "redeemable" && (wanted == "delivered" || wanted == "active"));
  });
}

}  // namespace

result<std::string> build_account_read(const std::string& account_json, const qualifier& engine,
                                       const account_read_query& query, instant now) {
  json body = json::parse(account_json);
  json request = json::object();
  request["redemption_venue"] = query.redemption_venue.value_or("online");
  const bool location_asked = query.location_uid || query.location_id;
  if (query.location_uid) {
    request["location_uid"] = *query.location_uid;
  } else if (query.location_id) {
    // A hashid names the location through the snapshot's own list; an unknown one resolves to
    // nothing, and then no location-restricted record is usable.
    for (const json& location : body["locations"]) {
      if (location.value("id", "") == *query.location_id) {
        request["location_uid"] = location["uid"];
        break;
      }
    }
  }
  // The engine's own rules decide what is usable: the venue check gives the contract's 400.
  const result<explain_result> explained = engine.explain(request.dump(), now);
  if (!explained) return explained.err();

  std::set<std::pair<offer_kind, std::string>> unusable;  // (kind, id)
  for (const explanation& entry : explained->entries) {
    const bool out =
        std::any_of(entry.reasons.begin(), entry.reasons.end(),
                    [&](const reason& why) { return unusable_here(why.code, location_asked); });
    if (!out) continue;
    unusable.emplace(entry.kind, std::string(entry.id));
  }
  const std::vector<std::string> states =
      query.reward_states.value_or(std::vector<std::string>{"redeemable"});
  auto keep = [&](const char* list, offer_kind kind, bool by_state) {
    json kept = json::array();
    for (json& record : body[list]) {
      const std::string id = record.value("id", "");
      if (unusable.count({kind, id}) != 0) continue;
      if (by_state && !state_wanted(states, record.value("state", "redeemable"))) continue;
      kept.push_back(std::move(record));
    }
    body[list] = std::move(kept);
  };
  keep("rewards", offer_kind::reward, true);
  keep("points_products", offer_kind::points_product, false);
  return body.dump();
}

}  // namespace lq::service
