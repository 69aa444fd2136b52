#include "json_fields.hpp"

#include "json_writer.hpp"

namespace lq {

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
      auto value = decimal::parse(text);
      if (!value) return field_status::wrong;
      out = *value;
      if (echo) echo->assign(text);
      return field_status::ok;
    }
    case json_type::string: {
      std::string text;
      if (!reader.read_string(text)) return field_status::wrong;
      auto value = decimal::parse(text);
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
    out.emplace_back();
    if (reader.peek() != json_type::string || !reader.read_string(out.back())) {
      bad_index = index;
      return field_status::wrong;
    }
    ++index;
  }
  return reader.failed() ? field_status::wrong : field_status::ok;
}

std::string indexed(std::string_view base, int64_t index) {
  std::string out(base);
  out += '[';
  out += std::to_string(index);
  out += ']';
  return out;
}

}  // namespace lq
