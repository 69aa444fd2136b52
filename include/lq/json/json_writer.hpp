// Appending JSON text to a std::string.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace lq {

/// Appends `s` as a quoted JSON string (UTF-8 passed through, control characters escaped).
void append_json_string(std::string& out, std::string_view s);

/// Appends `values` as a JSON array of strings.
void append_json_string_array(std::string& out, const std::vector<std::string>& values);

}  // namespace lq
