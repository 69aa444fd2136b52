// A pull reader over JSON text: no DOM, numbers kept as their exact source text.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace lq {

enum class json_type : uint8_t { object, array, string, number, boolean, null, invalid };

class json_reader {
 public:
  static constexpr int kMaxDepth = 64;

  explicit json_reader(std::string_view text) : text_(text) {}

  /// The type of the next value (skips white space); `invalid` at a syntax error or the end.
  json_type peek();

  /// Enters an object; then call next_member until it returns false.
  bool begin_object();
  /// Reads the next key (decoded) of the current object; false at its end or on error.
  bool next_member(std::string_view& key);
  /// Enters an array; then call next_element until it returns false.
  bool begin_array();
  /// Moves to the next element of the current array; false at its end or on error.
  bool next_element();

  bool read_string(std::string& out);
  /// The number's source text, validated against the JSON grammar.
  bool read_number(std::string_view& text);
  bool read_bool(bool& out);
  bool read_null();
  /// Skips one value of any type.
  bool skip_value();
  /// True when only white space remains.
  bool at_end();

  bool failed() const { return failed_; }
  /// What went wrong and where, once failed().
  std::string error_message() const;

 private:
  bool fail(const char* what);
  void skip_space();
  bool parse_string(std::string& out);
  bool enter(char open);

  std::string_view text_;
  size_t pos_ = 0;
  int depth_ = 0;
  uint64_t first_ = 0;  // bit d: the container at depth d has produced no element yet
  bool failed_ = false;
  const char* what_ = "";
  size_t fail_pos_ = 0;
  std::string key_;      // an escaped member name
  std::string skipped_;  // a skipped string value
};

}  // namespace lq
