// The database file (front/store/sqlite.*) against the real file system: it holds every access
// token and merchant key, so a new one, its WAL and its shared-memory file are created 0600
// whatever the umask; an existing file keeps its mode.
#include <catch2/catch.hpp>

#include <sys/stat.h>

#include <string>

#include "../temp_dir.hpp"
#include "front/store/sqlite.hpp"
#include "store/store.hpp"

namespace {

using lq::service::testing::temp_dir;

using namespace lq::front;
using namespace lq::service;

unsigned mode_of(const std::string& path) {
  struct stat info {};
  REQUIRE(::stat(path.c_str(), &info) == 0);
  return static_cast<unsigned>(info.st_mode & 07777);
}

// Sets the process umask for one scope.
class umask_scope {
 public:
  explicit umask_scope(mode_t mask) : previous_(::umask(mask)) {}
  ~umask_scope() { ::umask(previous_); }
  umask_scope(const umask_scope&) = delete;
  umask_scope& operator=(const umask_scope&) = delete;

 private:
  mode_t previous_;
};

}  // namespace

TEST_CASE("a new database, its WAL and SHM are created 0600 whatever the umask", "[sqlite]") {
  for (const mode_t mask : {mode_t{0}, mode_t{022}, mode_t{077}}) {
    temp_dir dir;
    const std::string path = dir.file("service.db");
    const umask_scope scope(mask);
    store db(path);
    {
      auto lock = db.lock();
      REQUIRE(db.insert_merchant({"m_1", "key-1", "UTC", "1", "pe_1"}));
      REQUIRE(db.insert_user({"u_1", "m_1", "token-1"}));
    }
    // Written and still open: the WAL and the SHM exist.
    for (const char* suffix : {"", "-wal", "-shm"}) {
      INFO("umask " << mask << ", file " << path << suffix);
      CHECK(mode_of(path + suffix) == 0600);
    }
  }
}

TEST_CASE("an existing database keeps its mode", "[sqlite]") {
  temp_dir dir;
  const std::string path = dir.file("service.db");
  { store created(path); }
  REQUIRE(::chmod(path.c_str(), 0640) == 0);
  store reopened(path);
  CHECK(mode_of(path) == 0640);
}
