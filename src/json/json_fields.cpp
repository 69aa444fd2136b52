#include "lq/json/json_fields.hpp"

#include "lq/json/json_writer.hpp"

namespace lq {

namespace {

// decimal::parse, with a fast path for the usual price: up to 15 digits without a superfluous
// leading zero, then optionally '.' and 1 to 18 digits. Such a text is always in range and
// exact, so the fast path gives decimal::parse's value; anything else goes to decimal::parse.
std::optional<decimal> parse_decimal(std::string_view text) {
  static constexpr uint64_t kPow10[] = {1,
                                        10,
                                        100,
                                        1000,
                                        10000,
                                        100000,
                                        1000000,
                                        10000000,
                                        100000000,
                                        1000000000,
                                        10000000000,
                                        100000000000,
                                        1000000000000,
                                        10000000000000,
                                        100000000000000,
                                        1000000000000000,
                                        10000000000000000,
                                        100000000000000000,
                                        1000000000000000000};
  const size_t n = text.size();
  size_t i = 0;
  uint64_t whole = 0;
  while (i < n && i < 16 && text[i] >= '0' && text[i] <= '9') {
    whole = whole * 10 + static_cast<uint64_t>(text[i] - '0');
    ++i;
  }
  const size_t whole_digits = i;
  if (whole_digits == 0 || whole_digits > 15 || (text[0] == '0' && whole_digits > 1)) {
    return decimal::parse(text);
  }
  uint64_t fraction = 0;
  size_t fraction_digits = 0;
  if (i < n) {
    if (text[i] != '.') return decimal::parse(text);
    ++i;
    while (i < n && fraction_digits <= decimal::kScale && text[i] >= '0' && text[i] <= '9') {
      fraction = fraction * 10 + static_cast<uint64_t>(text[i] - '0');
      ++fraction_digits;
      ++i;
    }
    if (i != n || fraction_digits == 0 || fraction_digits > decimal::kScale) {
      return decimal::parse(text);
    }
  }
  const decimal::mantissa_t units =
      static_cast<decimal::mantissa_t>(whole) * kPow10[decimal::kScale] +
      static_cast<decimal::mantissa_t>(fraction * kPow10[decimal::kScale - fraction_digits]);
  return decimal::from_units(units);
}

}  // namespace

field_status read_string_field(json_reader& reader, std::string& out) {
  switch (reader.peek()) {
    case json_type::string:
      return reader.read_string(out) ? field_status::ok : field_status::wrong;
    case json_type::null:
      reader.read_null();
      return field_status::absent;
    default:
      return field_status::wrong;
  }
}

field_status read_decimal_field(json_reader& reader, decimal& out, std::string* echo) {
  switch (reader.peek()) {
    case json_type::number: {
      std::string_view text;
      if (!reader.read_number(text)) return field_status::wrong;
      auto value = parse_decimal(text);
      if (!value) return field_status::wrong;
      out = *value;
      if (echo) echo->assign(text);
      return field_status::ok;
    }
    case json_type::string: {
      std::string_view text;
      if (!reader.read_string_view(text)) return field_status::wrong;
      auto value = parse_decimal(text);
      if (!value) return field_status::wrong;
      out = *value;
      if (echo) {
        echo->clear();
        append_json_string(*echo, text);
      }
      return field_status::ok;
    }
    case json_type::null:
      reader.read_null();
      return field_status::absent;
    default:
      return field_status::wrong;
  }
}

field_status read_integer_field(json_reader& reader, int64_t& out, bool strings_allowed,
                                std::string* echo) {
  const json_type type = reader.peek();
  if (type == json_type::string && !strings_allowed) return field_status::wrong;
  decimal value;
  const field_status status = read_decimal_field(reader, value, echo);
  if (status != field_status::ok) return status;
  const decimal::mantissa_t one = decimal::from_integer(1).units();
  if (value.units() % one != 0) return field_status::wrong;
  out = static_cast<int64_t>(value.units() / one);
  return field_status::ok;
}

field_status read_string_array_field(json_reader& reader, std::vector<std::string>& out,
                                     int64_t& bad_index) {
  out.clear();
  bad_index = -1;
  switch (reader.peek()) {
    case json_type::null:
      reader.read_null();
      return field_status::absent;
    case json_type::array:
      break;
    default:
      return field_status::wrong;
  }
  reader.begin_array();
  int64_t index = 0;
  while (reader.next_element()) {
    std::string_view text;
    if (reader.peek() != json_type::string || !reader.read_string_view(text)) {
      bad_index = index;
      return field_status::wrong;
    }
    if (out.empty()) out.reserve(4);  // one allocation for the usual few
    out.emplace_back(text);
    ++index;
  }
  return reader.failed() ? field_status::wrong : field_status::ok;
}

error field_errors::take(const json_reader& reader) const {
  if (reader.failed()) return syntax(reader);
  // Only on the way out with an error: the text is read once more, as a whole, for its syntax.
  json_reader whole(reader.text());
  if (!whole.read_document()) return syntax(whole);
  return error_ ? *error_ : error{code_, std::string(what_) + " is not valid"};
}

error field_errors::syntax(const json_reader& reader) const {
  return reader.document_error(code_, what_);
}

std::string indexed(std::string_view base, int64_t index) {
  std::string out(base);
  out += '[';
  out += std::to_string(index);
  out += ']';
  return out;
}

}  // namespace lq
