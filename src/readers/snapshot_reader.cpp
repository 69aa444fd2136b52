// Reading the account snapshot's JSON (contract section 1) into a snapshot: the
// schema, its defaults and errors. Each offer is read by offer_reader; folding, rendering and
// ordering are asked of the model (offer, offer_entity, offer_order).
#include "readers/snapshot_reader.hpp"

#include <algorithm>
#include <deque>

#include "model/offer_order.hpp"
#include "readers/offer_reader.hpp"

namespace lq {

namespace {

struct location_record {
  location place;
  std::optional<std::string> merchant_id;
};

class snapshot_loader : offer_reader {
 public:
  explicit snapshot_loader(std::string_view json) : offer_reader(json, 422, "snapshot") {}

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
