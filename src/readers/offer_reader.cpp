#include "readers/offer_reader.hpp"

namespace lq {

namespace {

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

}  // namespace

bool offer_reader::read_time_window(const field_path& path, time_window& window) {
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
      if (!present || !parse_clock(text, !start, start ? window.start_minute : window.end_minute)) {
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

bool offer_reader::read_offer(const field_path& path, offer_record& record) {
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

}  // namespace lq
