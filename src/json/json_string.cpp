// A JSON string past its plain ASCII prefix (json_reader::parse_string holds that part inline):
// UTF-8 checked where it stays a view into the text, escapes and surrogate pairs decoded into
// the reader's buffer from the first escape on.
#include <cstdint>
#include <string>
#include <string_view>

#include "lq/json/json_reader.hpp"

namespace lq {

namespace {

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

void append_utf8(std::string& out, uint32_t cp) {
  if (cp < 0x80) {
    out += static_cast<char>(cp);
  } else if (cp < 0x800) {
    out += static_cast<char>(0xC0 | (cp >> 6));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    out += static_cast<char>(0xE0 | (cp >> 12));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (cp >> 18));
    out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  }
}

// Length of the valid UTF-8 sequence starting at s[0], or 0 (RFC 3629: no overlongs, surrogates).
size_t utf8_sequence_length(std::string_view s) {
  const auto b0 = static_cast<unsigned char>(s[0]);
  size_t len = 0;
  uint32_t min = 0;
  uint32_t cp = 0;
  if (b0 >= 0xC2 && b0 <= 0xDF) {
    len = 2, min = 0x80, cp = b0 & 0x1F;
  } else if (b0 >= 0xE0 && b0 <= 0xEF) {
    len = 3, min = 0x800, cp = b0 & 0x0F;
  } else if (b0 >= 0xF0 && b0 <= 0xF4) {
    len = 4, min = 0x10000, cp = b0 & 0x07;
  } else {
    return 0;
  }
  if (s.size() < len) return 0;
  for (size_t i = 1; i < len; ++i) {
    const auto b = static_cast<unsigned char>(s[i]);
    if ((b & 0xC0) != 0x80) return 0;
    cp = (cp << 6) | (b & 0x3F);
  }
  if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return 0;
  return len;
}

using json_bytes::is_plain;

}  // namespace

// Goes on with a string from pos_, the first byte after `start` (its first character) that is
// not plain ASCII: the string is still viewed in place when that is valid UTF-8, and decoded
// from its first escape on.
bool json_reader::parse_string_rest(size_t start, std::string_view& out, std::string& buffer) {
  while (true) {
    while (pos_ < text_.size() && is_plain(text_[pos_])) ++pos_;
    if (pos_ >= text_.size()) return fail("unterminated string");
    const char c = text_[pos_];
    if (c == '"') {
      out = text_.substr(start, pos_ - start);
      ++pos_;
      return true;
    }
    if (c == '\\') return decode_escaped(start, out, buffer);
    if (static_cast<unsigned char>(c) < 0x20) return fail("control character in string");
    const size_t len = utf8_sequence_length(text_.substr(pos_));
    if (len == 0) return fail("invalid UTF-8 in string");
    pos_ += len;
  }
}

// Decodes the rest of a string from its first escape at pos_ into `buffer`, after the plain
// text since `start`.
bool json_reader::decode_escaped(size_t start, std::string_view& out, std::string& buffer) {
  buffer.assign(text_.data() + start, pos_ - start);
  std::string& decoded = buffer;
  while (true) {
    if (pos_ >= text_.size()) return fail("unterminated string");
    const char c = text_[pos_];
    const auto uc = static_cast<unsigned char>(c);
    if (c == '"') {
      ++pos_;
      out = decoded;
      return true;
    }
    if (uc < 0x20) return fail("control character in string");
    if (c == '\\') {
      if (pos_ + 1 >= text_.size()) return fail("unterminated string");
      const char e = text_[pos_ + 1];
      pos_ += 2;
      switch (e) {
        case '"':
        case '\\':
        case '/':
          decoded += e;
          break;
        case 'b':
          decoded += '\b';
          break;
        case 'f':
          decoded += '\f';
          break;
        case 'n':
          decoded += '\n';
          break;
        case 'r':
          decoded += '\r';
          break;
        case 't':
          decoded += '\t';
          break;
        case 'u': {
          auto read_hex4 = [&](uint32_t& v) {
            if (pos_ + 4 > text_.size()) return false;
            v = 0;
            for (int i = 0; i < 4; ++i) {
              const int h = hex_value(text_[pos_ + i]);
              if (h < 0) return false;
              v = v * 16 + static_cast<uint32_t>(h);
            }
            pos_ += 4;
            return true;
          };
          uint32_t cp = 0;
          if (!read_hex4(cp)) return fail("invalid \\u escape");
          if (cp >= 0xDC00 && cp <= 0xDFFF) return fail("unpaired surrogate in string");
          if (cp >= 0xD800 && cp <= 0xDBFF) {
            uint32_t low = 0;
            if (pos_ + 2 > text_.size() || text_[pos_] != '\\' || text_[pos_ + 1] != 'u') {
              return fail("unpaired surrogate in string");
            }
            pos_ += 2;
            if (!read_hex4(low) || low < 0xDC00 || low > 0xDFFF) {
              return fail("unpaired surrogate in string");
            }
            cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
          }
          append_utf8(decoded, cp);
          break;
        }
        default:
          return fail("invalid escape in string");
      }
      continue;
    }
    if (uc < 0x80) {
      // Copy a run of plain ASCII at once.
      size_t end = pos_ + 1;
      while (end < text_.size() && is_plain(text_[end])) ++end;
      decoded.append(text_.data() + pos_, end - pos_);
      pos_ = end;
      continue;
    }
    const size_t len = utf8_sequence_length(text_.substr(pos_));
    if (len == 0) return fail("invalid UTF-8 in string");
    decoded.append(text_.data() + pos_, len);
    pos_ += len;
  }
}

}  // namespace lq
