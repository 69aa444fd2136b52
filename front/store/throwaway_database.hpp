// `--db :memory:` (tests): SQLite's own in-memory databases have no WAL mode, so the loyalty
// service and the store hub use a file in a fresh temporary folder instead, and remove both when
// they stop.
#pragma once

#include <string>

namespace lq::front {

class throwaway_database {
 public:
  /// A fresh folder $TMPDIR/<program>-XXXXXX (default /tmp) for `file_name`; throws
  /// std::runtime_error when it cannot be created.
  throwaway_database(const std::string& program, std::string file_name);
  throwaway_database(const throwaway_database&) = delete;
  throwaway_database& operator=(const throwaway_database&) = delete;
  /// Removes the file, its WAL, shared-memory and journal files, and the folder.
  ~throwaway_database();

  std::string file() const { return folder_ + "/" + file_name_; }

 private:
  std::string folder_;
  std::string file_name_;
};

}  // namespace lq::front
