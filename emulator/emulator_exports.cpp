// The emulator module's C entry points for web/emulator/ (no Embind: bytes cross as they are).
// A runtime is created from the service's or the hub's command-line arguments (NUL-separated),
// answers requests given as HTTP/1.1 bytes at an instant the JS side reads from its clock, and
// is destroyed. Errors cross as values: a null handle with lq_emulator_error() saying why and
// lq_emulator_exit_code() the native program's exit code for it.
#include <emscripten/emscripten.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <exception>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "emulator_clock.hpp"
#include "front/http/access_log.hpp"
#include "hub_emulator.hpp"
#include "service_emulator.hpp"

namespace {

using lq::emulator::hub_emulator;
using lq::emulator::service_emulator;

std::string last_error;
// As main() exits: 2 for a command line it refuses (its usage follows), 1 for every other reason.
constexpr int kCommandLineRefused = 2;
constexpr int kStartFailed = 1;
int last_exit_code = kStartFailed;
std::string last_response;

// A create refused: why, and the exit code the native program would give.
std::nullptr_t refused(std::string why, int exit_code) {
  last_error = std::move(why);
  last_exit_code = exit_code;
  return nullptr;
}

std::vector<std::string> arguments_of(const char* packed, size_t size) {
  std::vector<std::string> args;
  std::string_view rest(packed, size);
  while (!rest.empty()) {
    const size_t end = rest.find('\0');
    args.emplace_back(rest.substr(0, end));
    rest = end == std::string_view::npos ? std::string_view() : rest.substr(end + 1);
  }
  return args;
}

// The access log as the options say ("off", or "-": the module's stderr), as main() opens it.
bool open_log(const std::string& where) {
  std::string problem;
  if (lq::front::open_access_log(where, problem)) return true;
  refused(problem, kStartFailed);
  return false;
}

template <typename Runtime>
const char* answer_with(Runtime* runtime, const char* request, size_t size, const char* peer,
                        double now_ms, size_t* response_size) {
  lq::emulator::set_now_ms(static_cast<int64_t>(now_ms));
  try {
    last_response = runtime->answer(std::string_view(request, size), peer);
  } catch (const std::exception& e) {
    // The routes' own failures are answered by the front's exception handler; this is one
    // outside them (the accrual's database).
    last_error = e.what();
    return nullptr;
  }
  *response_size = last_response.size();
  return last_response.data();
}

service_emulator* create_service(const char* args, size_t size, double now_ms,
                                 lq::emulator::first_state from) {
  lq::emulator::set_now_ms(static_cast<int64_t>(now_ms));
  lq::result<lq::service::options> parsed = lq::service::parse_options(arguments_of(args, size));
  if (!parsed) return refused(parsed.err().message, kCommandLineRefused);
  if (!open_log(parsed->access_log)) return nullptr;
  try {
    return new service_emulator(*parsed, from);
  } catch (const std::exception& e) {
    return refused(e.what(), kStartFailed);
  }
}

}  // namespace

extern "C" {

/// Why the last create or answer failed.
EMSCRIPTEN_KEEPALIVE const char* lq_emulator_error() {
  return last_error.c_str();
}

/// The exit code the native program gives for the last refused create (2: its command line).
EMSCRIPTEN_KEEPALIVE int lq_emulator_exit_code() {
  return last_exit_code;
}

/// The service from loyalty_service's arguments; null (lq_emulator_error) when they or the
/// fixture are refused.
EMSCRIPTEN_KEEPALIVE service_emulator* lq_service_create(const char* args, size_t size,
                                                         double now_ms) {
  return create_service(args, size, now_ms, lq::emulator::first_state::fixture);
}

/// The service from loyalty_service's arguments (no --fixture) over the database file --db
/// already holds: a seeded image (docs/emulator.md), copied there by the JS side and stamped at
/// now; null (lq_emulator_error) when it is not one of this module's schema.
EMSCRIPTEN_KEEPALIVE service_emulator* lq_service_create_seeded(const char* args, size_t size,
                                                                double now_ms) {
  return create_service(args, size, now_ms, lq::emulator::first_state::seeded_image);
}

/// The response bytes to one request from the client at address `peer` (valid until the next
/// call); null on a failure outside the routes.
EMSCRIPTEN_KEEPALIVE const char* lq_service_answer(service_emulator* service, const char* request,
                                                   size_t size, const char* peer, double now_ms,
                                                   size_t* response_size) {
  return answer_with(service, request, size, peer, now_ms, response_size);
}

EMSCRIPTEN_KEEPALIVE void lq_service_destroy(service_emulator* service) {
  delete service;
}

/// The hub from loyalty_hub's arguments and its store key.
EMSCRIPTEN_KEEPALIVE hub_emulator* lq_hub_create(const char* args, size_t size,
                                                 const char* store_key, double now_ms) {
  lq::emulator::set_now_ms(static_cast<int64_t>(now_ms));
  lq::result<lq::hub::hub_options> parsed =
      lq::hub::parse_hub_options(arguments_of(args, size), store_key);
  if (!parsed) return refused(parsed.err().message, kCommandLineRefused);
  if (!open_log(parsed->access_log)) return nullptr;
  try {
    return new hub_emulator(*parsed);
  } catch (const std::exception& e) {
    return refused(e.what(), kStartFailed);
  }
}

EMSCRIPTEN_KEEPALIVE const char* lq_hub_answer(hub_emulator* hub, const char* request, size_t size,
                                               const char* peer, double now_ms,
                                               size_t* response_size) {
  return answer_with(hub, request, size, peer, now_ms, response_size);
}

EMSCRIPTEN_KEEPALIVE void lq_hub_destroy(hub_emulator* hub) {
  delete hub;
}

/// Writes `size` bytes to the file `path` of the module's memory file system (a fixture); false
/// when it cannot.
EMSCRIPTEN_KEEPALIVE bool lq_emulator_write_file(const char* path, const char* data, size_t size) {
  std::FILE* file = std::fopen(path, "wb");
  if (!file) return false;
  const bool written = std::fwrite(data, 1, size, file) == size;
  return std::fclose(file) == 0 && written;
}

/// The bytes of the file `path` of the module's memory file system (valid until
/// lq_emulator_release); null when it cannot be read. The build reads a seeded image with it.
EMSCRIPTEN_KEEPALIVE const char* lq_emulator_read_file(const char* path, size_t* size) {
  std::FILE* file = std::fopen(path, "rb");
  if (!file) return nullptr;
  std::string bytes;
  char buffer[65536];
  size_t got = 0;
  while ((got = std::fread(buffer, 1, sizeof buffer, file)) > 0) bytes.append(buffer, got);
  const bool failed = std::ferror(file) != 0;
  std::fclose(file);
  if (failed) return nullptr;
  last_response = std::move(bytes);
  *size = last_response.size();
  return last_response.data();
}

/// Removes a database file of the module's memory file system and its -wal and -shm files.
EMSCRIPTEN_KEEPALIVE void lq_emulator_remove_database(const char* path) {
  for (const char* suffix : {"", "-wal", "-shm"}) std::remove((std::string(path) + suffix).c_str());
}

/// The response buffer's memory, handed back by the JS side once it has copied the bytes.
EMSCRIPTEN_KEEPALIVE void lq_emulator_release() {
  std::string().swap(last_response);
}

}  // extern "C"
