#include "lq/json/json_reader.hpp"

namespace lq {

namespace {

bool is_digit(char c) {
  return c >= '0' && c <= '9';
}

}  // namespace

bool json_reader::fail(const char* what) {
  if (!failed_) {
    failed_ = true;
    what_ = what;
    fail_pos_ = pos_;
  }
  return false;
}

bool json_reader::fail_unexpected() {
  return fail(nullptr);
}

std::string json_reader::error_message() const {
  std::string out;
  if (what_ != nullptr) {
    out = what_;
  } else if (fail_pos_ >= text_.size()) {
    out = "unexpected end of input";
  } else if (text_.substr(fail_pos_, 3) == "\xEF\xBB\xBF") {
    // U+FEFF where a value must start: a UTF-8 byte-order mark, which JSON text does not begin
    // with (RFC 8259 8.1: senders must not add one; this reader refuses it, as JSON.parse does).
    out = "unexpected byte-order mark (U+FEFF)";
  } else {
    // The byte itself when it is printable ASCII, else its value.
    const auto byte = static_cast<unsigned char>(text_[fail_pos_]);
    static constexpr char kHex[] = "0123456789abcdef";
    out = "unexpected ";
    if (byte > 0x20 && byte < 0x7f) {
      out.append("'").append(1, static_cast<char>(byte)).append("'");
    } else {
      out.append("byte 0x").append(1, kHex[byte >> 4]).append(1, kHex[byte & 0xf]);
    }
  }
  return out + " at offset " + std::to_string(fail_pos_);
}

bool json_reader::enter(char open) {
  if (failed_) return false;
  skip_space();
  if (pos_ >= text_.size() || text_[pos_] != open) {
    return fail(open == '{' ? "expected an object" : "expected an array");
  }
  if (depth_ >= kMaxDepth) {
    too_deep_ = !failed_;
    return fail(kTooDeep);
  }
  ++pos_;
  ++depth_;
  first_ |= uint64_t{1} << depth_ % 64;
  return true;
}

bool json_reader::begin_object() {
  return enter('{');
}
bool json_reader::begin_array() {
  return enter('[');
}

bool json_reader::read_string(std::string& out) {
  std::string_view view;
  if (!read_string_view(view)) return false;
  out.assign(view.data(), view.size());
  return true;
}

bool json_reader::read_number(std::string_view& out) {
  if (failed_) return false;
  skip_space();
  const size_t start = pos_;
  const size_t n = text_.size();
  if (pos_ < n && text_[pos_] == '-') ++pos_;
  if (pos_ >= n || !is_digit(text_[pos_])) return fail("invalid number");
  if (text_[pos_] == '0') {
    ++pos_;
  } else {
    while (pos_ < n && is_digit(text_[pos_])) ++pos_;
  }
  if (pos_ < n && text_[pos_] == '.') {
    ++pos_;
    if (pos_ >= n || !is_digit(text_[pos_])) return fail("invalid number");
    while (pos_ < n && is_digit(text_[pos_])) ++pos_;
  }
  if (pos_ < n && (text_[pos_] == 'e' || text_[pos_] == 'E')) {
    ++pos_;
    if (pos_ < n && (text_[pos_] == '+' || text_[pos_] == '-')) ++pos_;
    if (pos_ >= n || !is_digit(text_[pos_])) return fail("invalid number");
    while (pos_ < n && is_digit(text_[pos_])) ++pos_;
  }
  out = text_.substr(start, pos_ - start);
  return true;
}

bool json_reader::read_bool(bool& out) {
  if (failed_) return false;
  skip_space();
  if (text_.substr(pos_, 4) == "true") {
    out = true;
    pos_ += 4;
    return true;
  }
  if (text_.substr(pos_, 5) == "false") {
    out = false;
    pos_ += 5;
    return true;
  }
  return fail("invalid literal");
}

bool json_reader::read_null() {
  if (failed_) return false;
  skip_space();
  if (text_.substr(pos_, 4) == "null") {
    pos_ += 4;
    return true;
  }
  return fail("invalid literal");
}

bool json_reader::skip_value() {
  switch (peek()) {
    case json_type::object: {
      if (!begin_object()) return false;
      std::string_view key;
      while (next_member(key)) {
        if (!skip_value()) return false;
      }
      return !failed_;
    }
    case json_type::array: {
      if (!begin_array()) return false;
      while (next_element()) {
        if (!skip_value()) return false;
      }
      return !failed_;
    }
    case json_type::string: {
      std::string_view ignored;
      return parse_string(ignored, value_);
    }
    case json_type::number: {
      std::string_view ignored;
      return read_number(ignored);
    }
    case json_type::boolean: {
      bool ignored = false;
      return read_bool(ignored);
    }
    case json_type::null:
      return read_null();
    case json_type::invalid:
      break;
  }
  return fail_unexpected();
}

bool json_reader::at_end() {
  skip_space();
  if (failed_) return false;
  if (pos_ != text_.size()) return fail("unexpected text after the JSON value");
  return true;
}

}  // namespace lq
