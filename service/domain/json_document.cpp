#include "domain/json_document.hpp"

#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "lq/json/json_reader.hpp"

namespace lq::service {

namespace {

// A JSON number's text (already checked against the grammar) as a value: an integer when it is
// one that fits 64 bits, else a double; false when it is beyond a double's range (e.g. 1e400).
bool number_value(std::string_view text, json& out) {
  const bool integral = text.find_first_of(".eE") == std::string_view::npos;
  const std::string owned(text);
  if (integral) {
    errno = 0;
    char* end = nullptr;
    if (owned[0] == '-') {
      const long long value = std::strtoll(owned.c_str(), &end, 10);
      if (errno == 0 && *end == '\0') {
        out = static_cast<std::int64_t>(value);
        return true;
      }
    } else {
      const unsigned long long value = std::strtoull(owned.c_str(), &end, 10);
      if (errno == 0 && *end == '\0') {
        out = static_cast<std::uint64_t>(value);
        return true;
      }
    }
  }
  // Beyond 64 bits, or with a fraction or exponent: a double. An underflow reads as 0.
  const double value = std::strtod(owned.c_str(), nullptr);
  if (std::isinf(value)) return false;
  out = value;
  return true;
}

// Builds the value at the reader's position. The text has passed the same reader's check, so a
// false here means a number beyond a double (`out_of_range`) or, never while the reader is
// deterministic, a syntax error.
bool build_value(json_reader& reader, json& out, bool& out_of_range) {
  switch (reader.peek()) {
    case json_type::object: {
      if (!reader.begin_object()) return false;
      out = json::object();
      std::string_view key;
      while (reader.next_member(key)) {
        // The key may live in the reader's buffer, which reading the value overwrites.
        std::string name(key);
        json value;
        if (!build_value(reader, value, out_of_range)) return false;
        out[name] = std::move(value);  // a repeated name: the last value, at the first's place
      }
      return !reader.failed();
    }
    case json_type::array: {
      if (!reader.begin_array()) return false;
      out = json::array();
      while (reader.next_element()) {
        json value;
        if (!build_value(reader, value, out_of_range)) return false;
        out.push_back(std::move(value));
      }
      return !reader.failed();
    }
    case json_type::string: {
      std::string text;
      if (!reader.read_string(text)) return false;
      out = std::move(text);
      return true;
    }
    case json_type::number: {
      std::string_view text;
      if (!reader.read_number(text)) return false;
      if (!number_value(text, out)) {
        out_of_range = true;
        return false;
      }
      return true;
    }
    case json_type::boolean: {
      bool value = false;
      if (!reader.read_bool(value)) return false;
      out = value;
      return true;
    }
    case json_type::null:
      out = nullptr;
      return reader.read_null();
    case json_type::invalid:
      return false;
  }
  return false;
}

}  // namespace

result<json> parse_json_limited(std::string_view text, const char* what) {
  // The engine's reader is the one parser of every body: it judges the text first (so syntax
  // errors and the depth limit read as the engine's, with their offsets), then a fresh reader
  // over the accepted text builds the value the service's handlers read.
  json_reader check(text);
  if (!check.read_document()) return check.document_error(400, what);
  json_reader reader(text);
  json value;
  bool out_of_range = false;
  if (!build_value(reader, value, out_of_range) || !reader.at_end()) {
    // e.g. 1e400: beyond a double, so beyond every decimal the service accepts.
    if (out_of_range) return error{400, std::string(what) + " holds a number out of range"};
    return reader.document_error(400, what);
  }
  return value;
}

}  // namespace lq::service
