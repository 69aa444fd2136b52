// Limits on request bodies: 1 MiB (413 beyond) and the engine's 64 levels of JSON nesting
// (400 beyond).
#pragma once

#include <cstddef>
#include <string_view>

#include <nlohmann/json.hpp>

#include "qualifier.hpp"

namespace lq::service {

constexpr size_t kMaxBodyBytes = size_t{1} << 20;

using json = nlohmann::ordered_json;

/// Parses JSON text that the engine's reader accepts (its syntax, its depth limit, its
/// messages); errors (code 400) say what is wrong and where. `what` names the text in messages
/// ("request body"). For the sandbox's bodies and the fixture: the qualifying and basket bodies
/// are read by the engine alone.
result<json> parse_json_limited(std::string_view text, const char* what = "request body");

}  // namespace lq::service
