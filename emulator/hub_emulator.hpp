// The store hub assembled in memory, as hub/main.cpp assembles it around a socket: the same
// options, migrated database (a writer and a reader connection), claim service and routes
// (hub/http/hub_routes.hpp), behind a memory_server.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "front/store/sqlite.hpp"
#include "hub/domain/claim_service.hpp"
#include "hub/http/hub_routes.hpp"
#include "hub/hub_options.hpp"
#include "memory_server.hpp"

namespace lq::emulator {

class hub_emulator {
 public:
  /// Opens and migrates opts.db_path (a file of the module's in-memory file system) and installs
  /// the routes.
  explicit hub_emulator(const hub::hub_options& opts);
  hub_emulator(const hub_emulator&) = delete;
  hub_emulator& operator=(const hub_emulator&) = delete;

  /// The response to one HTTP/1.1 request from `peer`.
  std::string answer(std::string_view request, std::string peer) {
    return server_.answer(request, std::move(peer));
  }

 private:
  front::database writer_;
  front::database reader_;
  hub::claim_service claims_;
  hub::hub_context context_;
  memory_server server_;
};

}  // namespace lq::emulator
