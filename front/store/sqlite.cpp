#include "front/store/sqlite.hpp"

#include <fcntl.h>
#include <sqlite3.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace lq::front {

namespace {

// Out of space: the disk (SQLITE_FULL, ENOSPC), a quota (EDQUOT) or the file size limit (EFBIG).
bool out_of_space(sqlite3* db) {
  if (!db) return false;
  if ((sqlite3_errcode(db) & 0xff) == SQLITE_FULL) return true;
  const int system = sqlite3_system_errno(db);
  return system == ENOSPC || system == EDQUOT || system == EFBIG;
}

[[noreturn]] void fail(sqlite3* db, const std::string& what) {
  const bool full = out_of_space(db);
  throw database_error(what + ": " + (db ? sqlite3_errmsg(db) : "out of memory"),
                       full ? database_error::kind::disk_full : database_error::kind::failure);
}

}  // namespace

statement::statement(sqlite3* db, std::string_view sql) : db_(db) {
  if (sqlite3_prepare_v2(db, sql.data(), static_cast<int>(sql.size()), &stmt_, nullptr) !=
      SQLITE_OK) {
    fail(db, "prepare `" + std::string(sql) + "`");
  }
}

statement::statement(statement&& other) noexcept : db_(other.db_), stmt_(other.stmt_) {
  other.stmt_ = nullptr;
}

statement::~statement() {
  sqlite3_finalize(stmt_);
}

statement& statement::bind(int index, std::string_view text) {
  if (sqlite3_bind_text(stmt_, index, text.data(), static_cast<int>(text.size()),
                        SQLITE_TRANSIENT) != SQLITE_OK) {
    fail(db_, "bind");
  }
  return *this;
}

statement& statement::bind(int index, int64_t value) {
  if (sqlite3_bind_int64(stmt_, index, value) != SQLITE_OK) fail(db_, "bind");
  return *this;
}

statement& statement::bind(int index, const std::optional<std::string>& text) {
  return text ? bind(index, std::string_view(*text)) : bind_null(index);
}

statement& statement::bind(int index, const std::optional<int64_t>& value) {
  return value ? bind(index, *value) : bind_null(index);
}

statement& statement::bind_null(int index) {
  if (sqlite3_bind_null(stmt_, index) != SQLITE_OK) fail(db_, "bind");
  return *this;
}

bool statement::step() {
  const int rc = sqlite3_step(stmt_);
  if (rc == SQLITE_ROW) return true;
  if (rc == SQLITE_DONE) return false;
  fail(db_, "step");
}

void statement::run() {
  while (step()) {
  }
}

std::string statement::text(int column) const {
  const unsigned char* value = sqlite3_column_text(stmt_, column);
  if (!value) return {};
  return std::string(reinterpret_cast<const char*>(value),
                     static_cast<size_t>(sqlite3_column_bytes(stmt_, column)));
}

std::optional<std::string> statement::optional_text(int column) const {
  if (is_null(column)) return std::nullopt;
  return text(column);
}

int64_t statement::integer(int column) const {
  return sqlite3_column_int64(stmt_, column);
}

bool statement::is_null(int column) const {
  return sqlite3_column_type(stmt_, column) == SQLITE_NULL;
}

database::database(const std::string& path) : path_(path) {
  // A new database file is created 0600, whatever the umask: it holds every access token and
  // merchant key. SQLite creates its -wal and -shm with the mode of the database file (and sets
  // it exactly), so they are 0600 too. An existing file keeps its mode (main.cpp warns when
  // others than its owner may read or write it).
  const int created = ::open(path.c_str(), O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
  if (created >= 0) {
    ::fchmod(created, 0600);
    ::close(created);
  }
  const int flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_FULLMUTEX;
  if (sqlite3_open_v2(path.c_str(), &db_, flags, nullptr) != SQLITE_OK) {
    const std::string message = db_ ? sqlite3_errmsg(db_) : "out of memory";
    sqlite3_close(db_);
    db_ = nullptr;
    throw database_error("cannot open " + path + ": " + message);
  }
  sqlite3_busy_timeout(db_, 5000);
  // WAL + FULL: a committed transaction is on disk before COMMIT returns, so a crash (or a
  // power loss) after a 2xx loses nothing.
  statement mode(db_, "PRAGMA journal_mode=WAL");
  if (!mode.step() || mode.text(0) != "wal") {
    throw database_error("cannot switch " + path + " to WAL mode");
  }
  exec("PRAGMA synchronous=FULL");
  exec("PRAGMA foreign_keys=ON");
  struct stat info {};
  if (::stat(path.c_str(), &info) != 0) throw database_error("cannot stat " + path);
  device_ = info.st_dev;
  inode_ = info.st_ino;
}

void database::check_file() const {
  struct stat info {};
  if (::stat(path_.c_str(), &info) != 0 || info.st_dev != device_ || info.st_ino != inode_) {
    throw database_error("the database file " + path_ +
                             " was deleted or replaced while the service ran; writes are refused "
                             "(restart the service to open the file now at that path)",
                         database_error::kind::file_replaced);
  }
}

void database::quick_check() {
  statement check(db_, "PRAGMA quick_check");
  std::string first;
  if (check.step()) first = check.text(0);
  if (first != "ok") {
    throw database_error(path_ + " fails its integrity check (PRAGMA quick_check): " +
                         (first.empty() ? "no answer" : first));
  }
}

database::~database() {
  sqlite3_close_v2(db_);
}

void database::exec(const char* sql) {
  char* message = nullptr;
  if (sqlite3_exec(db_, sql, nullptr, nullptr, &message) != SQLITE_OK) {
    const std::string text = message ? message : sqlite3_errmsg(db_);
    sqlite3_free(message);
    const bool full = out_of_space(db_);
    const int system = sqlite3_system_errno(db_);
    const std::string text_with_errno =
        system != 0 ? text + " (" + std::strerror(system) + ")" : text;
    throw database_error(std::string("exec `") + sql + "`: " + text_with_errno,
                         full ? database_error::kind::disk_full : database_error::kind::failure);
  }
}

int64_t database::changes() const {
  return sqlite3_changes(db_);
}

int64_t database::last_insert_rowid() const {
  return sqlite3_last_insert_rowid(db_);
}

transaction::transaction(database& db) : db_(db) {
  db_.check_file();
  db_.exec("BEGIN IMMEDIATE");
}

transaction::~transaction() {
  if (!open_) return;
  try {
    db_.exec("ROLLBACK");
  } catch (const database_error&) {
    // Nothing more can be done from a destructor; SQLite rolls back on close anyway.
  }
}

void transaction::commit() {
  db_.exec("COMMIT");
  open_ = false;
}

}  // namespace lq::front
