#include "http/json_body.hpp"

#include <string>

#include "json/json_fields.hpp"
#include "json/json_reader.hpp"

namespace lq::service {

result<json> parse_json_limited(std::string_view text, const char* what) {
  // The engine's reader judges the text, so its syntax errors and depth limit read as the
  // engine's: nlohmann only builds what that reader accepted.
  json_reader reader(text);
  if (!reader.read_document()) return field_errors(400, what).syntax(reader);
  try {
    return json::parse(text.begin(), text.end());
  } catch (const json::out_of_range&) {
    // e.g. 1e400: beyond a double, so beyond every decimal the service accepts.
    return error{400, std::string(what) + " holds a number out of range"};
  } catch (const json::parse_error&) {
    // Not reached while both readers follow RFC 8259; a refusal rather than a 500 if they part.
    return error{400, std::string(what) + " is not valid JSON"};
  }
}

}  // namespace lq::service
