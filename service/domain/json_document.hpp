// The service's JSON documents (the sandbox's request bodies, the fixture) as nlohmann values,
// read by the engine's reader: its syntax, its 64 levels of nesting (400 beyond), its messages.
// The size of a body (1 MiB, 413 beyond) is the HTTP framing's
// (front/http/framing/request_framing.hpp).
#pragma once

#include <string_view>

#include <nlohmann/json.hpp>

#include "lq/qualifier.hpp"

namespace lq::service {

using json = nlohmann::ordered_json;

/// Parses JSON text with the engine's reader, the one parser of every body (its syntax, its depth
/// limit, its messages; nlohmann only holds the value it read); errors (code 400) say what is
/// wrong and where, or that a number is beyond a double. `what` names the text in messages
/// ("request body"). For the sandbox's bodies and the fixture: the qualifying and basket bodies
/// are read by the engine alone.
result<json> parse_json_limited(std::string_view text, const char* what = "request body");

}  // namespace lq::service
