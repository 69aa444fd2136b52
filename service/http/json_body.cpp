#include "http/json_body.hpp"

#include <string>

namespace lq::service {

namespace {
struct too_deep {};

// What nlohmann's message says is wrong, without its prefix: "unexpected end of input",
// "unexpected '}'", "expected end of input; last read: 'x'".
std::string syntax_problem(const json::parse_error& e) {
  std::string message = e.what();
  const size_t dash = message.find(" - ");
  if (dash != std::string::npos) message = message.substr(dash + 3);
  const size_t colon = message.find("syntax error while parsing");
  if (colon != std::string::npos) message = message.substr(colon);
  // "invalid literal; last read: '1.0x'" style tails are kept, but printable only and short.
  std::string out;
  for (unsigned char c : message.substr(0, 160)) {
    out += (c >= 0x20 && c < 0x7f) ? static_cast<char>(c) : '?';
  }
  return out;
}
}  // namespace

result<json> parse_json_limited(std::string_view text, const char* what) {
  // The callback sees each container as it opens, with the depth of its parent: throwing
  // there stops the parse before anything deeper is built.
  const json::parser_callback_t limit = [](int depth, json::parse_event_t event, json&) {
    if ((event == json::parse_event_t::object_start || event == json::parse_event_t::array_start) &&
        depth >= kMaxJsonDepth) {
      throw too_deep{};
    }
    return true;
  };
  try {
    return json::parse(text.begin(), text.end(), limit);
  } catch (const too_deep&) {
    return error{400, std::string(what) + " nests deeper than 64 levels"};
  } catch (const json::parse_error& e) {
    // nlohmann counts bytes from 1; the offset of the offending byte (the length, at the end).
    const size_t offset = e.byte > 0 ? e.byte - 1 : 0;
    return error{400, std::string(what) + " is not valid JSON: " + syntax_problem(e) + " at byte " +
                          std::to_string(offset)};
  } catch (const json::out_of_range&) {
    // e.g. 1e400: beyond a double, so beyond every decimal the service accepts.
    return error{400, std::string(what) + " holds a number out of range"};
  }
}

}  // namespace lq::service
