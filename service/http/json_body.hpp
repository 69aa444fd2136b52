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

/// Parses JSON text with the engine's reader, the one parser of every body (its syntax, its depth
/// limit, its messages; nlohmann only holds the value it read); errors (code 400) say what is
/// wrong and where, or that a number is beyond a double. `what` names the text in messages
/// ("request body"). For the sandbox's bodies and the fixture: the qualifying and basket bodies
/// are read by the engine alone.
result<json> parse_json_limited(std::string_view text, const char* what = "request body");

}  // namespace lq::service
