// TZif files (RFC 8536, versions 1 to 4) from the system tzdata. Native only: not in the wasm
// build.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace lq {

struct tzif_info {
  int version = 1;     // 1..4 ('\0' in the header reads as 1)
  std::string footer;  // the POSIX TZ string after the last data block; empty for version 1
  // The last explicit transition (from the 64-bit data block when there is one); the footer
  // only governs instants after it.
  std::optional<int64_t> last_transition;
};

/// Reads the header, data blocks and footer of a TZif file; nullopt when it is not valid TZif.
std::optional<tzif_info> read_tzif(const std::string& path);

/// The POSIX TZ footer of an IANA zone (e.g. `America/New_York`); nullopt for unsafe or unknown
/// names.
std::optional<std::string> posix_tz_for_zone(
    std::string_view time_zone, const std::string& zoneinfo_dir = "/usr/share/zoneinfo");

}  // namespace lq
