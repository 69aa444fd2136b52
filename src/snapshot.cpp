#include "snapshot.hpp"

#include <algorithm>

#include "json_fields.hpp"
#include "json_reader.hpp"
#include "json_writer.hpp"

namespace lq {

std::optional<uint32_t> snapshot::symbol_of(std::string_view name) const {
  if (symbols.empty()) return std::nullopt;
  auto it = symbols.find(std::string(name));
  if (it == symbols.end()) return std::nullopt;
  return it->second;
}

namespace {

constexpr const char* kNonNegativeDecimal =
    " must be a non-negative decimal (a JSON number or numeric string)";

std::string indexed(const std::string& base, size_t index) {
  return base + "[" + std::to_string(index) + "]";
}

// An offer record as read, before defaults that depend on the rest of the snapshot.
struct offer_record {
  offer item;
  std::optional<std::string> user_id;
  std::optional<std::string> merchant_id;
  std::optional<std::string> points_experience_id;
  std::vector<std::string> products;
  std::vector<std::string> categories;
  // Output echo: JSON text of each entity field as stored, or its default.
  std::string value_json = "0";
  std::string minimum_json = "null";
  std::string maximum_json = "null";
  std::string points_json = "0";
  std::string label;
  std::string state = "redeemable";
  std::string type;
  std::string fine_print;
  std::optional<std::string> retire_at_text;
  std::string item_kind = "free_item";
  bool discount_unknown = false;
  bool has_id = false;
};

struct location_record {
  location place;
  std::optional<std::string> merchant_id;
};

bool parse_clock(std::string_view text, bool end_of_day_allowed, int16_t& minutes) {
  if (text.size() != 5 || text[2] != ':') return false;
  for (size_t i : {0, 1, 3, 4}) {
    if (text[i] < '0' || text[i] > '9') return false;
  }
  const int h = (text[0] - '0') * 10 + (text[1] - '0');
  const int m = (text[3] - '0') * 10 + (text[4] - '0');
  if (m > 59) return false;
  if (h > 23 && !(end_of_day_allowed && h == 24 && m == 0)) return false;
  minutes = static_cast<int16_t>(h * 60 + m);
  return true;
}

int day_bit(std::string_view day) {
  static constexpr const char* kDays[] = {"sun", "mon", "tue", "wed", "thu", "fri", "sat"};
  for (int i = 0; i < 7; ++i) {
    if (day == kDays[i]) return i;
  }
  return -1;
}

void append_string_array(std::string& out, const std::vector<std::string>& values) {
  out += '[';
  for (size_t i = 0; i < values.size(); ++i) {
    if (i) out += ',';
    append_json_string(out, values[i]);
  }
  out += ']';
}

class snapshot_loader {
 public:
  explicit snapshot_loader(std::string_view json) : reader_(json) {}

  result<snapshot> run() {
    const json_type type = reader_.peek();
    if (type != json_type::object) {
      if (type == json_type::invalid) reader_.skip_value();
      if (reader_.failed()) return syntax_error();
      return error{422, "snapshot must be a JSON object"};
    }
    reader_.begin_object();
    std::string_view key;
    while (reader_.next_member(key)) {
      if (!read_top_member(key)) return take_error();
    }
    if (reader_.failed() || !reader_.at_end()) return syntax_error();
    if (schema_version_ != 1) {
      return error{422, schema_seen_
                            ? "schema_version " + schema_text_ + " is not supported (expected 1)"
                            : std::string("schema_version is required (expected 1)")};
    }
    if (!merchant_id_) return error{422, "merchant.id is required"};
    if (!user_id_) return error{422, "user.id is required"};
    return finish();
  }

 private:
  bool read_top_member(std::string_view key) {
    if (key == "schema_version") {
      schema_seen_ = true;
      int64_t version = 0;
      const field_status status = read_integer_field(reader_, version, false, &schema_text_);
      if (status == field_status::ok) {
        schema_version_ = version;
      } else if (status == field_status::absent) {
        schema_text_ = "null";
      } else {
        return reject("schema_version must be the integer 1");
      }
    } else if (key == "merchant") {
      return read_merchant();
    } else if (key == "user") {
      return read_user();
    } else if (key == "locations") {
      return read_array("locations", [this](const std::string& path) {
        locations_.emplace_back();
        return read_location(path, locations_.back());
      });
    } else if (key == "points") {
      return read_array("points", [this](const std::string& path) { return read_points(path); });
    } else if (key == "rewards" || key == "points_products") {
      const bool rewards = key == "rewards";
      std::vector<offer_record>& target = rewards ? rewards_ : points_products_;
      return read_array(rewards ? "rewards" : "points_products",
                        [this, &target, rewards](const std::string& path) {
                          target.emplace_back();
                          target.back().item.kind =
                              rewards ? offer_kind::reward : offer_kind::points_product;
                          return read_offer(path, target.back());
                        });
    } else {
      return reader_.skip_value();
    }
    return true;
  }

  template <class ReadElement>
  bool read_array(const std::string& path, ReadElement read_element) {
    const json_type type = reader_.peek();
    if (type == json_type::null) return reader_.read_null();
    if (type != json_type::array) return reject(path + " must be an array");
    reader_.begin_array();
    size_t index = 0;
    while (reader_.next_element()) {
      const std::string at = indexed(path, index++);
      if (reader_.peek() != json_type::object) return reject(at + " must be an object");
      if (!read_element(at)) return false;
    }
    return !reader_.failed();
  }

  // Iterates the members of the object at the reader, calling read_member(key) for each.
  template <class ReadMember>
  bool read_object(const std::string& path, ReadMember read_member) {
    if (reader_.peek() != json_type::object) return reject(path + " must be an object");
    reader_.begin_object();
    std::string_view key;
    while (reader_.next_member(key)) {
      if (!read_member(key)) return false;
    }
    return !reader_.failed();
  }

  bool read_string(const std::string& path, std::string& out, bool* present = nullptr) {
    const field_status status = read_string_field(reader_, out);
    if (status == field_status::wrong) return reject(path + " must be a string");
    if (present) *present = status == field_status::ok;
    return true;
  }

  bool read_optional_string(const std::string& path, std::optional<std::string>& out) {
    std::string text;
    bool present = false;
    if (!read_string(path, text, &present)) return false;
    if (present) {
      out = std::move(text);
    } else {
      out.reset();
    }
    return true;
  }

  bool read_tz_rule(const std::string& path, std::optional<posix_tz>& out) {
    std::optional<std::string> text;
    if (!read_optional_string(path, text)) return false;
    if (!text) {
      out.reset();
      return true;
    }
    out = parse_posix_tz(*text);
    if (!out) return reject(path + " is not a valid POSIX TZ rule");
    return true;
  }

  bool read_merchant() {
    return read_object("merchant", [this](std::string_view key) {
      if (key == "id") return read_optional_string("merchant.id", merchant_id_);
      if (key == "tz_rule") return read_tz_rule("merchant.tz_rule", merchant_tz_);
      return reader_.skip_value();
    });
  }

  bool read_user() {
    return read_object("user", [this](std::string_view key) {
      if (key == "id") return read_optional_string("user.id", user_id_);
      return reader_.skip_value();
    });
  }

  bool read_location(const std::string& path, location_record& record) {
    bool has_uid = false;
    const bool ok = read_object(path, [&](std::string_view key) {
      if (key == "uid") return read_string(path + ".uid", record.place.uid, &has_uid);
      if (key == "id") return read_string(path + ".id", record.place.id);
      if (key == "merchant_id")
        return read_optional_string(path + ".merchant_id", record.merchant_id);
      if (key == "tz_rule") return read_tz_rule(path + ".tz_rule", record.place.tz);
      return reader_.skip_value();
    });
    if (ok && !has_uid) return reject(path + ".uid is required");
    return ok;
  }

  bool read_points(const std::string& path) {
    std::optional<std::string> experience;
    int64_t balance = 0;
    const bool ok = read_object(path, [&](std::string_view key) {
      if (key == "points_experience_id") {
        return read_optional_string(path + ".points_experience_id", experience);
      }
      if (key == "balance") {
        if (read_integer_field(reader_, balance, true) == field_status::wrong) {
          return reject(path + ".balance must be an integer");
        }
        return true;
      }
      return reader_.skip_value();
    });
    if (!ok) return false;
    if (!experience) return reject(path + ".points_experience_id is required");
    points_.emplace_back(std::move(*experience), balance);
    return true;
  }

  bool read_decimal(const std::string& path, decimal& out, std::string& echo, bool& present) {
    const field_status status = read_decimal_field(reader_, out, &echo);
    if (status == field_status::wrong || (status == field_status::ok && out.is_negative())) {
      return reject(path + kNonNegativeDecimal);
    }
    present = status == field_status::ok;
    return true;
  }

  bool read_optional_decimal(const std::string& path, std::optional<decimal>& out,
                             std::string& echo) {
    decimal value;
    bool present = false;
    if (!read_decimal(path, value, echo, present)) return false;
    if (present) {
      out = value;
    } else {
      out.reset();
      echo = "null";
    }
    return true;
  }

  bool read_instant(const std::string& path, std::optional<instant>& out,
                    std::optional<std::string>* text_out) {
    std::optional<std::string> text;
    if (!read_optional_string(path, text)) return false;
    out.reset();
    if (text) {
      out = parse_rfc3339(*text);
      if (!out) return reject(path + " must be an RFC 3339 timestamp");
    }
    if (text_out) *text_out = std::move(text);
    return true;
  }

  bool read_time_window(const std::string& path, time_window& window) {
    bool has_start = false, has_end = false;
    const bool ok = read_object(path, [&](std::string_view key) {
      if (key == "days") {
        std::vector<std::string> days;
        int64_t bad = -1;
        if (read_string_array_field(reader_, days, bad) == field_status::wrong) {
          return reject(path + ".days must be an array of day names (sun, mon, ... sat)");
        }
        window.days = days.empty() ? 0x7f : 0;
        for (size_t i = 0; i < days.size(); ++i) {
          const int bit = day_bit(days[i]);
          if (bit < 0) {
            return reject(indexed(path + ".days", i) +
                          " must be one of: mon, tue, wed, thu, fri, sat, sun");
          }
          window.days |= static_cast<uint8_t>(1 << bit);
        }
        return true;
      }
      if (key == "start" || key == "end") {
        const bool start = key == "start";
        std::string text;
        const std::string at = path + (start ? ".start" : ".end");
        bool present = false;
        if (!read_string(at, text, &present)) return false;
        if (!present ||
            !parse_clock(text, !start, start ? window.start_minute : window.end_minute)) {
          return reject(at + " must be a local time HH:MM");
        }
        (start ? has_start : has_end) = true;
        return true;
      }
      return reader_.skip_value();
    });
    if (!ok) return false;
    if (!has_start) return reject(path + ".start is required");
    if (!has_end) return reject(path + ".end is required");
    return true;
  }

  bool read_offer(const std::string& path, offer_record& record) {
    offer& item = record.item;
    const bool ok = read_object(path, [&](std::string_view key) -> bool {
      const std::string at = path + "." + std::string(key);
      if (key == "id") {
        bool present = false;
        if (!read_string(at, item.id, &present)) return false;
        record.has_id = present;
        return true;
      }
      if (key == "value") {
        bool present = false;
        if (!read_decimal(at, item.value, record.value_json, present)) return false;
        if (!present) {
          item.value = decimal();
          record.value_json = "0";
        }
        return true;
      }
      if (key == "minimum") return read_optional_decimal(at, item.minimum, record.minimum_json);
      if (key == "maximum") return read_optional_decimal(at, item.maximum, record.maximum_json);
      if (key == "points" && item.kind == offer_kind::points_product) {
        const field_status status =
            read_integer_field(reader_, item.points, true, &record.points_json);
        if (status == field_status::wrong || item.points < 0) {
          return reject(at + " must be a non-negative integer");
        }
        if (status == field_status::absent) {
          item.points = 0;
          record.points_json = "0";
        }
        return true;
      }
      if (key == "label") return read_string(at, record.label);
      if (key == "fine_print") return read_string(at, record.fine_print);
      if (key == "state") {
        bool present = false;
        if (!read_string(at, record.state, &present)) return false;
        if (!present) record.state = "redeemable";
        return true;
      }
      if (key == "type") return read_string(at, record.type);
      if (key == "item_kind") {
        bool present = false;
        if (!read_string(at, record.item_kind, &present)) return false;
        if (!present) record.item_kind = "free_item";
        return true;
      }
      if (key == "products" || key == "categories" || key == "restriction_location_ids") {
        std::vector<std::string>& target = key == "products"     ? record.products
                                           : key == "categories" ? record.categories
                                                                 : item.restriction_location_ids;
        int64_t bad = -1;
        if (read_string_array_field(reader_, target, bad) == field_status::wrong) {
          return reject(bad < 0 ? at + " must be an array of strings"
                                : indexed(at, static_cast<size_t>(bad)) + " must be a string");
        }
        return true;
      }
      if (key == "retire_at" && item.kind == offer_kind::reward) {
        return read_instant(at, item.retire_at, &record.retire_at_text);
      }
      if (key == "starts_at" && item.kind == offer_kind::reward) {
        return read_instant(at, item.starts_at, nullptr);
      }
      if (key == "user_id" && item.kind == offer_kind::reward) {
        return read_optional_string(at, record.user_id);
      }
      if (key == "merchant_id" && item.kind == offer_kind::reward) {
        return read_optional_string(at, record.merchant_id);
      }
      if (key == "points_experience_id" && item.kind == offer_kind::points_product) {
        return read_optional_string(at, record.points_experience_id);
      }
      if (key == "redemption_venue") {
        std::optional<std::string> text;
        if (!read_optional_string(at, text)) return false;
        item.redemption_venue = !text                ? venue::all
                                : *text == "all"     ? venue::all
                                : *text == "instore" ? venue::instore
                                : *text == "online"  ? venue::online
                                                     : venue::unknown;
        return true;
      }
      if (key == "handoff") {
        if (!read_optional_string(at, item.handoff)) return false;
        if (item.handoff) {
          for (char& c : *item.handoff) {
            if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
          }
        }
        return true;
      }
      if (key == "discount_unknown") {
        if (reader_.peek() == json_type::null) return reader_.read_null();
        if (reader_.peek() != json_type::boolean) return reject(at + " must be true or false");
        return reader_.read_bool(record.discount_unknown);
      }
      if (key == "time_restrictions") {
        item.time_restrictions.clear();
        return read_array(at, [&](const std::string& window_path) {
          item.time_restrictions.emplace_back();
          return read_time_window(window_path, item.time_restrictions.back());
        });
      }
      return reader_.skip_value();
    });
    if (!ok) return false;
    if (!record.has_id) return reject(path + ".id is required");
    return true;
  }

  static discount_rule rule_of(const offer_record& record) {
    if (record.discount_unknown) return discount_rule::unknown;
    if (record.type == "amount") return discount_rule::amount;
    if (record.type == "percent") return discount_rule::percent;
    if (record.type == "fixed_price") return discount_rule::fixed_price;
    if (record.type == "item") {
      if (record.item_kind == "free_item") return discount_rule::free_item;
      if (record.item_kind == "bogo") return discount_rule::bogo;
      if (record.item_kind == "modifier") return discount_rule::modifier;
    }
    return discount_rule::unsupported;
  }

  static std::string render_entity(const offer_record& record) {
    const offer& item = record.item;
    const bool reward = item.kind == offer_kind::reward;
    std::string out = "{\"id\":";
    append_json_string(out, item.id);
    if (!reward) out += ",\"points\":" + record.points_json;
    out += ",\"value\":" + record.value_json;
    out += ",\"minimum\":" + record.minimum_json;
    out += ",\"maximum\":" + record.maximum_json;
    out += ",\"label\":";
    append_json_string(out, record.label);
    out += ",\"state\":";
    append_json_string(out, record.state);
    out += ",\"type\":";
    append_json_string(out, record.type);
    out += ",\"products\":";
    append_string_array(out, record.products);
    out += ",\"fine_print\":";
    append_json_string(out, record.fine_print);
    if (reward) {
      out += ",\"retire_at\":";
      if (record.retire_at_text) {
        append_json_string(out, *record.retire_at_text);
      } else {
        out += "null";
      }
    }
    out += ",\"restriction_location_ids\":";
    append_string_array(out, item.restriction_location_ids);
    out += '}';
    return out;
  }

  uint32_t intern(snapshot& snap, const std::string& name) {
    auto [it, inserted] = snap.symbols.emplace(name, static_cast<uint32_t>(snap.symbols.size()));
    return it->second;
  }

  result<snapshot> finish() {
    snapshot snap;
    snap.merchant_id = *merchant_id_;
    snap.user_id = *user_id_;
    snap.merchant_tz = merchant_tz_;
    for (location_record& record : locations_) {
      record.place.of_snapshot_merchant =
          record.merchant_id.value_or(snap.merchant_id) == snap.merchant_id;
      // The first location with a uid wins.
      snap.location_by_uid.emplace(record.place.uid, static_cast<uint32_t>(snap.locations.size()));
      snap.locations.push_back(std::move(record.place));
    }

    auto balance_of = [this](const std::string& experience) -> int64_t {
      for (const auto& [id, balance] : points_) {
        if (id == experience) return balance;
      }
      return 0;
    };

    for (std::vector<offer_record>* records : {&rewards_, &points_products_}) {
      std::vector<offer>& target = records == &rewards_ ? snap.rewards : snap.points_products;
      target.reserve(records->size());
      for (offer_record& record : *records) {
        offer& item = record.item;
        item.rule = rule_of(record);
        item.redeemable = record.state == "redeemable";
        if (item.kind == offer_kind::reward) {
          item.owned = record.user_id.value_or(snap.user_id) == snap.user_id;
          item.same_merchant = record.merchant_id.value_or(snap.merchant_id) == snap.merchant_id;
        } else {
          const std::string experience = record.points_experience_id.value_or(
              points_.empty() ? std::string() : points_.front().first);
          item.balance = balance_of(experience);
        }
        for (const std::string& product : record.products) {
          item.product_symbols.push_back(intern(snap, product));
        }
        for (const std::string& category : record.categories) {
          item.category_symbols.push_back(intern(snap, category));
        }
        for (std::vector<uint32_t>* symbols : {&item.product_symbols, &item.category_symbols}) {
          std::sort(symbols->begin(), symbols->end());
          symbols->erase(std::unique(symbols->begin(), symbols->end()), symbols->end());
        }
        item.entity_json = render_entity(record);
        target.push_back(std::move(item));
      }
    }

    std::stable_sort(snap.rewards.begin(), snap.rewards.end(), [](const offer& a, const offer& b) {
      if (a.retire_at.has_value() != b.retire_at.has_value()) return a.retire_at.has_value();
      if (a.retire_at && *a.retire_at != *b.retire_at) return *a.retire_at < *b.retire_at;
      return a.id < b.id;
    });
    std::stable_sort(snap.points_products.begin(), snap.points_products.end(),
                     [](const offer& a, const offer& b) {
                       return a.points != b.points ? a.points < b.points : a.id < b.id;
                     });

    snap.offers_by_product.assign(snap.symbols.size(), {});
    snap.offers_by_category.assign(snap.symbols.size(), {});
    for (uint32_t g = 0; g < snap.offer_count(); ++g) {
      const offer& item = snap.offer_at(g);
      for (uint32_t symbol : item.product_symbols) snap.offers_by_product[symbol].push_back(g);
      for (uint32_t symbol : item.category_symbols) snap.offers_by_category[symbol].push_back(g);
    }
    return snap;
  }

  bool reject(std::string message) {
    if (!error_) error_ = error{422, std::move(message)};
    return false;
  }

  error take_error() const {
    if (reader_.failed()) return syntax_error();
    return error_ ? *error_ : error{422, "snapshot is not valid"};
  }

  error syntax_error() const {
    return error{422, "snapshot is not valid JSON: " + reader_.error_message()};
  }

  json_reader reader_;
  std::optional<error> error_;
  bool schema_seen_ = false;
  std::optional<int64_t> schema_version_;
  std::string schema_text_;
  std::optional<std::string> merchant_id_;
  std::optional<posix_tz> merchant_tz_;
  std::optional<std::string> user_id_;
  std::vector<location_record> locations_;
  std::vector<std::pair<std::string, int64_t>> points_;
  std::vector<offer_record> rewards_;
  std::vector<offer_record> points_products_;
};

}  // namespace

result<snapshot> load_snapshot(std::string_view json) {
  return snapshot_loader(json).run();
}

}  // namespace lq
