// What the sandbox operations read alike in a request (sandbox.hpp): a required text field, the
// token's own user, a filter of GET /purchases or GET /rewards.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "domain/json_document.hpp"
#include "lq/qualifier.hpp"

namespace lq::service {

/// A required non-empty string field of `object`, named `path` in errors (400).
result<std::string> required_text(const json& object, const char* key, const std::string& path);

/// 403: the field `path` names a user other than the access token's.
error not_the_token_user(const std::string& path, const std::string& user_id);

/// Whether `value` passes `filter`: an absent filter passes every value.
bool filter_admits(const std::optional<std::vector<std::string>>& filter, const std::string& value);

}  // namespace lq::service
