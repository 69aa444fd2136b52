// TZif reading (RFC 8536). Native only: this is the one engine-side file that does file IO.
#include "lq/time/tzif.hpp"

#include <algorithm>
#include <cstddef>
#include <fstream>
#include <iterator>
#include <vector>

namespace lq {

namespace {

constexpr std::size_t kHeaderSize = 44;
// Real TZif files are a few KiB; the cap keeps a stray path from reading something huge.
constexpr std::size_t kMaxFileSize = std::size_t{1} << 20;

struct tzif_header {
  int version = 1;
  uint32_t isutcnt = 0;
  uint32_t isstdcnt = 0;
  uint32_t leapcnt = 0;
  uint32_t timecnt = 0;
  uint32_t typecnt = 0;
  uint32_t charcnt = 0;

  // Size of the data block that follows, for 4-byte (version 1) or 8-byte times.
  uint64_t data_size(uint64_t time_size) const {
    return uint64_t{timecnt} * time_size + timecnt + uint64_t{typecnt} * 6 + charcnt +
           uint64_t{leapcnt} * (time_size + 4) + isstdcnt + isutcnt;
  }
};

uint64_t read_big_endian(const unsigned char* p, std::size_t bytes) {
  uint64_t value = 0;
  for (std::size_t i = 0; i < bytes; ++i) value = (value << 8) | p[i];
  return value;
}

std::optional<tzif_header> parse_header(const std::vector<unsigned char>& file, std::size_t at) {
  if (file.size() - at < kHeaderSize) return std::nullopt;
  const unsigned char* p = file.data() + at;
  if (p[0] != 'T' || p[1] != 'Z' || p[2] != 'i' || p[3] != 'f') return std::nullopt;
  tzif_header header;
  if (p[4] == 0) {
    header.version = 1;
  } else if (p[4] >= '2' && p[4] <= '9') {
    header.version = p[4] - '0';
  } else {
    return std::nullopt;
  }
  const auto count = [p](std::size_t index) {
    return static_cast<uint32_t>(read_big_endian(p + 20 + 4 * index, 4));
  };
  header.isutcnt = count(0);
  header.isstdcnt = count(1);
  header.leapcnt = count(2);
  header.timecnt = count(3);
  header.typecnt = count(4);
  header.charcnt = count(5);
  // RFC 8536 3.1: at least one type and one abbreviation byte; indicator counts 0 or typecnt.
  if (header.typecnt == 0 || header.charcnt == 0) return std::nullopt;
  if (header.isutcnt != 0 && header.isutcnt != header.typecnt) return std::nullopt;
  if (header.isstdcnt != 0 && header.isstdcnt != header.typecnt) return std::nullopt;
  return header;
}

// The largest transition time of a data block starting at `at` (times are its first field).
std::optional<int64_t> last_transition_of(const std::vector<unsigned char>& file, std::size_t at,
                                          const tzif_header& header, std::size_t time_size) {
  std::optional<int64_t> last;
  for (uint32_t i = 0; i < header.timecnt; ++i) {
    const uint64_t raw = read_big_endian(file.data() + at + i * time_size, time_size);
    const int64_t time = time_size == 4 ? static_cast<int64_t>(static_cast<int32_t>(raw))
                                        : static_cast<int64_t>(raw);
    last = last ? std::max(*last, time) : time;
  }
  return last;
}

std::optional<std::vector<unsigned char>> read_file_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  std::vector<unsigned char> bytes;
  char buffer[4096];
  while (in.read(buffer, sizeof buffer) || in.gcount() > 0) {
    bytes.insert(bytes.end(), buffer, buffer + in.gcount());
    if (bytes.size() > kMaxFileSize) return std::nullopt;
  }
  if (in.bad()) return std::nullopt;
  return bytes;
}

bool is_zone_name_char(char c) {
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '/' ||
         c == '_' || c == '-' || c == '+' || c == '.';
}

}  // namespace

std::optional<tzif_info> read_tzif(const std::string& path) {
  const auto file = read_file_bytes(path);
  if (!file) return std::nullopt;
  const auto v1 = parse_header(*file, 0);
  if (!v1) return std::nullopt;
  const uint64_t v1_size = v1->data_size(4);
  if (file->size() - kHeaderSize < v1_size) return std::nullopt;

  tzif_info info;
  info.version = v1->version;
  if (v1->version == 1) {
    info.last_transition = last_transition_of(*file, kHeaderSize, *v1, 4);
    return info;
  }
  // Version 2+: a second header and a 64-bit data block, then "\n<TZ string>\n".
  const std::size_t v2_at = kHeaderSize + static_cast<std::size_t>(v1_size);
  const auto v2 = parse_header(*file, v2_at);
  if (!v2 || v2->version != v1->version) return std::nullopt;
  const std::size_t data_at = v2_at + kHeaderSize;
  const uint64_t v2_size = v2->data_size(8);
  if (file->size() - data_at < v2_size) return std::nullopt;
  info.last_transition = last_transition_of(*file, data_at, *v2, 8);

  const std::size_t footer_at = data_at + static_cast<std::size_t>(v2_size);
  if (footer_at >= file->size() || (*file)[footer_at] != '\n') return std::nullopt;
  const auto footer_begin = file->begin() + static_cast<std::ptrdiff_t>(footer_at) + 1;
  const auto footer_end = std::find(footer_begin, file->end(), '\n');
  if (footer_end == file->end()) return std::nullopt;
  info.footer.assign(footer_begin, footer_end);
  return info;
}

std::optional<std::string> posix_tz_for_zone(std::string_view time_zone,
                                             const std::string& zoneinfo_dir) {
  // The name becomes a path: refuse anything that could leave the zoneinfo directory.
  if (time_zone.empty() || time_zone.front() == '/' ||
      time_zone.find("..") != std::string_view::npos ||
      !std::all_of(time_zone.begin(), time_zone.end(), is_zone_name_char)) {
    return std::nullopt;
  }
  const auto info = read_tzif(zoneinfo_dir + "/" + std::string(time_zone));
  if (!info || info->footer.empty()) return std::nullopt;
  return info->footer;
}

}  // namespace lq
