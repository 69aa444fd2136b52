// Property test: thousands of generated snapshot and basket pairs checked against what the
// contract implies, through the face API (lq::qualifier, JSON in and out). The generator is
// seeded and deterministic: a failure names its case number and prints both documents.
//
// The oracle is an independent reading of contract 3.1-3.3 on whole numbers (money in 1/10000
// of a cent), restricted to fixed-offset time zones so that it needs no calendar code of its own.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdint>
#include <ctime>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "lq/qualifier.hpp"
#include "lq/time/instant.hpp"

namespace {

using nlohmann::json;

constexpr int kCases = 2500;
constexpr uint64_t kSeed = 0x6c71'7072'6f70'0001ULL;
constexpr int64_t kNow = 1772442000;  // 2026-03-02T09:00:00Z, a Monday
constexpr int64_t kMicro = 10000;     // oracle money unit: 1/10000 cent

// splitmix64: the same sequence on every platform and standard library.
class generator {
 public:
  explicit generator(uint64_t seed) : state_(seed) {}
  uint64_t next() {
    uint64_t z = (state_ += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }
  /// Uniform in [lo, hi].
  int64_t range(int64_t lo, int64_t hi) {
    return lo + static_cast<int64_t>(next() % static_cast<uint64_t>(hi - lo + 1));
  }
  bool chance(int percent) { return range(0, 99) < percent; }
  template <class T>
  T pick(const std::vector<T>& options) {
    return options[static_cast<size_t>(range(0, static_cast<int64_t>(options.size()) - 1))];
  }

 private:
  uint64_t state_;
};

// ---- Money in JSON: the same value as a number or as a numeric string. ------------------------

/// `units` of 10^-`places` dollars (places 2: cents, 3: mills) as JSON.
json money(generator& g, int64_t units, int places) {
  int64_t scale = places == 2 ? 100 : 1000;
  std::string text = std::to_string(units / scale) + ".";
  std::string fraction = std::to_string(units % scale);
  text += std::string(static_cast<size_t>(places) - fraction.size(), '0') + fraction;
  switch (g.range(0, 2)) {
    case 0:
      return text;
    case 1:
      if (units % scale == 0) return units / scale;
      return json::parse(text);  // a JSON number written exactly as the decimal
    default:
      return json::parse(text);
  }
}

std::string rfc3339(int64_t seconds, int offset_minutes) {
  const time_t local = static_cast<time_t>(seconds + int64_t{offset_minutes} * 60);
  std::tm tm{};
  gmtime_r(&local, &tm);
  char buffer[40];
  std::strftime(buffer, sizeof buffer, "%Y-%m-%dT%H:%M:%S", &tm);
  std::string out = buffer;
  if (offset_minutes == 0) return out + "Z";
  const int magnitude = offset_minutes < 0 ? -offset_minutes : offset_minutes;
  char zone[8];
  std::snprintf(zone, sizeof zone, "%c%02d:%02d", offset_minutes < 0 ? '-' : '+', magnitude / 60,
                magnitude % 60);
  return out + zone;
}

// ---- The generated documents and what the oracle needs to know about them. --------------------

const std::vector<std::string> kProducts = {"latte", "mocha", "bagel", "muffin", "tea"};
const std::vector<std::string> kCategories = {"coffee", "pastry", "food", "hot"};
const std::vector<std::string> kModifiers = {"oat", "shot", "syrup", "latte"};
const std::vector<std::string> kDays = {"sun", "mon", "tue", "wed", "thu", "fri", "sat"};

// Fixed-offset rules only (seconds east of UTC); DST is the fuzzers' and posix_tz tests' business.
struct zone {
  const char* rule;  // nullptr: no tz_rule
  int64_t offset;
};
const std::vector<zone> kZones = {{nullptr, 0},        {"UTC0", 0},
                                  {"<-03>3", -10800},  {"<+0530>-5:30", 19800},
                                  {"<+14>-14", 50400}, {"<-11>11", -39600}};

struct window_model {
  int days = 0x7f;  // bit 0 = Sunday
  int start = 0;    // minutes
  int end = 0;
};

struct offer_model {
  bool reward = true;
  std::string id;
  std::string type;                         // amount, percent, item, fixed_price, or unknown
  std::string item_kind;                    // for item
  int64_t value = 0;                        // mills; for percent: hundredths of a percent
  std::optional<int64_t> minimum, maximum;  // mills
  std::vector<std::string> products, categories, locations;
  std::string state = "redeemable";
  bool owned = true, same_merchant = true;
  std::optional<int64_t> retire_at, starts_at;
  std::string venue = "all";
  std::optional<std::string> handoff;
  std::vector<window_model> windows;
  int64_t points = 0, balance = 0;
  json entity;  // what qualify must echo
};

struct snapshot_model {
  json document;
  std::vector<offer_model> offers;  // rewards first, in generated order
  int64_t merchant_offset = 0;
  std::map<std::string, std::pair<std::string, std::optional<int64_t>>> locations;  // uid -> id, tz
  std::set<std::string> foreign_uids;  // locations of another merchant
};

struct modifier_model {
  std::string id;
  std::optional<int64_t> price;  // cents
};

struct item_model {
  std::string id;
  std::optional<int64_t> price;  // cents
  std::vector<std::string> categories;
  std::vector<modifier_model> modifiers;
  int64_t quantity = 1;
};

struct basket_model {
  std::string venue = "online";
  std::optional<int64_t> order_time;
  std::optional<std::string> location_uid, handoff;
  std::optional<int64_t> subtotal;  // cents
  std::vector<item_model> items;
};

std::vector<std::string> subset(generator& g, const std::vector<std::string>& pool, int percent) {
  std::vector<std::string> out;
  for (const std::string& name : pool) {
    if (g.chance(percent)) out.push_back(name);
  }
  return out;
}

offer_model make_offer(generator& g, bool reward, int number) {
  offer_model o;
  o.reward = reward;
  o.id = (reward ? "r" : "p") + std::to_string(number);
  o.type =
      g.pick<std::string>({"amount", "amount", "percent", "item", "item", "fixed_price", "bundle"});
  if (o.type == "item")
    o.item_kind = g.pick<std::string>({"", "free_item", "bogo", "modifier", "combo"});
  json value;
  if (o.type == "percent") {
    o.value = g.range(0, 10000);  // 0..100 %
    value = money(g, o.value, 2);
  } else {
    o.value = g.chance(15) ? 0 : g.range(1, 12000) * (g.chance(70) ? 10 : 1);
    value = money(g, o.value, 3);
  }
  json minimum = nullptr, maximum = nullptr;
  if (g.chance(25)) {
    o.minimum = g.range(0, 3000) * 10;
    minimum = money(g, *o.minimum, 3);
  }
  if (g.chance(25)) {
    o.maximum = g.range(0, 1500) * (g.chance(50) ? 10 : 1);
    maximum = money(g, *o.maximum, 3);
  }
  if (g.chance(55)) {
    o.products = subset(g, o.item_kind == "modifier" ? kModifiers : kProducts, 30);
    if (g.chance(40)) o.categories = subset(g, kCategories, 35);
  }
  if (g.chance(10)) o.state = g.pick<std::string>({"redeemed", "pending", "unredeemable"});
  if (g.chance(15)) o.locations = subset(g, {"h_main", "h_air", "h_gone"}, 50);
  if (g.chance(15)) o.venue = g.pick<std::string>({"instore", "online", "kiosk"});
  if (g.chance(15)) o.handoff = g.pick<std::string>({"delivery", "Pickup", "CURBSIDE"});
  if (g.chance(15)) {
    const int64_t count = g.range(1, 2);
    for (int64_t i = 0; i < count; ++i) {
      window_model w;
      w.start = static_cast<int>(g.range(0, 47) * 30);
      w.end = g.chance(10) ? 1440 : static_cast<int>(g.range(0, 47) * 30);
      if (g.chance(60)) {
        w.days = 0;
        for (int d = 0; d < 7; ++d) w.days |= g.chance(40) ? 1 << d : 0;
      }
      if (w.days == 0) w.days = 0x7f;  // written as "days": [] or all seven: every day
      o.windows.push_back(w);
    }
  }

  json entity = {{"id", o.id}};
  if (!reward) {
    o.points = g.range(0, 60) * 10;
    entity["points"] = g.chance(30) ? json(std::to_string(o.points)) : json(o.points);
  }
  entity["value"] = value;
  entity["minimum"] = minimum;
  entity["maximum"] = maximum;
  entity["label"] = "Offer " + o.id;
  entity["state"] = o.state;
  entity["type"] = o.type;
  entity["products"] = o.products;
  entity["fine_print"] = g.chance(20) ? "Not with \"other\" offers.\n" : "";
  if (reward) {
    entity["retire_at"] = nullptr;
    if (g.chance(50)) {
      o.retire_at = kNow + g.range(-48, 48) * 1800;
      entity["retire_at"] =
          rfc3339(*o.retire_at, static_cast<int>(g.pick<int64_t>({0, -300, 330})));
    }
  }
  entity["restriction_location_ids"] = o.locations;
  o.entity = entity;

  json record = entity;
  if (o.type == "item" && !o.item_kind.empty()) record["item_kind"] = o.item_kind;
  if (o.type == "item" && o.item_kind.empty()) o.item_kind = "free_item";
  if (!o.categories.empty() || g.chance(10)) record["categories"] = o.categories;
  if (o.venue != "all" || g.chance(10)) record["redemption_venue"] = o.venue;
  if (o.handoff) record["handoff"] = *o.handoff;
  if (!o.windows.empty()) {
    json windows = json::array();
    for (const window_model& w : o.windows) {
      json window = {
          {"start", rfc3339(int64_t{w.start} * 60, 0).substr(11, 5)},
          {"end", w.end == 1440 ? "24:00" : rfc3339(int64_t{w.end} * 60, 0).substr(11, 5)}};
      if (w.days != 0x7f || g.chance(30)) {
        json days = json::array();
        if (w.days == 0x7f && g.chance(50)) {
          window["days"] = days;
          windows.push_back(window);
          continue;
        }
        for (int d = 0; d < 7; ++d) {
          if (w.days >> d & 1) days.push_back(kDays[static_cast<size_t>(d)]);
        }
        window["days"] = days;
      }
      windows.push_back(window);
    }
    record["time_restrictions"] = windows;
  }
  if (reward) {
    if (g.chance(8)) {
      o.owned = false;
      record["user_id"] = "u_other";
    } else if (g.chance(10)) {
      record["user_id"] = "u";
    }
    if (g.chance(8)) {
      o.same_merchant = false;
      record["merchant_id"] = "m_other";
    }
    if (g.chance(20)) {
      o.starts_at = kNow + g.range(-48, 48) * 1800;
      record["starts_at"] = rfc3339(*o.starts_at, 0);
    }
  } else {
    const int which = static_cast<int>(g.range(0, 3));
    if (which == 1) record["points_experience_id"] = "pe_main";
    if (which == 2) record["points_experience_id"] = "pe_side";
    if (which == 3) record["points_experience_id"] = "pe_none";
  }
  // Unknown fields are ignored.
  if (g.chance(10)) record["future_field"] = {{"nested", json::array({1, "two"})}};
  o.entity["__record"] = record;
  return o;
}

snapshot_model make_snapshot(generator& g) {
  snapshot_model s;
  const zone& merchant_zone = g.pick(kZones);
  const zone& air_zone = g.pick(kZones);
  s.merchant_offset = merchant_zone.offset;
  json merchant = {{"id", "m"}, {"time_zone", "Somewhere/Else"}};
  if (merchant_zone.rule) merchant["tz_rule"] = merchant_zone.rule;
  json air = {{"uid", "air"}, {"id", "h_air"}, {"merchant_id", "m"}};
  if (air_zone.rule) air["tz_rule"] = air_zone.rule;
  s.locations["main"] = {"h_main", std::nullopt};
  s.locations["air"] = {"h_air",
                        air_zone.rule ? std::optional<int64_t>(air_zone.offset) : std::nullopt};
  s.foreign_uids.insert("other");
  const int64_t main_balance = g.range(0, 40) * 10;
  const int64_t side_balance = g.range(0, 40) * 10;
  json points = json::array();
  if (g.chance(85)) {
    points.push_back({{"points_experience_id", "pe_main"}, {"balance", main_balance}});
    points.push_back({{"points_experience_id", "pe_side"}, {"balance", side_balance}});
  }
  s.document = {{"schema_version", 1},
                {"generated_at", rfc3339(kNow - 3600, 0)},
                {"merchant", merchant},
                {"locations",
                 json::array({{{"uid", "main"}, {"id", "h_main"}},
                              air,
                              {{"uid", "other"}, {"id", "h_main"}, {"merchant_id", "m_other"}}})},
                {"user", {{"id", "u"}}},
                {"points", points},
                {"rewards", json::array()},
                {"points_products", json::array()}};
  const int64_t rewards = g.range(0, 10);
  const int64_t products = g.range(0, 5);
  for (int64_t i = 0; i < rewards + products; ++i) {
    offer_model o = make_offer(g, i < rewards, static_cast<int>(i));
    if (!o.reward) {
      const json& record = o.entity["__record"];
      const std::string experience = record.contains("points_experience_id")
                                         ? record["points_experience_id"].get<std::string>()
                                         : std::string(points.empty() ? "" : "pe_main");
      o.balance = points.empty()            ? 0
                  : experience == "pe_main" ? main_balance
                  : experience == "pe_side" ? side_balance
                                            : 0;
    }
    s.document[o.reward ? "rewards" : "points_products"].push_back(o.entity["__record"]);
    o.entity.erase("__record");
    s.offers.push_back(std::move(o));
  }
  return s;
}

basket_model make_basket(generator& g) {
  basket_model b;
  if (g.chance(20)) b.venue = "instore";
  if (g.chance(60)) b.order_time = kNow + g.range(-48, 48) * 1800 + g.range(0, 1) * 60;
  if (g.chance(60)) b.location_uid = g.pick<std::string>({"main", "air", "other", "nowhere"});
  if (g.chance(40)) b.handoff = g.pick<std::string>({"DELIVERY", "pickup", "drive-thru"});
  if (g.chance(45)) b.subtotal = g.range(0, 4000);
  const int64_t lines = g.chance(10) ? 0 : g.range(1, 5);
  for (int64_t i = 0; i < lines; ++i) {
    item_model item;
    item.id = g.chance(85) ? g.pick(kProducts) : "mystery";
    if (g.chance(90)) item.price = g.chance(5) ? 0 : g.range(50, 1500);
    item.categories = subset(g, kCategories, 30);
    item.quantity = g.chance(70) ? 1 : g.range(2, 3);
    const int64_t modifiers = g.chance(60) ? 0 : g.range(1, 2);
    for (int64_t m = 0; m < modifiers; ++m) {
      modifier_model modifier{g.pick(kModifiers), std::nullopt};
      if (g.chance(90)) modifier.price = g.range(0, 150);
      item.modifiers.push_back(modifier);
    }
    b.items.push_back(item);
  }
  return b;
}

json basket_json(generator& g, const basket_model& b) {
  json request = json::object();
  if (b.venue != "online" || g.chance(30)) request["redemption_venue"] = b.venue;
  if (b.order_time) {
    request["order_timestamp"] =
        rfc3339(*b.order_time, static_cast<int>(g.pick<int64_t>({0, 60, -420, 330})));
  }
  if (b.location_uid) request["location_uid"] = *b.location_uid;
  if (b.handoff) request["handoff"] = *b.handoff;
  if (b.subtotal) request["subtotal"] = money(g, *b.subtotal, 2);
  if (!b.items.empty() || g.chance(50)) {
    json items = json::array();
    for (const item_model& item : b.items) {
      json line = {{"id", item.id}, {"name", "Item " + item.id}, {"categories", item.categories}};
      if (item.price) line["price"] = money(g, *item.price, 2);
      if (item.quantity != 1 || g.chance(20)) line["quantity"] = item.quantity;
      if (!item.modifiers.empty()) {
        json modifiers = json::array();
        for (const modifier_model& m : item.modifiers) {
          json modifier = {{"id", m.id}, {"name", "Modifier " + m.id}};
          if (m.price) modifier["price"] = money(g, *m.price, 2);
          if (item.price) modifier["item_base_price"] = money(g, *item.price, 2);
          modifiers.push_back(modifier);
        }
        line["modifiers"] = modifiers;
      }
      items.push_back(line);
    }
    request["items"] = items;
  }
  return request;
}

// ---- The oracle. ------------------------------------------------------------------------------

struct expected_entry {
  bool qualifies = false;
  int64_t discount_cents = 0;
  std::vector<std::string> codes;  // sorted
  std::optional<int64_t> remaining_cents, points_needed;
};

bool contains(const std::vector<std::string>& list, const std::string& name) {
  return std::find(list.begin(), list.end(), name) != list.end();
}

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
  return s;
}

bool in_window(const window_model& w, int minute, int weekday) {
  const bool today = (w.days >> weekday & 1) != 0;
  if (w.start < w.end) return today && minute >= w.start && minute < w.end;
  const bool yesterday = (w.days >> ((weekday + 6) % 7) & 1) != 0;
  return (today && minute >= w.start) || (yesterday && minute < w.end);
}

int64_t floor_div(int64_t a, int64_t b) {
  return a / b - ((a % b != 0) && ((a < 0) != (b < 0)));
}

expected_entry oracle(const snapshot_model& s, const offer_model& o, const basket_model& b) {
  expected_entry e;
  const int64_t t = b.order_time.value_or(kNow);
  std::vector<std::string> codes;
  if (o.reward) {
    if (o.state != "redeemable") codes.push_back("NOT_REDEEMABLE");
    if (!o.owned) codes.push_back("NOT_OWNED");
    if (!o.same_merchant) codes.push_back("OTHER_MERCHANT");
    if (o.retire_at && *o.retire_at <= t) codes.push_back("EXPIRED");
    if (o.starts_at && *o.starts_at > t) codes.push_back("NOT_STARTED");
  }
  if (o.venue != "all" && o.venue != b.venue) codes.push_back("VENUE_MISMATCH");
  // Location: another merchant's uid is dropped; an unknown one matches nothing.
  const bool dropped = b.location_uid && s.foreign_uids.count(*b.location_uid) != 0;
  const auto place =
      b.location_uid && !dropped ? s.locations.find(*b.location_uid) : s.locations.end();
  if (!o.locations.empty()) {
    if (place == s.locations.end() || !contains(o.locations, place->second.first)) {
      codes.push_back(!b.location_uid || dropped ? "LOCATION_REQUIRED" : "LOCATION_MISMATCH");
    }
  }
  if (!o.windows.empty()) {
    const int64_t offset = place != s.locations.end() && place->second.second
                               ? *place->second.second
                               : s.merchant_offset;
    const int64_t local = t + offset;
    const int64_t days = floor_div(local, 86400);
    const int minute = static_cast<int>((local - days * 86400) / 60);
    const int weekday = static_cast<int>(((days + 4) % 7 + 7) % 7);
    if (std::none_of(o.windows.begin(), o.windows.end(),
                     [&](const window_model& w) { return in_window(w, minute, weekday); })) {
      codes.push_back("OUTSIDE_TIME_WINDOW");
    }
  }
  if (o.handoff) {
    if (!b.handoff) {
      codes.push_back("HANDOFF_REQUIRED");
    } else if (lower(*o.handoff) != lower(*b.handoff)) {
      codes.push_back("HANDOFF_MISMATCH");
    }
  }
  if (o.minimum) {
    if (!b.subtotal) {
      codes.push_back("SUBTOTAL_REQUIRED");
    } else if (*b.subtotal * 10 < *o.minimum) {
      codes.push_back("BELOW_MINIMUM");
      e.remaining_cents = (*o.minimum - *b.subtotal * 10 + 9) / 10;  // mills, up to cents
    }
  }
  if (!o.reward && o.balance < o.points) {
    codes.push_back("INSUFFICIENT_POINTS");
    e.points_needed = o.points - o.balance;
  }

  // Contract 3.3 on units, in 1/10000 cent.
  const bool restricted = !o.products.empty() || !o.categories.empty();
  const bool modifier_rule = o.type == "item" && o.item_kind == "modifier";
  int64_t base = 0, sum_matching = 0, units = 0;
  std::vector<int64_t> unit_prices;  // of matching units, one per unit
  int64_t max_full = -1, max_modifier = -1;
  bool price_missing = false, modifier_missing = false;
  for (const item_model& item : b.items) {
    int64_t full = item.price.value_or(0);
    for (const modifier_model& m : item.modifiers) full += m.price.value_or(0);
    base += full * item.quantity;
    bool matches = !restricted || contains(o.products, item.id);
    for (const std::string& category : item.categories)
      matches = matches || contains(o.categories, category);
    if (!modifier_rule && matches) {
      units += item.quantity;
      sum_matching += full * item.quantity;
      for (int64_t q = 0; q < item.quantity; ++q) unit_prices.push_back(item.price.value_or(0));
      max_full = std::max(max_full, full);
      price_missing = price_missing || !item.price;
    }
    for (const modifier_model& m : item.modifiers) {
      if (modifier_rule && (!restricted || contains(o.products, m.id))) {
        // A modifier of an item without a price counts as 0 (docs/decisions.md, API spec 2.1).
        const bool priced = item.price && m.price;
        max_modifier = std::max(max_modifier, priced ? *m.price : 0);
        modifier_missing = modifier_missing || !priced;
      }
    }
  }
  if (b.subtotal) base = *b.subtotal;
  std::sort(unit_prices.rbegin(), unit_prices.rend());
  const bool empty = b.items.empty() && !b.subtotal;
  const int64_t value = o.value * 1000;  // mills -> 1/10000 cent
  auto capped = [&](int64_t d) { return o.value == 0 ? d : std::min(d, value); };
  int64_t raw = 0;
  bool matched = true, uses_unit_prices = true, supported = true;
  if (o.type == "amount") {
    if (restricted) {
      matched = units > 0;
      raw = std::min(value, sum_matching * kMicro);
    } else {
      raw = std::min(value, base * kMicro);
      uses_unit_prices = !b.subtotal;
    }
  } else if (o.type == "percent") {
    matched = !restricted || units > 0;
    uses_unit_prices = restricted || !b.subtotal;
    raw = (restricted ? sum_matching : base) * o.value;  // cents * (percent/100) = 1/10000 cent
  } else if (o.type == "item" && o.item_kind == "free_item") {
    matched = units >= 1;
    raw = matched ? capped(unit_prices[0] * kMicro) : 0;
  } else if (o.type == "item" && o.item_kind == "bogo") {
    matched = units >= 2;
    raw = matched ? capped(unit_prices[1] * kMicro) : 0;
  } else if (modifier_rule) {
    matched = max_modifier >= 0;
    raw = matched ? capped(max_modifier * kMicro) : 0;
  } else if (o.type == "fixed_price") {
    matched = units >= 1;
    raw = matched ? std::max<int64_t>(max_full * kMicro - value, 0) : 0;
  } else {
    supported = false;
  }
  if (o.maximum) raw = std::min(raw, *o.maximum * 1000);
  raw = std::min(raw, base * kMicro);
  e.discount_cents = (raw + kMicro / 2) / kMicro;
  if (e.discount_cents == 0) {
    const bool missing = modifier_rule ? modifier_missing : price_missing;
    codes.push_back(empty                         ? "EMPTY_BASKET"
                    : !supported                  ? "UNSUPPORTED_TYPE"
                    : !matched                    ? "NO_MATCHING_ITEM"
                    : missing && uses_unit_prices ? "ITEM_PRICE_MISSING"
                                                  : "ZERO_DISCOUNT");
  }
  std::sort(codes.begin(), codes.end());
  e.codes = codes;
  e.qualifies = codes.empty();
  return e;
}

// ---- Running the engine. ----------------------------------------------------------------------

struct answer {
  json qualified;
  json explained;
};

answer ask(const lq::qualifier& engine, const json& request) {
  const std::string text = request.dump();
  const lq::instant now{kNow, 0};
  const auto qualified = engine.qualify_json(text, now);
  const auto explained = engine.explain_json(text, now);
  INFO("request " << text);
  INFO((qualified.ok() ? std::string() : qualified.err().message));
  REQUIRE(qualified.ok());
  REQUIRE(explained.ok());
  return {json::parse(*qualified), json::parse(*explained)};
}

int64_t cents_of(const json& text) {
  const std::string s = text.get<std::string>();
  const size_t dot = s.find('.');
  REQUIRE(dot != std::string::npos);
  REQUIRE(s.size() == dot + 3);
  return std::stoll(s.substr(0, dot)) * 100 + std::stoll(s.substr(dot + 1));
}

std::map<std::string, int64_t> discounts_of(const json& explained) {
  std::map<std::string, int64_t> out;
  for (const json& entry : explained["entries"]) out[entry["id"]] = cents_of(entry["discount"]);
  return out;
}

std::vector<std::string> qualifying_ids(const json& qualified) {
  std::vector<std::string> ids;
  for (const char* list : {"rewards", "points_products"}) {
    for (const json& entity : qualified[list]) ids.push_back(entity["id"]);
  }
  return ids;
}

struct tally {
  int pairs = 0, entries = 0, qualifying = 0, best_set = 0, zero_codes = 0, metamorphic = 0;
  std::map<std::string, int> codes;
};

// Every invariant of one (snapshot, basket) pair; returns the engine's answer.
answer check_pair(const snapshot_model& s, const lq::qualifier& engine, const basket_model& b,
                  const json& request, tally& seen) {
  answer a = ask(engine, request);
  const json& entries = a.explained["entries"];
  REQUIRE(entries.size() == s.offers.size());

  // The oracle, entry by entry (explain lists rewards, then points products, in output order).
  std::map<std::string, const offer_model*> by_id;
  for (const offer_model& o : s.offers) by_id[o.id] = &o;
  std::vector<std::string> explained_rewards, explained_products;
  for (const json& entry : entries) {
    const std::string id = entry["id"];
    REQUIRE(by_id.count(id) == 1);
    const offer_model& o = *by_id[id];
    CHECK(entry["kind"] == (o.reward ? "reward" : "points_product"));
    const expected_entry want = oracle(s, o, b);
    std::vector<std::string> codes;
    for (const json& reason : entry["reasons"]) {
      codes.push_back(reason["code"]);
      CHECK(reason["message"].is_string());
      if (reason["code"] == "BELOW_MINIMUM")
        CHECK(cents_of(reason["remaining"]) == want.remaining_cents);
      if (reason["code"] == "INSUFFICIENT_POINTS")
        CHECK(reason["points_needed"] == want.points_needed);
    }
    std::sort(codes.begin(), codes.end());
    INFO("entry " << entry.dump());
    CHECK(codes == want.codes);
    CHECK(cents_of(entry["discount"]) == want.discount_cents);
    CHECK(entry["qualifies"] == want.qualifies);
    // qualifies exactly when no rule fails, and then the discount is positive.
    CHECK(entry["qualifies"].get<bool>() == entry["reasons"].empty());
    if (entry["qualifies"].get<bool>()) {
      CHECK(cents_of(entry["discount"]) > 0);
      (o.reward ? explained_rewards : explained_products).push_back(id);
    }
    ++seen.entries;
    for (const std::string& code : codes) ++seen.codes[code];
  }

  // qualify = the entries explain marks as qualifying, in the same order, as exact entities.
  std::vector<std::string> rewards, products;
  for (const json& entity : a.qualified["rewards"]) {
    rewards.push_back(entity["id"]);
    CHECK(entity == by_id[entity["id"]]->entity);
  }
  for (const json& entity : a.qualified["points_products"]) {
    products.push_back(entity["id"]);
    CHECK(entity == by_id[entity["id"]]->entity);
  }
  CHECK(rewards == explained_rewards);
  CHECK(products == explained_products);
  seen.qualifying += static_cast<int>(rewards.size() + products.size());

  // Output order: retire_at ascending as instants (null last), then id; points, then id.
  for (size_t i = 1; i < rewards.size(); ++i) {
    const offer_model& x = *by_id[rewards[i - 1]];
    const offer_model& y = *by_id[rewards[i]];
    const auto key = [](const offer_model& o) {
      return std::make_tuple(!o.retire_at.has_value(), o.retire_at.value_or(0), o.id);
    };
    CHECK(key(x) < key(y));
  }
  for (size_t i = 1; i < products.size(); ++i) {
    const offer_model& x = *by_id[products[i - 1]];
    const offer_model& y = *by_id[products[i]];
    CHECK(std::make_pair(x.points, x.id) < std::make_pair(y.points, y.id));
  }

  // best: the largest discount; ties: earliest expiry (none last), then id.
  const offer_model* best = nullptr;
  int64_t best_cents = 0;
  for (const json& entry : entries) {
    if (!entry["qualifies"].get<bool>()) continue;
    const offer_model& o = *by_id[entry["id"]];
    const int64_t cents = cents_of(entry["discount"]);
    const auto key = [](const offer_model& x, int64_t c) {
      return std::make_tuple(-c, !x.retire_at.has_value(), x.retire_at.value_or(0), x.id);
    };
    if (!best || key(o, cents) < key(*best, best_cents)) best = &o, best_cents = cents;
  }
  if (best) {
    CHECK(a.explained["best"] == best->id);
    ++seen.best_set;
  } else {
    CHECK(a.explained["best"].is_null());
  }
  ++seen.pairs;
  return a;
}

lq::qualifier load(const snapshot_model& s) {
  lq::qualifier engine;
  const auto error = engine.set_snapshot(s.document.dump());
  INFO("snapshot " << s.document.dump());
  INFO((error ? error->message : std::string()));
  REQUIRE_FALSE(error.has_value());
  return engine;
}

}  // namespace

TEST_CASE("generated snapshots and baskets satisfy the contract's invariants", "[property]") {
  generator g(kSeed);
  tally seen;
  for (int n = 0; n < kCases; ++n) {
    const snapshot_model s = make_snapshot(g);
    const lq::qualifier engine = load(s);
    const basket_model b = make_basket(g);
    const json request = basket_json(g, b);
    INFO("case " << n << " (seed " << kSeed << ")");
    INFO("snapshot " << s.document.dump());
    INFO("request " << request.dump());
    const answer first = check_pair(s, engine, b, request, seen);

    // The same basket written differently (numbers vs strings, offsets) gives the same answer.
    const answer again = ask(engine, basket_json(g, b));
    CHECK(again.qualified == first.qualified);
    CHECK(again.explained == first.explained);

    // Line order does not matter, nor does writing q units as q lines.
    basket_model shuffled = b;
    std::reverse(shuffled.items.begin(), shuffled.items.end());
    basket_model split;
    split = b;
    split.items.clear();
    for (const item_model& item : b.items) {
      for (int64_t q = 0; q < item.quantity; ++q) {
        item_model one = item;
        one.quantity = 1;
        split.items.push_back(one);
      }
    }
    for (const basket_model* other : {&shuffled, &split}) {
      const answer same = ask(engine, basket_json(g, *other));
      CHECK(same.qualified == first.qualified);
      CHECK(same.explained == first.explained);
    }

    // Adding an item never removes a qualifying offer nor lowers any discount (every discount
    // rule is monotone in the units it sees; the base only grows or stays the subtotal).
    basket_model bigger = b;
    item_model extra;
    extra.id = g.pick(kProducts);
    extra.price = g.range(0, 1500);
    extra.categories = subset(g, kCategories, 40);
    if (g.chance(30)) extra.modifiers.push_back({g.pick(kModifiers), g.range(0, 150)});
    bigger.items.insert(bigger.items.begin() + g.range(0, static_cast<int64_t>(b.items.size())),
                        extra);
    const answer grown = check_pair(s, engine, bigger, basket_json(g, bigger), seen);
    const auto before = qualifying_ids(first.qualified);
    const auto after = qualifying_ids(grown.qualified);
    for (const std::string& id : before) CHECK(contains(after, id));
    const auto discounts_before = discounts_of(first.explained);
    const auto discounts_after = discounts_of(grown.explained);
    for (const auto& [id, cents] : discounts_before) CHECK(discounts_after.at(id) >= cents);

    // A malformed request in between changes nothing: no state leaks from call to call.
    json broken = request;
    broken["items"] = json::array({{{"id", "x"}, {"price", "-1"}}});
    const auto refused = engine.qualify_json(broken.dump(), lq::instant{kNow, 0});
    REQUIRE_FALSE(refused.ok());
    CHECK(refused.err().code == 400);
    const answer after_error = ask(engine, request);
    CHECK(after_error.qualified == first.qualified);
    CHECK(after_error.explained == first.explained);

    // Explain's discount ignores eligibility: every entry made redeemable, owned, unrestricted
    // in place, time and handoff gives the same discounts.
    json relaxed = s.document;
    for (const char* list : {"rewards", "points_products"}) {
      for (json& record : relaxed[list]) {
        for (const char* field : {"user_id", "merchant_id", "retire_at", "starts_at", "handoff",
                                  "time_restrictions", "minimum"}) {
          record.erase(field);
        }
        record["state"] = "redeemable";
        record["restriction_location_ids"] = json::array();
        record["redemption_venue"] = "all";
      }
    }
    lq::qualifier relaxed_engine;
    REQUIRE_FALSE(relaxed_engine.set_snapshot(relaxed.dump()).has_value());
    const answer open = ask(relaxed_engine, request);
    CHECK(discounts_of(open.explained) == discounts_before);
    seen.metamorphic += 6;
  }
  for (const auto& [code, count] : seen.codes) {
    if (code == "EMPTY_BASKET" || code == "UNSUPPORTED_TYPE" || code == "NO_MATCHING_ITEM" ||
        code == "ITEM_PRICE_MISSING" || code == "ZERO_DISCOUNT") {
      seen.zero_codes += count;
    }
  }
  // The generator reaches every reason code, and both outcomes, often.
  CHECK(seen.codes.size() == 19);
  CHECK(seen.qualifying > kCases / 2);
  CHECK(seen.best_set > kCases / 4);
  WARN("property test: " << seen.pairs << " pairs checked against the oracle, " << seen.entries
                         << " entries, " << seen.qualifying << " qualifying, " << seen.metamorphic
                         << " metamorphic comparisons, " << seen.codes.size()
                         << " distinct reason codes");
}
