#include "json_body.hpp"

#include <string>

namespace lq::service {

namespace {
struct too_deep {};
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
    return error{400,
                 std::string(what) + " is not valid JSON (at byte " + std::to_string(e.byte) + ")"};
  } catch (const json::out_of_range&) {
    // e.g. 1e400: beyond a double, so beyond every decimal the service accepts.
    return error{400, std::string(what) + " holds a number out of range"};
  }
}

}  // namespace lq::service
