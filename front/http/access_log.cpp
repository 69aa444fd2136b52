#include "front/http/access_log.hpp"

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <mutex>
#include <optional>
#include <string>

#include "front/service_clock.hpp"

namespace lq::front {

namespace {
std::mutex log_mutex;
enum class destination { standard_error, file, off };
destination log_destination = destination::standard_error;
std::string log_path;
std::FILE* log_file = nullptr;
size_t log_bytes = 0;

// Called with log_mutex held: FILE becomes FILE.1 and a new FILE is started.
void rotate() {
  std::fclose(log_file);
  std::rename(log_path.c_str(), (log_path + ".1").c_str());
  log_file = std::fopen(log_path.c_str(), "a");
  log_bytes = 0;
  if (!log_file) {
    std::fprintf(stderr, "loyalty_service: cannot reopen the access log %s: %s; logging stops\n",
                 log_path.c_str(), std::strerror(errno));
    log_destination = destination::off;
  }
}

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

bool open_access_log(const std::string& where, std::string& problem) {
  std::lock_guard<std::mutex> lock(log_mutex);
  if (where == "-") {
    log_destination = destination::standard_error;
    return true;
  }
  if (where == "off") {
    log_destination = destination::off;
    return true;
  }
  std::FILE* file = std::fopen(where.c_str(), "a");
  if (!file) {
    problem = "cannot open the access log " + where + ": " + std::strerror(errno);
    return false;
  }
  std::fseek(file, 0, SEEK_END);
  const long size = std::ftell(file);
  log_file = file;
  log_path = where;
  log_bytes = size > 0 ? static_cast<size_t>(size) : 0;
  log_destination = destination::file;
  return true;
}

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
  const std::string line = format_rfc3339_ms(instant_from_unix_ms(service_clock::wall_ms())) + " " +
                           printable(req.remote_addr) + " \"" + printable(req.method) + " " +
                           printable(req.path) + "\" " + std::to_string(res.status) + " " +
                           std::to_string(res.body.size()) + " " + duration + "\n";
  std::lock_guard<std::mutex> lock(log_mutex);
  switch (log_destination) {
    case destination::off:
      return;
    case destination::standard_error:
      std::fputs(line.c_str(), stderr);
      return;
    case destination::file:
      if (log_bytes + line.size() > kAccessLogMaxBytes) rotate();
      if (!log_file) return;
      std::fputs(line.c_str(), log_file);
      std::fflush(log_file);
      log_bytes += line.size();
      return;
  }
}

}  // namespace lq::front
