#include "domain/sandbox/fixture.hpp"

#include <fstream>
#include <iterator>
#include <map>
#include <optional>
#include <set>
#include <sstream>

#include "domain/accounts/account_snapshot.hpp"
#include "domain/json_document.hpp"
#include "domain/purchases/campaigns.hpp"
#include "domain/sandbox/fraud_rule.hpp"
#include "domain/sandbox/test_cards.hpp"
#include "lq/qualifier.hpp"
#include "lq/time/tzif.hpp"

namespace lq::service {

namespace {

struct invalid_fixture {
  std::string message;
};

[[noreturn]] void reject(const std::string& path, const std::string& what) {
  throw invalid_fixture{path + " " + what};
}

std::string at(const std::string& base, size_t index) {
  return base + "[" + std::to_string(index) + "]";
}

const json& array_at(const json& parent, const std::string& path, const char* key) {
  static const json empty = json::array();
  auto it = parent.find(key);
  if (it == parent.end() || it->is_null()) return empty;
  if (!it->is_array()) reject(path.empty() ? key : path + "." + key, "must be an array");
  return *it;
}

void require_object(const json& value, const std::string& path) {
  if (!value.is_object()) reject(path, "must be an object");
}

std::string required_string(const json& object, const std::string& path, const char* key) {
  auto it = object.find(key);
  if (it == object.end() || !it->is_string() || it->get_ref<const std::string&>().empty()) {
    reject(path + "." + key, "is required (a non-empty string)");
  }
  return it->get<std::string>();
}

std::optional<std::string> optional_string(const json& object, const std::string& path,
                                           const char* key) {
  auto it = object.find(key);
  if (it == object.end() || it->is_null()) return std::nullopt;
  if (!it->is_string()) reject(path + "." + key, "must be a string");
  return it->get<std::string>();
}

// A non-negative decimal given as a JSON number or numeric string, as exact text.
std::string decimal_text(const json& object, const std::string& path, const char* key,
                         const char* fallback) {
  auto it = object.find(key);
  if (it == object.end() || it->is_null()) return fallback;
  std::string text;
  if (it->is_string()) {
    text = it->get<std::string>();
  } else if (it->is_number()) {
    text = it->dump();
  } else {
    reject(path + "." + key, "must be a decimal (a JSON number or numeric string)");
  }
  std::optional<decimal> value = decimal::parse(text);
  if (!value || value->is_negative()) {
    reject(path + "." + key, "must be a non-negative decimal");
  }
  return text;
}

void require_time_zone(const std::string& zone, const std::string& path) {
  if (!posix_tz_for_zone(zone)) {
    reject(path, "names no time zone of the system tzdata (/usr/share/zoneinfo): " + zone);
  }
}

json read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw invalid_fixture{"cannot read fixture " + path};
  std::ostringstream text;
  text << in.rdbuf();
  result<json> parsed = parse_json_limited(text.str(), "the fixture");
  if (!parsed) throw invalid_fixture{parsed.err().message};
  if (!parsed->is_object()) throw invalid_fixture{"the fixture must be a JSON object"};
  return std::move(parsed.value());
}

class seeder {
 public:
  seeder(store& db, std::string now) : db_(db), now_(std::move(now)) {
    for (const merchant_row& m : db_.merchants()) merchants_.insert(m.id);
    for (const user_row& u : db_.users()) user_merchant_.emplace(u.id, u.merchant_id);
  }

  void seed(const json& fixture) {
    const json& merchants = array_at(fixture, "", "merchants");
    for (size_t i = 0; i < merchants.size(); ++i) merchant(merchants[i], at("merchants", i));
    const json& clients = array_at(fixture, "", "clients");
    for (size_t i = 0; i < clients.size(); ++i) client(clients[i], at("clients", i));
    const json& users = array_at(fixture, "", "users");
    for (size_t i = 0; i < users.size(); ++i) user(users[i], at("users", i));
    const json& campaigns = array_at(fixture, "", "campaigns");
    for (size_t i = 0; i < campaigns.size(); ++i) campaign(campaigns[i], at("campaigns", i));
    const json& rewards = array_at(fixture, "", "rewards");
    for (size_t i = 0; i < rewards.size(); ++i) reward(rewards[i], at("rewards", i));
    const json& products = array_at(fixture, "", "points_products");
    for (size_t i = 0; i < products.size(); ++i) {
      points_product(products[i], at("points_products", i));
    }
  }

  seed_summary summary() const { return summary_; }

 private:
  void count(bool inserted) { ++(inserted ? summary_.inserted : summary_.kept); }

  std::string known_merchant(const json& object, const std::string& path) {
    std::string id = required_string(object, path, "merchant_id");
    if (merchants_.count(id) == 0) reject(path + ".merchant_id", "names no merchant: " + id);
    return id;
  }

  void merchant(const json& m, const std::string& path) {
    require_object(m, path);
    merchant_row row;
    row.id = required_string(m, path, "id");
    row.merchant_key = required_string(m, path, "merchant_key");
    row.time_zone = required_string(m, path, "time_zone");
    require_time_zone(row.time_zone, path + ".time_zone");
    row.points_per_dollar = decimal_text(m, path, "points_per_dollar", "1");
    row.points_experience_id = optional_string(m, path, "points_experience_id").value_or("points");
    count(db_.insert_merchant(row));
    merchants_.insert(row.id);
    const json& locations = array_at(m, path, "locations");
    for (size_t i = 0; i < locations.size(); ++i) {
      const std::string place = at(path + ".locations", i);
      require_object(locations[i], place);
      location_row loc;
      loc.uid = required_string(locations[i], place, "uid");
      loc.id = required_string(locations[i], place, "id");
      loc.merchant_id = row.id;
      loc.time_zone = optional_string(locations[i], place, "time_zone");
      if (loc.time_zone) require_time_zone(*loc.time_zone, place + ".time_zone");
      count(db_.insert_location(loc));
    }
  }

  void client(const json& c, const std::string& path) {
    require_object(c, path);
    const std::string id = required_string(c, path, "client_id");
    std::optional<std::string> merchant;
    if (c.contains("merchant_id")) merchant = known_merchant(c, path);
    count(db_.insert_client(id, merchant));
  }

  void user(const json& u, const std::string& path) {
    require_object(u, path);
    user_row row;
    row.id = required_string(u, path, "id");
    row.merchant_id = known_merchant(u, path);
    row.access_token = required_string(u, path, "access_token");
    count(db_.insert_user(row));
    user_merchant_.emplace(row.id, row.merchant_id);
    const json& points = array_at(u, path, "points");
    for (size_t i = 0; i < points.size(); ++i) {
      const std::string entry = at(path + ".points", i);
      require_object(points[i], entry);
      points_row balance;
      balance.points_experience_id = required_string(points[i], entry, "points_experience_id");
      auto it = points[i].find("balance");
      if (it != points[i].end() && !it->is_null()) {
        if (!it->is_number_integer() || it->get<int64_t>() < 0) {
          reject(entry + ".balance", "must be a non-negative integer");
        }
        balance.balance = it->get<int64_t>();
      }
      count(db_.insert_points_balance(row.id, balance));
    }
    // The emulator's registered cards (the sandbox fraud rule's input).
    const json& cards = array_at(u, path, "cards");
    for (size_t i = 0; i < cards.size(); ++i) {
      const std::string entry = at(path + ".cards", i);
      std::optional<std::string> digits =
          cards[i].is_string() ? card_digits(cards[i].get<std::string>()) : std::nullopt;
      if (!digits || test_card_family(*digits) == nullptr) {
        throw invalid_fixture{card_number_problem(entry)};
      }
      // now_: restamp_seeded_times writes it again in a copied database.
      count(db_.insert_card(row.id, card_row{*digits, now_}));
    }
  }

  void campaign(const json& c, const std::string& path) {
    require_object(c, path);
    campaign_row row;
    auto id = c.find("id");
    if (id == c.end() || !id->is_number_integer()) {
      reject(path + ".id", "is required (the numeric program id)");
    }
    row.id = id->get<int64_t>();
    row.external_uid_hashid = required_string(c, path, "external_uid_hashid");
    row.merchant_id = known_merchant(c, path);
    row.reward_type = optional_string(c, path, "reward_type").value_or(kDefaultRewardType);
    if (!known_reward_type(row.reward_type)) {
      reject(path + ".reward_type", std::string("must be one of: ") + kRewardTypes);
    }
    auto reward = c.find("reward");
    if (reward == c.end() || !reward->is_object()) reject(path + ".reward", "must be an object");
    row.reward_template = reward->dump();
    // A grant or a trigger must never issue a reward the engine cannot load.
    const json sample = campaign_reward_record(row, "rw_template_check", "template-check");
    if (std::optional<std::string> problem = reward_record_problem(sample, row.merchant_id)) {
      reject(path + ".reward", "is not a valid reward record: " + *problem);
    }
    auto trigger = c.find("trigger");
    if (trigger != c.end() && !trigger->is_null()) {
      result<purchase_trigger> parsed = parse_purchase_trigger(*trigger, path + ".trigger");
      if (!parsed) throw invalid_fixture{parsed.err().message};
      row.purchase_trigger = trigger->dump();
    }
    count(db_.insert_campaign(row));
  }

  void reward(const json& r, const std::string& path) {
    require_object(r, path);
    reward_insert row;
    row.id = required_string(r, path, "id");
    row.user_id = required_string(r, path, "user_id");
    auto owner = user_merchant_.find(row.user_id);
    if (owner == user_merchant_.end()) reject(path + ".user_id", "names no user: " + row.user_id);
    row.merchant_id = optional_string(r, path, "merchant_id").value_or(owner->second);
    if (merchants_.count(row.merchant_id) == 0) {
      reject(path + ".merchant_id", "names no merchant: " + row.merchant_id);
    }
    row.state = optional_string(r, path, "state").value_or("redeemable");
    json record = r;
    record["merchant_id"] = row.merchant_id;
    record["state"] = row.state;
    row.record = record.dump();
    row.created_at = now_;  // restamp_seeded_times writes it again in a copied database
    count(db_.insert_reward(row));
  }

  void points_product(const json& p, const std::string& path) {
    require_object(p, path);
    const std::string id = required_string(p, path, "id");
    const std::string merchant = known_merchant(p, path);
    count(db_.insert_points_product(id, merchant, p.dump()));
  }

  store& db_;
  std::string now_;
  std::set<std::string> merchants_;
  std::map<std::string, std::string> user_merchant_;
  seed_summary summary_;
};

}  // namespace

result<seed_summary> seed_from_fixture(store& db, const std::string& fixture_path,
                                       const std::string& now_text) {
  try {
    const json fixture = read_file(fixture_path);
    front::transaction tx(db.db());
    seeder s(db, now_text);
    s.seed(fixture);
    // Every account must load in the engine, or nothing of the fixture is kept.
    for (const user_row& user : db.users()) {
      qualifier engine;
      const std::optional<std::string> snapshot = build_account_snapshot(db, user.id, instant{});
      if (!snapshot) throw invalid_fixture{"the account of " + user.id + " cannot be built"};
      if (std::optional<error> rejected = engine.set_snapshot(*snapshot)) {
        throw invalid_fixture{"the account of " + user.id +
                              " is not a valid snapshot: " + rejected->message};
      }
    }
    tx.commit();
    return s.summary();
  } catch (const invalid_fixture& e) {
    return error{422, "fixture " + fixture_path + ": " + e.message};
  }
}

void restamp_seeded_times(store& db, const std::string& now_text) {
  front::transaction tx(db.db());
  db.set_every_reward_created_at(now_text);
  db.set_every_card_registered_at(now_text);
  tx.commit();
}

}  // namespace lq::service
