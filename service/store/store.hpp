// The service's data in SQLite, its tables by concern as domain/ is: accounts (account_store),
// baskets (basket_store), purchases and campaigns (purchase_store), the sandbox's cards
// (sandbox_store). Not thread-safe by itself: hold lock() around every call (and around a
// transaction spanning several).
#pragma once

#include <mutex>
#include <string>

#include "front/store/sqlite.hpp"
#include "store/account_store.hpp"
#include "store/basket_store.hpp"
#include "store/purchase_store.hpp"
#include "store/sandbox_store.hpp"

namespace lq::service {

/// How a database file is opened: checked (PRAGMA quick_check: a file of unknown history), or as
/// a copy this process has just written of a file it made itself (the emulator's seeded image).
enum class file_origin { unknown, own_copy };

/// The database file, opened and migrated before the tables that use it (a base comes first).
class store_file {
 protected:
  /// Opens the file and migrates its schema; throws database_error.
  store_file(const std::string& path, file_origin origin);

  std::mutex mutex_;
  front::database database_;
  int opened_version_ = 0;
};

class store : private store_file,
              public account_store,
              public basket_store,
              public purchase_store,
              public sandbox_store {
 public:
  /// Opens the file and migrates its schema; throws database_error.
  explicit store(const std::string& path, file_origin origin = file_origin::unknown);

  std::unique_lock<std::mutex> lock() { return std::unique_lock<std::mutex>(mutex_); }
  front::database& db() { return database_; }
  /// The schema version the file had when opened (0 for a new file).
  int opened_version() const { return opened_version_; }
};

}  // namespace lq::service
