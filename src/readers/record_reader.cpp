#include "readers/record_reader.hpp"

#include <utility>

namespace lq {

namespace {

constexpr const char* kNonNegativeDecimal =
    " must be a non-negative decimal (a JSON number or numeric string)";

}  // namespace

bool record_reader::read_string(const field_path& path, std::string& out, bool* present) {
  const field_status status = read_string_field(reader_, out);
  if (status == field_status::wrong) return reject_at(path, " must be a string");
  if (present) *present = status == field_status::ok;
  return true;
}

bool record_reader::read_optional_string(const field_path& path, std::optional<std::string>& out) {
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

bool record_reader::read_decimal(const field_path& path, decimal& out, std::string& echo,
                                 bool& present) {
  const field_status status = read_decimal_field(reader_, out, &echo);
  if (status == field_status::wrong || (status == field_status::ok && out.is_negative())) {
    return reject_at(path, kNonNegativeDecimal);
  }
  present = status == field_status::ok;
  return true;
}

bool record_reader::read_optional_decimal(const field_path& path, std::optional<decimal>& out,
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

bool record_reader::read_instant(const field_path& path, std::optional<instant>& out,
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

bool record_reader::reject(std::string message) {
  return errors_.reject(std::move(message));
}

bool record_reader::reject_at(const field_path& path, const char* rule) {
  return reject(path.str() + rule);
}

}  // namespace lq
