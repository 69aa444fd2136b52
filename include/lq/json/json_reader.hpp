// A pull reader over JSON text: no DOM, numbers kept as their exact source text.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "lq/result.hpp"

namespace lq {

enum class json_type : uint8_t { object, array, string, number, boolean, null, invalid };

namespace json_bytes {

/// Bytes that stand for themselves inside a JSON string: printable ASCII other than '"', '\'.
struct plain_table {
  bool of[256] = {};
  constexpr plain_table() {
    for (int b = 0x20; b < 0x80; ++b) of[b] = b != '"' && b != '\\';
  }
};
inline constexpr plain_table kPlain;

inline bool is_plain(char c) {
  return kPlain.of[static_cast<unsigned char>(c)];
}
inline bool is_space(char c) {
  // One comparison for the usual case, a byte above ' '.
  return static_cast<unsigned char>(c) <= ' ' && (c == ' ' || c == '\t' || c == '\n' || c == '\r');
}

}  // namespace json_bytes

/// The hot paths (white space, structure, strings without escapes) are inline: a request is
/// mostly short keys and strings, where a call per token costs as much as the token itself.
class json_reader {
 public:
  static constexpr int kMaxDepth = 64;

  explicit json_reader(std::string_view text) : text_(text) {}

  /// The type of the next value (skips white space); `invalid` at a syntax error or the end.
  json_type peek() {
    if (failed_) return json_type::invalid;
    skip_space();
    if (pos_ >= text_.size()) return json_type::invalid;
    switch (text_[pos_]) {
      case '{':
        return json_type::object;
      case '[':
        return json_type::array;
      case '"':
        return json_type::string;
      case 't':
      case 'f':
        return json_type::boolean;
      case 'n':
        return json_type::null;
      default:
        return text_[pos_] == '-' || (text_[pos_] >= '0' && text_[pos_] <= '9')
                   ? json_type::number
                   : json_type::invalid;
    }
  }

  /// Enters an object; then call next_member until it returns false.
  bool begin_object();
  /// Reads the next key (decoded) of the current object; false at its end or on error. The key
  /// is a view into the text, or into a buffer of the reader when it has escapes.
  bool next_member(std::string_view& key) {
    if (failed_) return false;
    skip_space();
    const uint64_t bit = uint64_t{1} << depth_ % 64;
    if (pos_ < text_.size() && text_[pos_] == '}') {
      ++pos_;
      --depth_;
      return false;
    }
    if ((first_ & bit) == 0) {
      if (pos_ >= text_.size() || text_[pos_] != ',') return fail("expected ',' or '}'");
      ++pos_;
      skip_space();
    }
    first_ &= ~bit;
    if (pos_ >= text_.size() || text_[pos_] != '"') return fail("expected a member name");
    if (!parse_string(key, key_)) return false;
    skip_space();
    if (pos_ >= text_.size() || text_[pos_] != ':') return fail("expected ':'");
    ++pos_;
    return true;
  }
  /// Enters an array; then call next_element until it returns false.
  bool begin_array();
  /// Moves to the next element of the current array; false at its end or on error.
  bool next_element() {
    if (failed_) return false;
    skip_space();
    const uint64_t bit = uint64_t{1} << depth_ % 64;
    if (pos_ < text_.size() && text_[pos_] == ']') {
      ++pos_;
      --depth_;
      return false;
    }
    if ((first_ & bit) == 0) {
      if (pos_ >= text_.size() || text_[pos_] != ',') return fail("expected ',' or ']'");
      ++pos_;
    }
    first_ &= ~bit;
    return true;
  }

  bool read_string(std::string& out);
  /// The string decoded: a view into the text when it has no escape (the common case), else
  /// into a buffer of the reader that the next read_string_view or skip_value overwrites.
  bool read_string_view(std::string_view& out) {
    if (failed_) return false;
    skip_space();
    return parse_string(out, value_);
  }
  /// The number's source text, validated against the JSON grammar.
  bool read_number(std::string_view& text);
  bool read_bool(bool& out);
  bool read_null();
  /// Skips one value of any type.
  bool skip_value();
  /// True when only white space remains; otherwise a failure at the first byte after the value.
  bool at_end();
  /// Reads the whole text as one JSON value up to its end, from a fresh reader: the syntax check
  /// of a document. False at its first error.
  bool read_document() { return skip_value() && at_end(); }

  /// Bytes read so far and bytes left.
  size_t offset() const { return pos_; }
  size_t remaining() const { return text_.size() - pos_; }

  /// The text being read.
  std::string_view text() const { return text_; }

  bool failed() const { return failed_; }
  /// Whether the failure is the nesting limit (valid JSON, refused for its depth), not a syntax
  /// error.
  bool too_deep() const { return failed_ && too_deep_; }
  /// What went wrong and where, once failed(): "unexpected '}' at offset 10", "nests deeper
  /// than 64 levels at offset 64". The offset counts bytes from 0; at the end it is the length.
  std::string error_message() const;
  /// The error of a document that failed(), with its code (400, 422) and `what` names it ("request
  /// body"): `<what> is not valid JSON: <problem> at offset <n>`, or `<what> nests deeper than 64
  /// levels at offset <n>`.
  error document_error(int code, std::string_view what) const {
    return error{code,
                 std::string(what) + (too_deep() ? " " : " is not valid JSON: ") + error_message()};
  }

 private:
  static constexpr const char* kTooDeep = "nests deeper than 64 levels";
  bool fail(const char* what);
  /// A failure naming the byte at pos_ (or the end of the input).
  bool fail_unexpected();
  void skip_space() {
    while (pos_ < text_.size() && json_bytes::is_space(text_[pos_])) ++pos_;
  }
  /// Reads the string at pos_: a view into the text when it is plain ASCII (inline), else
  /// parse_string_rest goes on from the first other byte, decoding into `buffer` if needed.
  bool parse_string(std::string_view& out, std::string& buffer) {
    const char* const data = text_.data();
    const size_t size = text_.size();
    if (pos_ >= size || data[pos_] != '"') return fail("expected a string");
    const size_t start = pos_ + 1;
    size_t end = start;
    while (end < size && json_bytes::is_plain(data[end])) ++end;
    pos_ = end;
    if (end < size && data[end] == '"') {
      out = std::string_view(data + start, end - start);
      ++pos_;
      return true;
    }
    return parse_string_rest(start, out, buffer);
  }
  bool parse_string_rest(size_t start, std::string_view& out, std::string& buffer);
  bool decode_escaped(size_t start, std::string_view& out, std::string& buffer);
  bool enter(char open);

  std::string_view text_;
  size_t pos_ = 0;
  int depth_ = 0;
  uint64_t first_ = 0;  // bit d: the container at depth d has produced no element yet
  bool failed_ = false;
  // The failure is the nesting limit: a flag, since two copies of one literal may differ in
  // address.
  bool too_deep_ = false;
  const char* what_ = "";
  size_t fail_pos_ = 0;
  std::string key_;    // an escaped member name
  std::string value_;  // an escaped string value (read_string_view, skip_value)
};

}  // namespace lq
