// Typed field values read from a json_reader: what the snapshot and the request have in common.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "lq/decimal.hpp"
#include "lq/json/json_reader.hpp"
#include "lq/result.hpp"

namespace lq {

/// ok: read; absent: JSON null (consumed); wrong: another type or a malformed value (not consumed
/// when of another type; the caller reports it); a syntax error shows as reader.failed().
enum class field_status : uint8_t { ok, absent, wrong };

field_status read_string_field(json_reader& reader, std::string& out);
/// As read_string_field, into a view that lives until the reader's next string value (inline:
/// the request reads most of its strings through it).
inline field_status read_string_view_field(json_reader& reader, std::string_view& out) {
  switch (reader.peek()) {
    case json_type::string:
      return reader.read_string_view(out) ? field_status::ok : field_status::wrong;
    case json_type::null:
      reader.read_null();
      return field_status::absent;
    default:
      return field_status::wrong;
  }
}

/// A decimal given as a JSON number or a numeric string; `echo` (optional) receives its JSON text.
field_status read_decimal_field(json_reader& reader, decimal& out, std::string* echo = nullptr);

/// An integral number (`2`, `2.0`) or, when `strings_allowed`, a numeric string (`"2"`).
field_status read_integer_field(json_reader& reader, int64_t& out, bool strings_allowed,
                                std::string* echo = nullptr);

/// An array of strings; on `wrong`, `bad_index` is the offending element or -1 for the array.
field_status read_string_array_field(json_reader& reader, std::vector<std::string>& out,
                                     int64_t& bad_index);

/// `base[index]`: an array element in a field path.
std::string indexed(std::string_view base, int64_t index);

/// The first error of a reader of one JSON document (`what`: "request body", "snapshot"), with
/// the error code of that document (400, 422). A syntax error anywhere in the text outranks a
/// field's complaint (the field read may have stopped at it, or before it): one document, one
/// verdict on its syntax, whichever field comes first.
class field_errors {
 public:
  field_errors(int code, const char* what) : code_(code), what_(what) {}

  /// Records `message` unless an error is already recorded; false, to return from a read.
  bool reject(std::string message) {
    if (!error_) error_ = error{code_, std::move(message)};
    return false;
  }
  /// The error to report once a read returned false: the reader's failure, else the first
  /// syntax error of the whole text, else the field's complaint.
  error take(const json_reader& reader) const;
  /// `<what> is not valid JSON: <problem> at offset <n>`, or `<what> nests deeper than 64 levels
  /// at offset <n>`.
  error syntax(const json_reader& reader) const;

 private:
  int code_;
  const char* what_;
  std::optional<error> error_;
};

}  // namespace lq
