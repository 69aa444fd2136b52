// Appending JSON text to a std::string.
#pragma once

#include <string>
#include <string_view>

namespace lq {

/// Appends `s` as a quoted JSON string (UTF-8 passed through, control characters escaped).
void append_json_string(std::string& out, std::string_view s);

}  // namespace lq
