#include "front/store/throwaway_database.hpp"

#include <stdlib.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <stdexcept>

namespace lq::front {

throwaway_database::throwaway_database(const std::string& program, std::string file_name)
    : file_name_(std::move(file_name)) {
  const char* tmp = std::getenv("TMPDIR");
  std::string folder = std::string(tmp && *tmp ? tmp : "/tmp") + "/" + program + "-XXXXXX";
  if (!mkdtemp(folder.data())) {
    throw std::runtime_error("--db :memory:: cannot create a temporary folder " + folder + ": " +
                             std::strerror(errno));
  }
  folder_ = folder;
}

throwaway_database::~throwaway_database() {
  for (const char* suffix : {"", "-wal", "-shm", "-journal"}) {
    unlink((file() + suffix).c_str());
  }
  rmdir(folder_.c_str());
}

}  // namespace lq::front
