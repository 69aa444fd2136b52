// Limits on request bodies: 1 MiB (413 beyond) and 64 levels of JSON nesting (400 beyond).
#pragma once

#include <cstddef>
#include <string_view>

#include <nlohmann/json.hpp>

#include "qualifier.hpp"

namespace lq::service {

constexpr size_t kMaxBodyBytes = size_t{1} << 20;
/// The engine's reader allows the same depth (json_reader::kMaxDepth).
constexpr int kMaxJsonDepth = 64;

using json = nlohmann::ordered_json;

/// Parses JSON text, rejecting nesting deeper than kMaxJsonDepth without building it; errors
/// (code 400) say what is wrong. `what` names the text in messages ("request body").
result<json> parse_json_limited(std::string_view text, const char* what = "request body");

}  // namespace lq::service
