#include "front/http/front_options.hpp"

#include "front/command_line_numbers.hpp"

namespace lq::front {

namespace {

error bad(const std::string& message) {
  return error{2, message};
}

}  // namespace

result<bool> read_front_option(const std::string& name, const std::string& value,
                               front_options& front) {
  if (name == "--port") {
    std::optional<int> port = parse_port(value);
    if (!port) return bad("--port must be an integer from 0 to 65535");
    front.port = *port;
    front.port_given = true;
  } else if (name == "--host") {
    if (value.empty()) return bad("--host must not be empty");
    front.host = value;
  } else if (name == "--db") {
    if (value.empty()) return bad("--db must not be empty");
    front.db_path = value;
  } else if (name == "--access-log") {
    if (value.empty()) return bad("--access-log must be a file, - (stderr) or off");
    front.access_log = value;
  } else if (name == "--max-connections" || name == "--workers" ||
             name == "--max-connections-per-peer") {
    std::optional<int> count = parse_port(value);
    if (!count || *count < 1 || *count > 1000) {
      return bad(name + " must be an integer from 1 to 1000");
    }
    (name == "--workers"           ? front.workers
     : name == "--max-connections" ? front.max_connections
                                   : front.max_connections_per_peer) = *count;
  } else if (name == "--request-timeout") {
    std::optional<int64_t> timeout = parse_seconds_ms(value);
    if (!timeout || *timeout < 100 || *timeout > 3'600'000) {
      return bad("--request-timeout must be a number of seconds from 0.1 to 3600");
    }
    front.request_timeout_ms = *timeout;
  } else if (name == "--cors-origin") {
    result<bool> allowed = front.cors.allow(value);
    if (!allowed) return allowed.err();
  } else {
    return false;
  }
  return true;
}

std::optional<error> missing_front_option(const front_options& front) {
  if (!front.port_given) return bad("--port is required (0 picks a free port)");
  if (front.db_path.empty()) return bad("--db is required");
  return std::nullopt;
}

connection_limits limits_of(const front_options& front) {
  connection_limits limits;
  limits.max_connections = static_cast<size_t>(front.max_connections);
  limits.max_connections_per_peer = static_cast<size_t>(front.max_connections_per_peer);
  limits.workers = static_cast<size_t>(front.workers);
  limits.request_timeout_ms = static_cast<int>(front.request_timeout_ms);
  return limits;
}

}  // namespace lq::front
