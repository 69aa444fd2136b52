// A thin RAII layer over SQLite's C API. Failures of the database itself (I/O, corruption, a
// constraint the caller did not expect) are exceptional and throw database_error.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

struct sqlite3;
struct sqlite3_stmt;

namespace lq::front {

class database_error : public std::runtime_error {
 public:
  /// What went wrong, for the status a request gets: 500, 507 (disk full), 503 (file gone).
  enum class kind { failure, disk_full, file_replaced };

  explicit database_error(const std::string& message, kind what = kind::failure)
      : std::runtime_error(message), kind_(what) {}
  kind what_kind() const { return kind_; }

 private:
  kind kind_;
};

class statement {
 public:
  statement(sqlite3* db, std::string_view sql);
  statement(statement&& other) noexcept;
  statement(const statement&) = delete;
  statement& operator=(const statement&) = delete;
  statement& operator=(statement&&) = delete;
  ~statement();

  /// Parameters are numbered from 1.
  statement& bind(int index, std::string_view text);
  statement& bind(int index, const std::string& text) {
    return bind(index, std::string_view(text));
  }
  statement& bind(int index, int64_t value);
  statement& bind(int index, const std::optional<std::string>& text);
  statement& bind(int index, const std::optional<int64_t>& value);
  statement& bind_null(int index);

  /// Advances; true while a row is available.
  bool step();
  /// Runs a statement that returns no rows.
  void run();

  std::string text(int column) const;
  std::optional<std::string> optional_text(int column) const;
  int64_t integer(int column) const;
  bool is_null(int column) const;

 private:
  sqlite3* db_;
  sqlite3_stmt* stmt_ = nullptr;
};

class database {
 public:
  /// Opens (creating when missing) a database file in WAL mode with synchronous=FULL.
  explicit database(const std::string& path);
  database(const database&) = delete;
  database& operator=(const database&) = delete;
  ~database();

  void exec(const char* sql);
  /// Throws database_error(file_replaced) when the path no longer names the file opened (deleted
  /// or replaced while running): writes would go to an unlinked inode and be lost.
  void check_file() const;
  /// PRAGMA quick_check; throws database_error naming the first problem.
  void quick_check();
  statement prepare(std::string_view sql) { return statement(db_, sql); }
  /// Runs `sql`, an INSERT OR IGNORE, with `values` bound to its parameters 1, 2, ... in order;
  /// true when it inserted a row, false when a row with that key exists.
  template <typename... Values>
  bool insert_or_ignore(std::string_view sql, const Values&... values) {
    statement insert = prepare(sql);
    int index = 0;
    (insert.bind(++index, values), ...);
    insert.run();
    return changes() > 0;
  }
  /// Rows changed by the last INSERT, UPDATE or DELETE.
  int64_t changes() const;
  int64_t last_insert_rowid() const;

 private:
  sqlite3* db_ = nullptr;
  std::string path_;
  unsigned long long device_ = 0;
  unsigned long long inode_ = 0;
};

/// BEGIN IMMEDIATE ... COMMIT (after check_file()); rolled back when destroyed without commit().
class transaction {
 public:
  explicit transaction(database& db);
  transaction(const transaction&) = delete;
  transaction& operator=(const transaction&) = delete;
  ~transaction();
  void commit();

 private:
  database& db_;
  bool open_ = true;
};

}  // namespace lq::front
