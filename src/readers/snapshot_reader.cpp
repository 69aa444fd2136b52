// Reading the account snapshot's JSON (contract section 1) into a snapshot: the
// schema, its defaults and errors. Folding, rendering and ordering are asked of the
// model (offer, offer_entity, offer_order).
#include "readers/snapshot_reader.hpp"

#include <algorithm>
#include <deque>

#include "lq/json/json_fields.hpp"
#include "lq/json/json_reader.hpp"
#include "model/offer.hpp"
#include "model/offer_entity.hpp"
#include "model/offer_order.hpp"

namespace lq {

namespace {

constexpr const char* kNonNegativeDecimal =
    " must be a non-negative decimal (a JSON number or numeric string)";

// Where a field sits, e.g. `rewards[3].time_restrictions[0].start`: a chain of
// names and indices on the stack, spelled out only when an error names it.
struct field_path {
  const field_path* parent = nullptr;
  const char* name = "";  // a member name (a literal), or "" for an element
  int64_t index = -1;     // >= 0: an element of the parent's array

  field_path member(const char* child) const { return {this, child, -1}; }
  field_path element(int64_t i) const { return {this, "", i}; }
  std::string str() const {
    std::string out = parent ? parent->str() : std::string();
    if (index >= 0) return indexed(out, index);
    if (!out.empty()) out += '.';
    return out += name;
  }
};

// An offer record as read, before defaults that depend on the rest of the
// snapshot.
struct offer_record {
  offer item;
  std::optional<std::string> user_id;
  std::optional<std::string> merchant_id;
  std::optional<std::string> points_experience_id;
  std::vector<std::string> categories;
  entity_text text;  // the entity's echo of the record
  std::string item_kind = "free_item";
  bool discount_unknown = false;  // the record says its discount is left to the service
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

class snapshot_loader {
 public:
  explicit snapshot_loader(std::string_view json) : reader_(json), errors_(422, "snapshot") {}

  result<snapshot> run() {
    if (reader_.peek() != json_type::object) {
      return reader_.read_document() ? error{422, "snapshot must be a JSON object"}
                                     : syntax_error();
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
    // Neither list named is most likely a misspelt one (`rewrds`): an answer of no offers would
    // hide it. Either alone is a snapshot of only rewards or only points products.
    if (!offers_named_) {
      return error{422, "rewards or points_products is required ([] when the user has none)"};
    }
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
      return read_array(field_path{nullptr, "locations"}, [this](const field_path& path) {
        locations_.emplace_back();
        return read_location(path, locations_.back());
      });
    } else if (key == "points") {
      return read_array(field_path{nullptr, "points"},
                        [this](const field_path& path) { return read_points(path); });
    } else if (key == "rewards" || key == "points_products") {
      offers_named_ = true;
      const bool rewards = key == "rewards";
      std::deque<offer_record>& target = rewards ? rewards_ : points_products_;
      return read_array(field_path{nullptr, rewards ? "rewards" : "points_products"},
                        [this, &target, rewards](const field_path& path) {
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
  bool read_array(const field_path& path, ReadElement read_element) {
    const json_type type = reader_.peek();
    if (type == json_type::null) return reader_.read_null();
    if (type != json_type::array) return reject_at(path, " must be an array");
    reader_.begin_array();
    int64_t index = 0;
    while (reader_.next_element()) {
      const field_path at = path.element(index++);
      if (reader_.peek() != json_type::object) return reject_at(at, " must be an object");
      if (!read_element(at)) return false;
    }
    return !reader_.failed();
  }

  // Iterates the members of the object at the reader, calling read_member(key)
  // for each.
  template <class ReadMember>
  bool read_object(const field_path& path, ReadMember read_member) {
    if (reader_.peek() != json_type::object) return reject_at(path, " must be an object");
    reader_.begin_object();
    std::string_view key;
    while (reader_.next_member(key)) {
      if (!read_member(key)) return false;
    }
    return !reader_.failed();
  }

  bool read_string(const field_path& path, std::string& out, bool* present = nullptr) {
    const field_status status = read_string_field(reader_, out);
    if (status == field_status::wrong) return reject_at(path, " must be a string");
    if (present) *present = status == field_status::ok;
    return true;
  }

  bool read_optional_string(const field_path& path, std::optional<std::string>& out) {
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

  bool read_tz_rule(const field_path& path, std::optional<posix_tz>& out) {
    std::optional<std::string> text;
    if (!read_optional_string(path, text)) return false;
    if (!text) {
      out.reset();
      return true;
    }
    out = parse_posix_tz(*text);
    if (!out) return reject_at(path, " is not a valid POSIX TZ rule");
    return true;
  }

  bool read_merchant() {
    const field_path path{nullptr, "merchant"};
    return read_object(path, [&](std::string_view key) {
      if (key == "id") return read_optional_string(path.member("id"), merchant_id_);
      if (key == "tz_rule") return read_tz_rule(path.member("tz_rule"), merchant_tz_);
      return reader_.skip_value();
    });
  }

  bool read_user() {
    const field_path path{nullptr, "user"};
    return read_object(path, [&](std::string_view key) {
      if (key == "id") return read_optional_string(path.member("id"), user_id_);
      return reader_.skip_value();
    });
  }

  bool read_location(const field_path& path, location_record& record) {
    bool has_uid = false;
    const bool ok = read_object(path, [&](std::string_view key) {
      if (key == "uid") return read_string(path.member("uid"), record.place.uid, &has_uid);
      if (key == "id") return read_string(path.member("id"), record.place.id);
      if (key == "merchant_id") {
        return read_optional_string(path.member("merchant_id"), record.merchant_id);
      }
      if (key == "tz_rule") return read_tz_rule(path.member("tz_rule"), record.place.tz);
      return reader_.skip_value();
    });
    if (ok && !has_uid) return reject_at(path, ".uid is required");
    return ok;
  }

  bool read_points(const field_path& path) {
    std::optional<std::string> experience;
    int64_t balance = 0;
    const bool ok = read_object(path, [&](std::string_view key) {
      if (key == "points_experience_id") {
        return read_optional_string(path.member("points_experience_id"), experience);
      }
      if (key == "balance") {
        if (read_integer_field(reader_, balance, true) == field_status::wrong) {
          return reject_at(path, ".balance must be an integer");
        }
        return true;
      }
      return reader_.skip_value();
    });
    if (!ok) return false;
    if (!experience) return reject_at(path, ".points_experience_id is required");
    points_.emplace_back(std::move(*experience), balance);
    return true;
  }

  bool read_decimal(const field_path& path, decimal& out, std::string& echo, bool& present) {
    const field_status status = read_decimal_field(reader_, out, &echo);
    if (status == field_status::wrong || (status == field_status::ok && out.is_negative())) {
      return reject_at(path, kNonNegativeDecimal);
    }
    present = status == field_status::ok;
    return true;
  }

  bool read_optional_decimal(const field_path& path, std::optional<decimal>& out,
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

  bool read_instant(const field_path& path, std::optional<instant>& out,
                    std::optional<std::string>* text_out) {
    std::optional<std::string> text;
    if (!read_optional_string(path, text)) return false;
    out.reset();
    if (text) {
      out = parse_rfc3339(*text);
      if (!out) return reject_at(path, " must be an RFC 3339 timestamp");
    }
    if (text_out) *text_out = std::move(text);
    return true;
  }

  bool read_time_window(const field_path& path, time_window& window) {
    bool has_start = false, has_end = false;
    const bool ok = read_object(path, [&](std::string_view key) {
      if (key == "days") {
        std::vector<std::string> days;
        int64_t bad = -1;
        if (read_string_array_field(reader_, days, bad) == field_status::wrong) {
          return reject_at(path, ".days must be an array of day names (sun, mon, ... sat)");
        }
        window.days = days.empty() ? 0x7f : 0;
        for (size_t i = 0; i < days.size(); ++i) {
          const int bit = day_bit(days[i]);
          if (bit < 0) {
            return reject_at(path.member("days").element(static_cast<int64_t>(i)),
                             " must be one of: mon, tue, wed, thu, fri, sat, sun");
          }
          window.days |= static_cast<uint8_t>(1 << bit);
        }
        return true;
      }
      if (key == "start" || key == "end") {
        const bool start = key == "start";
        std::string text;
        const field_path at = path.member(start ? "start" : "end");
        bool present = false;
        if (!read_string(at, text, &present)) return false;
        if (!present ||
            !parse_clock(text, !start, start ? window.start_minute : window.end_minute)) {
          return reject_at(at, " must be a local time HH:MM");
        }
        (start ? has_start : has_end) = true;
        return true;
      }
      return reader_.skip_value();
    });
    if (!ok) return false;
    if (!has_start) return reject_at(path, ".start is required");
    if (!has_end) return reject_at(path, ".end is required");
    return true;
  }

  bool read_offer(const field_path& path, offer_record& record) {
    offer& item = record.item;
    const bool ok = read_object(path, [&](std::string_view key) -> bool {
      // The member's path, named by the literal the key matched (a key's text
      // may not outlive the next key read).
      auto at = [&](const char* name) { return path.member(name); };
      if (key == "id") {
        bool present = false;
        if (!read_string(at("id"), item.id, &present)) return false;
        record.has_id = present;
        return true;
      }
      if (key == "value") {
        bool present = false;
        if (!read_decimal(at("value"), item.value, record.text.value_json, present)) return false;
        if (!present) {
          item.value = decimal();
          record.text.value_json = "0";
        }
        return true;
      }
      if (key == "minimum")
        return read_optional_decimal(at("minimum"), item.minimum, record.text.minimum_json);
      if (key == "maximum")
        return read_optional_decimal(at("maximum"), item.maximum, record.text.maximum_json);
      if (key == "points" && item.kind == offer_kind::points_product) {
        const field_status status =
            read_integer_field(reader_, item.points, true, &record.text.points_json);
        if (status == field_status::wrong || item.points < 0) {
          return reject_at(at("points"), " must be a non-negative integer");
        }
        if (status == field_status::absent) {
          item.points = 0;
          record.text.points_json = "0";
        }
        return true;
      }
      if (key == "label") return read_string(at("label"), record.text.label);
      if (key == "fine_print") return read_string(at("fine_print"), record.text.fine_print);
      if (key == "state") {
        bool present = false;
        if (!read_string(at("state"), record.text.state, &present)) return false;
        if (!present) record.text.state = "redeemable";
        return true;
      }
      if (key == "type") return read_string(at("type"), record.text.type);
      if (key == "discount_unknown") {
        if (reader_.peek() == json_type::null) return reader_.read_null();
        if (reader_.peek() != json_type::boolean) {
          return reject_at(at("discount_unknown"), " must be true or false");
        }
        return reader_.read_bool(record.discount_unknown);
      }
      if (key == "item_kind") {
        bool present = false;
        if (!read_string(at("item_kind"), record.item_kind, &present)) return false;
        if (!present) record.item_kind = "free_item";
        return true;
      }
      if (key == "products" || key == "categories" || key == "restriction_location_ids") {
        const char* name = key == "products"     ? "products"
                           : key == "categories" ? "categories"
                                                 : "restriction_location_ids";
        std::vector<std::string>& target = key == "products"     ? record.text.products
                                           : key == "categories" ? record.categories
                                                                 : item.restriction_location_ids;
        int64_t bad = -1;
        if (read_string_array_field(reader_, target, bad) == field_status::wrong) {
          return bad < 0 ? reject_at(at(name), " must be an array of strings")
                         : reject_at(at(name).element(bad), " must be a string");
        }
        return true;
      }
      if (key == "retire_at" && item.kind == offer_kind::reward) {
        return read_instant(at("retire_at"), item.retire_at, &record.text.retire_at);
      }
      if (key == "starts_at" && item.kind == offer_kind::reward) {
        return read_instant(at("starts_at"), item.starts_at, nullptr);
      }
      if (key == "hold" && item.kind == offer_kind::reward) {
        std::optional<std::string> hold;
        if (!read_optional_string(at("hold"), hold)) return false;
        if (!hold) {
          item.hold = offer::held::no;
        } else if (*hold == "PENDING_ORDER") {
          item.hold = offer::held::pending_order;
        } else if (*hold == "CLAIMED_ELSEWHERE") {
          item.hold = offer::held::claimed_elsewhere;
        } else {
          return reject_at(at("hold"), " must be PENDING_ORDER, CLAIMED_ELSEWHERE or null");
        }
        return true;
      }
      if (key == "user_id" && item.kind == offer_kind::reward) {
        return read_optional_string(at("user_id"), record.user_id);
      }
      if (key == "merchant_id" && item.kind == offer_kind::reward) {
        return read_optional_string(at("merchant_id"), record.merchant_id);
      }
      if (key == "points_experience_id" && item.kind == offer_kind::points_product) {
        return read_optional_string(at("points_experience_id"), record.points_experience_id);
      }
      if (key == "redemption_venue") {
        std::optional<std::string> text;
        if (!read_optional_string(at("redemption_venue"), text)) return false;
        item.redemption_venue = !text                ? venue::all
                                : *text == "all"     ? venue::all
                                : *text == "instore" ? venue::instore
                                : *text == "online"  ? venue::online
                                                     : venue::unknown;
        return true;
      }
      if (key == "handoff") {
        if (!read_optional_string(at("handoff"), item.handoff)) return false;
        if (item.handoff) {
          for (char& c : *item.handoff) {
            if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
          }
        }
        return true;
      }
      if (key == "time_restrictions") {
        item.time_restrictions.clear();
        return read_array(at("time_restrictions"), [&](const field_path& window_path) {
          item.time_restrictions.emplace_back();
          return read_time_window(window_path, item.time_restrictions.back());
        });
      }
      return reader_.skip_value();
    });
    if (!ok) return false;
    if (!record.has_id) return reject_at(path, ".id is required");
    return true;
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

    for (std::deque<offer_record>* records : {&rewards_, &points_products_}) {
      for (offer_record& record : *records) {
        offer& item = record.item;
        item.rule = record.discount_unknown ? discount_rule::unknown
                                            : discount_rule_of(record.text.type, record.item_kind);
        item.redeemable = record.text.state == "redeemable";
        if (item.kind == offer_kind::reward) {
          item.owned = record.user_id.value_or(snap.user_id) == snap.user_id;
          item.same_merchant = record.merchant_id.value_or(snap.merchant_id) == snap.merchant_id;
        } else {
          item.points_experience_id = record.points_experience_id.value_or(
              points_.empty() ? std::string() : points_.front().first);
          item.balance = balance_of(item.points_experience_id);
        }
        for (const std::string& product : record.text.products) {
          item.product_symbols.push_back(snap.intern(product));
        }
        for (const std::string& category : record.categories) {
          item.category_symbols.push_back(snap.intern(category));
        }
        for (std::vector<uint32_t>* symbols : {&item.product_symbols, &item.category_symbols}) {
          std::sort(symbols->begin(), symbols->end());
          symbols->erase(std::unique(symbols->begin(), symbols->end()), symbols->end());
        }
        item.entity_json = render_entity(item, record.text);
      }
    }

    in_output_order(rewards_, expires_before, snap.rewards);
    in_output_order(points_products_, costs_fewer_points, snap.points_products);
    snap.index_offers();
    return snap;
  }

  // Moves the records' offers into `target` in the order of `before`, ties in
  // record order: sorting pointers moves each offer once instead of at every
  // swap.
  static void in_output_order(std::deque<offer_record>& records,
                              bool (*before)(const offer&, const offer&),
                              std::vector<offer>& target) {
    std::vector<offer*> order;
    order.reserve(records.size());
    for (offer_record& record : records) order.push_back(&record.item);
    std::stable_sort(order.begin(), order.end(),
                     [&](const offer* a, const offer* b) { return before(*a, *b); });
    target.reserve(records.size());
    for (offer* item : order) target.push_back(std::move(*item));
  }

  bool reject(std::string message) { return errors_.reject(std::move(message)); }
  // `<path><rule>`, e.g. `rewards[3].value must be ...`: one out-of-line copy of the message
  // building, which runs only on error (inlined, each site was a copy of it in the .wasm).
  [[gnu::noinline]] bool reject_at(const field_path& path, const char* rule) {
    return reject(path.str() + rule);
  }
  error take_error() const { return errors_.take(reader_); }
  error syntax_error() const { return errors_.syntax(reader_); }

  json_reader reader_;
  field_errors errors_;
  bool schema_seen_ = false;
  std::optional<int64_t> schema_version_;
  std::string schema_text_;
  std::optional<std::string> merchant_id_;
  std::optional<posix_tz> merchant_tz_;
  std::optional<std::string> user_id_;
  bool offers_named_ = false;  // `rewards` or `points_products` is present (null included)
  std::vector<location_record> locations_;
  std::vector<std::pair<std::string, int64_t>> points_;
  // Deques: records are large (an offer and the text its entity echoes) and their number is
  // unknown until the list ends; a vector's doubling would move every record and leave its old
  // blocks behind, memory a fresh wasm instance pays a page fault for on first touch.
  std::deque<offer_record> rewards_;
  std::deque<offer_record> points_products_;
};

}  // namespace

result<snapshot> load_snapshot(std::string_view json) {
  return snapshot_loader(json).run();
}

}  // namespace lq
