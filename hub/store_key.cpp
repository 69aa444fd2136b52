#include "hub/store_key.hpp"

#include <sys/stat.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

namespace lq::hub {

namespace {

constexpr size_t kMaxKeyBytes = 512;
constexpr size_t kMaxFileBytes = 4096;

bool is_hex(char c) {
  return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

bool is_base64(char c) {
  return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '+' ||
         c == '/' || c == '-' || c == '_';
}

// The key's characters that carry key material: a base64 key's trailing `=` padding does not.
bool strong_enough(std::string_view key) {
  bool hex = true;
  for (char c : key) hex = hex && is_hex(c);
  if (hex) return key.size() >= 32;  // 4 bits each
  std::string_view unpadded = key;
  for (int i = 0; i < 2 && !unpadded.empty() && unpadded.back() == '='; ++i) {
    unpadded.remove_suffix(1);
  }
  bool base64 = true;
  for (char c : unpadded) base64 = base64 && is_base64(c);
  if (base64) return unpadded.size() >= 22;  // 6 bits each
  return key.size() >= 20;                   // log2(94) > 6.5 bits each
}

}  // namespace

std::optional<std::string> store_key_problem(std::string_view key, const std::string& name) {
  bool visible = !key.empty() && key.size() <= kMaxKeyBytes;
  for (unsigned char c : key) visible = visible && c > 0x20 && c < 0x7f;
  if (visible && strong_enough(key)) return std::nullopt;
  return name +
         " must be a store key of at least 128 bits: 32 hex digits, 22 base64 characters or 20 "
         "other visible ASCII characters (at most 512, no spaces); make one with: openssl rand "
         "-hex 16";
}

result<store_key_file> read_store_key_file(const std::string& path) {
  const std::string name = "--store-key-file " + path;
  std::FILE* file = std::fopen(path.c_str(), "rb");
  if (file == nullptr) return error{2, name + ": cannot read it (" + std::strerror(errno) + ")"};
  store_key_file read;
  struct stat info {};
  if (::fstat(fileno(file), &info) == 0) read.others_may_read = (info.st_mode & S_IROTH) != 0;
  char buffer[kMaxFileBytes + 1];
  const size_t got = std::fread(buffer, 1, sizeof buffer, file);
  const bool failed = std::ferror(file) != 0;
  std::fclose(file);
  if (failed) return error{2, name + ": cannot read it"};
  if (got > kMaxFileBytes) return error{2, name + " is larger than 4 KiB: not a store key file"};
  read.key.assign(buffer, got);
  while (!read.key.empty() && (read.key.back() == '\n' || read.key.back() == '\r' ||
                               read.key.back() == ' ' || read.key.back() == '\t')) {
    read.key.pop_back();
  }
  if (std::optional<std::string> problem = store_key_problem(read.key, "the key in " + name)) {
    return error{2, *problem};
  }
  return read;
}

}  // namespace lq::hub
