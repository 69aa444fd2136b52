// Reading the records of a JSON document field by field, each error (a 422) naming the field's
// path: what the snapshot's loader (snapshot_reader.cpp) and its offer reader (offer_reader.cpp)
// share.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "lq/decimal.hpp"
#include "lq/json/json_fields.hpp"
#include "lq/json/json_reader.hpp"
#include "lq/result.hpp"
#include "lq/time/instant.hpp"

namespace lq {

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

class record_reader {
 protected:
  record_reader(std::string_view json, int code, const char* what)
      : reader_(json), errors_(code, what) {}

  // Iterates the elements of the array at the reader (each an object), calling
  // read_element(path) for each; null is an empty array.
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

  bool read_string(const field_path& path, std::string& out, bool* present = nullptr);
  bool read_optional_string(const field_path& path, std::optional<std::string>& out);
  /// A non-negative decimal (a JSON number or numeric string), its text echoed into `echo`.
  bool read_decimal(const field_path& path, decimal& out, std::string& echo, bool& present);
  bool read_optional_decimal(const field_path& path, std::optional<decimal>& out,
                             std::string& echo);
  /// An RFC 3339 timestamp or null, its text kept in `*text_out` when asked.
  bool read_instant(const field_path& path, std::optional<instant>& out,
                    std::optional<std::string>* text_out);

  bool reject(std::string message);
  // `<path><rule>`, e.g. `rewards[3].value must be ...`: one out-of-line copy of the message
  // building, which runs only on error (inlined, each site was a copy of it in the .wasm).
  [[gnu::noinline]] bool reject_at(const field_path& path, const char* rule);
  error take_error() const { return errors_.take(reader_); }
  error syntax_error() const { return errors_.syntax(reader_); }

  json_reader reader_;
  field_errors errors_;
};

}  // namespace lq
