#include "domain/accounts/account_etag.hpp"

#include <cstdint>
#include <cstdio>

namespace lq::service {

namespace {

std::uint64_t fnv1a(std::string_view bytes, std::uint64_t basis, std::uint64_t prime) {
  std::uint64_t hash = basis;
  for (unsigned char c : bytes) {
    hash ^= c;
    hash *= prime;
  }
  return hash;
}

bool is_space(char c) {
  return c == ' ' || c == '\t';
}

// The opaque tag of one entity-tag at `pos` (W/ dropped), advancing `pos`; false when malformed.
bool next_tag(std::string_view value, size_t& pos, std::string_view& opaque) {
  if (value.compare(pos, 2, "W/") == 0) pos += 2;
  if (pos >= value.size() || value[pos] != '"') return false;
  size_t end = value.find('"', pos + 1);
  if (end == std::string_view::npos) return false;
  opaque = value.substr(pos, end - pos + 1);
  pos = end + 1;
  return true;
}

}  // namespace

std::string strong_etag(std::string_view body) {
  // Two FNV-1a variants (different offset bases) and the length: 128 bits plus the size.
  std::uint64_t first = fnv1a(body, 0xcbf29ce484222325ULL, 0x100000001b3ULL);
  std::uint64_t second = fnv1a(body, 0x84222325cbf29ce4ULL, 0x100000001b3ULL);
  char text[64];
  std::snprintf(text, sizeof text, "\"%016llx%016llx-%zx\"", static_cast<unsigned long long>(first),
                static_cast<unsigned long long>(second), body.size());
  return text;
}

bool if_none_match_hits(std::string_view value, std::string_view etag) {
  size_t pos = 0;
  while (pos < value.size() && is_space(value[pos])) ++pos;
  if (value.substr(pos) == "*") return true;
  // A comma-separated list; empty elements are allowed (RFC 9110 5.6.1).
  while (pos < value.size()) {
    while (pos < value.size() && (is_space(value[pos]) || value[pos] == ',')) ++pos;
    if (pos >= value.size()) break;
    std::string_view opaque;
    if (!next_tag(value, pos, opaque)) return false;
    if (opaque == etag) return true;
    while (pos < value.size() && is_space(value[pos])) ++pos;
    if (pos < value.size() && value[pos] != ',') return false;
  }
  return false;
}

}  // namespace lq::service
