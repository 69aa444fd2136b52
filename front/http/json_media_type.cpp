#include "front/http/json_media_type.hpp"

#include <string>

namespace lq::front {

namespace {

std::string_view trimmed(std::string_view text) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t')) text.remove_suffix(1);
  return text;
}

bool same_ignoring_case(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    const char x = (a[i] >= 'A' && a[i] <= 'Z') ? static_cast<char>(a[i] - 'A' + 'a') : a[i];
    const char y = (b[i] >= 'A' && b[i] <= 'Z') ? static_cast<char>(b[i] - 'A' + 'a') : b[i];
    if (x != y) return false;
  }
  return true;
}

// `application/json` with its parameters: a charset, when given, must be utf-8 (quoted or not).
bool is_json(std::string_view value) {
  const size_t semicolon = value.find(';');
  if (!same_ignoring_case(trimmed(value.substr(0, semicolon)), "application/json")) return false;
  std::string_view rest = semicolon == std::string_view::npos ? "" : value.substr(semicolon + 1);
  while (!rest.empty()) {
    const size_t next = rest.find(';');
    const std::string_view parameter = trimmed(rest.substr(0, next));
    rest = next == std::string_view::npos ? "" : rest.substr(next + 1);
    const size_t equals = parameter.find('=');
    if (equals == std::string_view::npos) continue;
    if (!same_ignoring_case(trimmed(parameter.substr(0, equals)), "charset")) continue;
    std::string_view charset = trimmed(parameter.substr(equals + 1));
    if (charset.size() >= 2 && charset.front() == '"' && charset.back() == '"') {
      charset = charset.substr(1, charset.size() - 2);
    }
    if (!same_ignoring_case(charset, "utf-8")) return false;
  }
  return true;
}

}  // namespace

std::optional<error> json_body_problem(const std::vector<std::string_view>& content_types) {
  if (content_types.empty()) {
    return error{415, "a request body must be sent with Content-Type: application/json"};
  }
  if (content_types.size() > 1) {
    return error{415, "the Content-Type header must be sent once (got " +
                          std::to_string(content_types.size()) + ")"};
  }
  if (is_json(content_types.front())) return std::nullopt;
  return error{415, "the request body must be application/json (UTF-8), not " +
                        std::string(content_types.front().substr(0, 100))};
}

}  // namespace lq::front
