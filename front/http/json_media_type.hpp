// The media type a request body must declare: `application/json`, in one Content-Type field, with
// no charset or `charset=utf-8`. A body declared as anything else (`text/plain`, a form) is not
// read as JSON: a page of another site can send those without asking the server first (a CORS
// "simple" request), never `application/json`. The store hub applies it to every body; the kiosk
// server applies the same rule to its proxied writes (kiosk/server/request_guard.mjs).
#pragma once

#include <optional>
#include <string_view>
#include <vector>

#include "lq/qualifier.hpp"

namespace lq::front {

/// nullopt when a request with `content_types` (its Content-Type fields, in order) may carry a
/// JSON body; else the 415 naming what it declared. Only asked for a request that has a body.
std::optional<error> json_body_problem(const std::vector<std::string_view>& content_types);

}  // namespace lq::front
