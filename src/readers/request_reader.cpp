#include "lq/request_reader.hpp"

#include <algorithm>

#include "lq/json/json_fields.hpp"
#include "lq/json/json_reader.hpp"

namespace lq {

namespace {

constexpr int64_t kMaxQuantity = 1000000000;
constexpr const char* kVenueMessage = "redemption_venue must be one of: instore, online";
constexpr const char* kDecimalRule =
    " must be a non-negative decimal (a JSON number or numeric string, at most 18 decimal "
    "places, below 10^15)";

class request_parser {
 public:
  request_parser(std::string_view json, const std::vector<std::string_view>& extra_keys)
      : reader_(json), errors_(400, "request body"), extra_keys_(extra_keys) {}

  result<basket_request> run() {
    basket_request request;
    if (reader_.peek() != json_type::object) {
      return reader_.read_document() ? error{400, "request body must be a JSON object"}
                                     : syntax_error();
    }
    reader_.begin_object();
    std::string_view key;
    while (reader_.next_member(key)) {
      if (!read_member(key, request)) return take_error();
    }
    if (reader_.failed() || !reader_.at_end()) return syntax_error();
    if (!record_full_prices(request.items)) {
      return error{400, "items: the basket total is out of range (at most 10^15)"};
    }
    return request;
  }

 private:
  bool read_member(std::string_view key, basket_request& request) {
    if (key == "redemption_venue") {
      std::string_view venue_name;
      if (reader_.peek() != json_type::string || !reader_.read_string_view(venue_name)) {
        return reject(kVenueMessage);
      }
      if (venue_name == "instore") {
        request.redemption_venue = venue::instore;
      } else if (venue_name == "online") {
        request.redemption_venue = venue::online;
      } else {
        return reject(kVenueMessage);
      }
    } else if (key == "order_timestamp") {
      std::string_view text;
      const field_status status = read_string_view_field(reader_, text);
      if (status == field_status::wrong) {
        return reject("order_timestamp must be an RFC 3339 timestamp such as 2026-03-02T09:00:00Z");
      }
      if (status == field_status::ok) {
        request.order_timestamp = parse_rfc3339(text);
        if (!request.order_timestamp) {
          return reject(
              "order_timestamp must be an RFC 3339 timestamp such as 2026-03-02T09:00:00Z");
        }
      } else {
        request.order_timestamp.reset();
      }
    } else if (key == "location_uid" || key == "handoff") {
      std::optional<std::string>& target =
          key == "handoff" ? request.handoff : request.location_uid;
      std::string text;
      const field_status status = read_string_field(reader_, text);
      if (status == field_status::wrong) return reject_field(key, " must be a string");
      if (status == field_status::ok) {
        target = std::move(text);
      } else {
        target.reset();
      }
    } else if (key == "subtotal") {
      decimal value;
      const field_status status = read_decimal_field(reader_, value);
      if (status == field_status::wrong || value.is_negative()) {
        return reject_field("subtotal", kDecimalRule);
      }
      if (status == field_status::ok) {
        request.subtotal = value;
      } else {
        request.subtotal.reset();
      }
    } else if (key == "items") {
      return read_items(request.items);
    } else if (std::find(extra_keys_.begin(), extra_keys_.end(), key) != extra_keys_.end()) {
      extra_member& extra = request.extras[std::string(key)];
      extra = extra_member{};
      return read_extra(extra);
    } else {
      return reader_.skip_value();
    }
    return true;
  }

  // Reads any value; fails only at a syntax error, like skip_value.
  bool read_extra(extra_member& extra) {
    switch (reader_.peek()) {
      case json_type::null:
        return reader_.read_null();
      case json_type::string:
        extra.kind = extra_member::shape::string;
        return reader_.read_string(extra.text);
      case json_type::array:
        extra.kind = extra_member::shape::array;
        reader_.begin_array();
        while (reader_.next_element()) {
          extra.elements.emplace_back();
          if (reader_.peek() == json_type::string) {
            extra.elements.back().emplace();
            if (!reader_.read_string(*extra.elements.back())) return false;
          } else if (!reader_.skip_value()) {
            return false;
          }
        }
        return !reader_.failed();
      default:
        extra.kind = extra_member::shape::other;
        return reader_.skip_value();
    }
  }

  // Where a field of an item sits; spelled out only when an error names it.
  struct item_path {
    int64_t item = 0;
    int64_t modifier = -1;  // >= 0: a modifier of the item

    std::string operator()(std::string_view field) const {
      std::string out = indexed("items", item);
      if (modifier >= 0) out = indexed(out + ".modifiers", modifier);
      if (!field.empty()) out.append(".").append(field);
      return out;
    }
  };

  bool read_items(std::vector<basket_item>& items) {
    items.clear();
    const json_type type = reader_.peek();
    if (type == json_type::null) return reader_.read_null();
    if (type != json_type::array) return reject("items must be an array");
    reader_.begin_array();
    item_path path;
    while (reader_.next_element()) {
      const size_t start = reader_.offset();
      items.emplace_back();
      if (!read_item(path, items.back())) return false;
      if (path.item == 0) reserve_like_first(items, reader_.offset() - start);
      ++path.item;
    }
    return !reader_.failed();
  }

  // Reserves room for the lines the rest of the text holds if they are as long as the first
  // (at most 1024 in all), so a large basket is not moved through every doubling.
  void reserve_like_first(std::vector<basket_item>& items, size_t first_bytes) {
    const size_t estimate = 1 + reader_.remaining() / std::max<size_t>(first_bytes, 1);
    items.reserve(std::min<size_t>(estimate, 1024));
  }

  // Reads `id` into `id`, skips `name` (checking that it is a string); false when the key is
  // neither.
  bool read_name_or_id(std::string_view key, std::string& id, const item_path& path,
                       bool& handled) {
    handled = key == "id" || key == "name";
    if (!handled) return true;
    std::string_view text;
    const field_status status = read_string_view_field(reader_, text);
    // Built here, not by reject_at: with the call GCC's code for read_item (into which this is
    // inlined) costs ~0.7 % more native instructions per qualify on L; the .wasm 77 B less.
    if (status == field_status::wrong) return reject(path(key) + " must be a string");
    if (key == "id" && status == field_status::ok) id.assign(text.data(), text.size());
    return true;
  }

  bool read_item(const item_path& path, basket_item& item) {
    if (reader_.peek() != json_type::object) return reject_at(path, "", " must be an object");
    reader_.begin_object();
    std::string_view key;
    while (reader_.next_member(key)) {
      bool handled = false;
      if (!read_name_or_id(key, item.id, path, handled)) return false;
      if (handled) continue;
      if (key == "price") {
        if (!read_price(path, "price", item.price)) return false;
      } else if (key == "quantity") {
        int64_t quantity = 0;
        const field_status status = read_integer_field(reader_, quantity, false);
        if (status == field_status::wrong ||
            (status == field_status::ok && (quantity < 1 || quantity > kMaxQuantity))) {
          return reject_at(path, "quantity", " must be a positive integer (1 to 1000000000)");
        }
        item.quantity = status == field_status::ok ? quantity : 1;
      } else if (key == "categories") {
        int64_t bad = -1;
        if (read_string_array_field(reader_, item.categories, bad) == field_status::wrong) {
          return bad < 0 ? reject_at(path, "categories", " must be an array of strings")
                         : reject(indexed(path("categories"), bad) + " must be a string");
        }
      } else if (key == "modifiers") {
        if (!read_modifiers(path, item.modifiers)) return false;
      } else if (!reader_.skip_value()) {
        return false;
      }
    }
    return !reader_.failed();
  }

  bool read_modifiers(item_path path, std::vector<basket_modifier>& modifiers) {
    modifiers.clear();
    const json_type type = reader_.peek();
    if (type == json_type::null) return reader_.read_null();
    if (type != json_type::array) return reject_at(path, "modifiers", " must be an array");
    reader_.begin_array();
    path.modifier = 0;
    for (; reader_.next_element(); ++path.modifier) {
      if (reader_.peek() != json_type::object) return reject_at(path, "", " must be an object");
      modifiers.emplace_back();
      basket_modifier& modifier = modifiers.back();
      reader_.begin_object();
      std::string_view key;
      while (reader_.next_member(key)) {
        bool handled = false;
        if (!read_name_or_id(key, modifier.id, path, handled)) return false;
        if (handled) continue;
        if (key == "price") {
          if (!read_price(path, "price", modifier.price)) return false;
        } else if (key == "item_base_price") {
          std::optional<decimal> ignored;
          if (!read_price(path, "item_base_price", ignored)) return false;
        } else if (!reader_.skip_value()) {
          return false;
        }
      }
      if (reader_.failed()) return false;
    }
    return !reader_.failed();
  }

  bool read_price(const item_path& path, std::string_view field, std::optional<decimal>& out) {
    decimal value;
    const field_status status = read_decimal_field(reader_, value);
    if (status == field_status::wrong || value.is_negative()) {
      return reject_at(path, field, kDecimalRule);
    }
    out.reset();
    if (status == field_status::ok) out = value;
    return true;
  }

  // Sets each item's full price (so the engine computes it once); false when the basket total
  // reaches 10^15. Every sum the engine forms is part of this total, so the bound keeps it exact.
  static bool record_full_prices(std::vector<basket_item>& items) {
    const decimal limit = decimal::from_integer(1000000000000000);
    decimal total;
    for (basket_item& item : items) {
      std::optional<decimal> full = item.price.value_or(decimal());
      for (const basket_modifier& modifier : item.modifiers) {
        full = decimal::add(*full, modifier.price.value_or(decimal()));
        if (!full) return false;
      }
      item.full_price = *full;
      // full * quantity, both non-negative: at or beyond the limit (or beyond 128 bits) fails
      // as decimal::multiply would, without its 128-bit division.
      decimal::mantissa_t line = 0;
      if (__builtin_mul_overflow(full->units(), static_cast<decimal::mantissa_t>(item.quantity),
                                 &line) ||
          line >= limit.units()) {
        return false;
      }
      const auto sum = decimal::add(total, decimal::from_units(line));
      if (!sum || *sum >= limit) return false;
      total = *sum;
    }
    return true;
  }

  bool reject(std::string message) { return errors_.reject(std::move(message)); }
  // `<name><rule>` and `<item path>.<field><rule>`: one out-of-line copy of the message building,
  // which runs only on error (inlined, each site was a copy of it in the .wasm).
  [[gnu::noinline]] bool reject_field(std::string_view name, const char* rule) {
    return reject(std::string(name) + rule);
  }
  [[gnu::noinline]] bool reject_at(const item_path& path, std::string_view field,
                                   const char* rule) {
    return reject(path(field) + rule);
  }
  error take_error() const { return errors_.take(reader_); }
  error syntax_error() const { return errors_.syntax(reader_); }

  json_reader reader_;
  field_errors errors_;
  const std::vector<std::string_view>& extra_keys_;
};

}  // namespace

result<basket_request> parse_request(std::string_view json,
                                     const std::vector<std::string_view>& extra_keys) {
  return request_parser(json, extra_keys).run();
}

}  // namespace lq
