// Typed field values read from a json_reader: what the snapshot and the request have in common.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "decimal.hpp"
#include "json_reader.hpp"

namespace lq {

/// ok: read; absent: JSON null (consumed); wrong: another type or a malformed value (not consumed
/// when of another type; the caller reports it); a syntax error shows as reader.failed().
enum class field_status : uint8_t { ok, absent, wrong };

field_status read_string_field(json_reader& reader, std::string& out);

/// A decimal given as a JSON number or a numeric string; `echo` (optional) receives its JSON text.
field_status read_decimal_field(json_reader& reader, decimal& out, std::string* echo = nullptr);

/// An integral number (`2`, `2.0`) or, when `strings_allowed`, a numeric string (`"2"`).
field_status read_integer_field(json_reader& reader, int64_t& out, bool strings_allowed,
                                std::string* echo = nullptr);

/// An array of strings; on `wrong`, `bad_index` is the offending element or -1 for the array.
field_status read_string_array_field(json_reader& reader, std::vector<std::string>& out,
                                     int64_t& bad_index);

}  // namespace lq
