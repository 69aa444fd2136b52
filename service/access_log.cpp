#include "access_log.hpp"

#include <chrono>
#include <cstdio>
#include <optional>
#include <string>

#include "service_clock.hpp"

namespace lq::service {

namespace {
thread_local std::optional<std::chrono::steady_clock::time_point> request_start;

// Printable ASCII only, so a crafted path cannot forge log lines.
std::string printable(const std::string& text) {
  if (text.empty()) return "-";  // e.g. a request line too malformed to parse
  std::string out;
  out.reserve(text.size());
  for (unsigned char c : text) {
    out += (c >= 0x20 && c < 0x7f && c != '"') ? static_cast<char>(c) : '?';
  }
  return out;
}
}  // namespace

void mark_request_start() {
  request_start = std::chrono::steady_clock::now();
}

void log_request(const httplib::Request& req, const httplib::Response& res) {
  std::string duration = "-";
  if (request_start) {
    const auto elapsed = std::chrono::steady_clock::now() - *request_start;
    const double ms = std::chrono::duration<double, std::milli>(elapsed).count();
    char text[32];
    std::snprintf(text, sizeof text, "%.1fms", ms);
    duration = text;
    request_start.reset();
  }
  const std::string line = format_rfc3339(instant_from_ms(service_clock::wall_ms())) + " " +
                           printable(req.remote_addr) + " \"" + printable(req.method) + " " +
                           printable(req.path) + "\" " + std::to_string(res.status) + " " +
                           std::to_string(res.body.size()) + " " + duration + "\n";
  std::fputs(line.c_str(), stderr);  // one call per line: lines from threads do not interleave
}

}  // namespace lq::service
