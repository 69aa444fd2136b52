#include "domain/purchases/campaigns.hpp"

#include <algorithm>
#include <mutex>
#include <random>

#include "lq/qualifier.hpp"

namespace lq::service {

namespace {

constexpr int kRewardIdLength = 12;
constexpr int kIdAttempts = 16;

// "rw_" + 12 base62 characters: hashid-like, never a number.
std::string new_reward_id() {
  static std::mutex mutex;
  static std::mt19937_64 generator{std::random_device{}()};
  static constexpr char kAlphabet[] =
      "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
  std::uniform_int_distribution<size_t> pick(0, sizeof kAlphabet - 2);
  std::lock_guard<std::mutex> lock(mutex);
  std::string id = "rw_";
  for (int i = 0; i < kRewardIdLength; ++i) id += kAlphabet[pick(generator)];
  return id;
}

error bad_trigger(const std::string& path, const std::string& what) {
  return error{422, path + " " + what};
}

}  // namespace

result<purchase_trigger> parse_purchase_trigger(const json& trigger, const std::string& path) {
  if (!trigger.is_object()) return bad_trigger(path, "must be an object");
  purchase_trigger parsed;
  auto type = trigger.find("type");
  if (type != trigger.end() && !type->is_null() && *type != "purchase") {
    return bad_trigger(path + ".type", "must be \"purchase\" (the only trigger there is)");
  }
  auto minimum = trigger.find("minimum_amount");
  if (minimum != trigger.end() && !minimum->is_null()) {
    std::string text;
    if (minimum->is_string()) {
      text = minimum->get<std::string>();
    } else if (minimum->is_number()) {
      text = minimum->dump();
    }
    std::optional<decimal> value = decimal::parse(text);
    if (!value || value->is_negative()) {
      return bad_trigger(path + ".minimum_amount", "must be a non-negative decimal");
    }
    parsed.minimum_amount = *value;
  }
  auto locations = trigger.find("location_ids");
  if (locations != trigger.end() && !locations->is_null()) {
    if (!locations->is_array()) return bad_trigger(path + ".location_ids", "must be an array");
    for (size_t i = 0; i < locations->size(); ++i) {
      const json& id = (*locations)[i];
      if (!id.is_string()) {
        return bad_trigger(path + ".location_ids[" + std::to_string(i) + "]", "must be a string");
      }
      parsed.location_ids.push_back(id.get<std::string>());
    }
  }
  auto once = trigger.find("once_per_user");
  if (once != trigger.end() && !once->is_null()) {
    if (!once->is_boolean()) return bad_trigger(path + ".once_per_user", "must be a boolean");
    parsed.once_per_user = once->get<bool>();
  }
  return parsed;
}

json campaign_reward_record(const campaign_row& campaign, const std::string& reward_id,
                            const std::string& user_id) {
  const json reward_template = json::parse(campaign.reward_template);
  json record = json::object();
  record["id"] = reward_id;
  for (const auto& [key, value] : reward_template.items()) {
    if (key == "id" || key == "user_id" || key == "merchant_id" || key == "state") continue;
    record[key] = value;
  }
  auto state = reward_template.find("state");
  record["state"] =
      state != reward_template.end() && state->is_string() ? *state : json("redeemable");
  record["user_id"] = user_id;
  record["merchant_id"] = campaign.merchant_id;
  return record;
}

std::optional<std::string> reward_record_problem(const json& record, const std::string& merchant) {
  json snapshot = json::object();
  snapshot["schema_version"] = 1;
  snapshot["merchant"] = json{{"id", merchant}};
  snapshot["user"] = json{{"id", record.value("user_id", "")}};
  snapshot["rewards"] = json::array({record});
  qualifier engine;
  if (std::optional<error> rejected = engine.set_snapshot(snapshot.dump())) {
    return rejected->message;
  }
  return std::nullopt;
}

json withheld_campaign_reward(const campaign_row& campaign, const std::string& user_id) {
  return campaign_reward_record(campaign, new_reward_id(), user_id);
}

json issue_campaign_reward(store& db, const campaign_row& campaign, const std::string& user_id,
                           const std::string& at, std::optional<int64_t> trigger_purchase_id) {
  for (int attempt = 0; attempt < kIdAttempts; ++attempt) {
    json record = campaign_reward_record(campaign, new_reward_id(), user_id);
    reward_insert row;
    row.id = record["id"].get<std::string>();
    row.user_id = user_id;
    row.merchant_id = campaign.merchant_id;
    row.state = record["state"].get<std::string>();
    row.record = record.dump();
    row.campaign_id = campaign.id;
    row.created_at = at;
    row.trigger_purchase_id = trigger_purchase_id;
    if (db.insert_reward(row)) return record;  // false only when the id is taken
  }
  throw front::database_error("cannot find a free reward id");
}

triggered_rewards issue_triggered_rewards(store& db, const purchase_row& purchase,
                                          const std::string& at, bool fraud_rule) {
  triggered_rewards done;
  const std::optional<decimal> amount = decimal::parse(purchase.amount);
  if (!amount) return done;
  for (const campaign_row& campaign : db.triggered_campaigns_of(purchase.merchant_id)) {
    result<purchase_trigger> trigger =
        parse_purchase_trigger(json::parse(*campaign.purchase_trigger), "trigger");
    if (!trigger) continue;  // validated when seeded; a hand-edited row is skipped
    if (*amount < trigger->minimum_amount) continue;
    const std::vector<std::string>& places = trigger->location_ids;
    if (!places.empty() &&
        (!purchase.location_id ||
         std::find(places.begin(), places.end(), *purchase.location_id) == places.end())) {
      continue;
    }
    if (trigger->once_per_user && db.has_campaign_reward(purchase.user_id, campaign.id)) continue;
    if (fraud_rule) {
      if (std::optional<withheld_reward> withheld =
              withheld_by_fraud_rule(db, campaign, purchase.user_id)) {
        done.withheld.push_back(std::move(*withheld));
        continue;
      }
    }
    done.issued.push_back(
        issue_campaign_reward(db, campaign, purchase.user_id, at, purchase.id)["id"]
            .get<std::string>());
  }
  return done;
}

}  // namespace lq::service
