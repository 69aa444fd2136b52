// A fresh directory for one native test's database files, removed with everything in it when the
// test ends.
#pragma once

#include <unistd.h>

#include <filesystem>
#include <string>

namespace lq::service::testing {

class temp_dir {
 public:
  temp_dir() {
    static int count = 0;
    path_ = std::filesystem::temp_directory_path() /
            ("lq_service_test_" + std::to_string(getpid()) + "_" + std::to_string(++count));
    std::filesystem::remove_all(path_);
    std::filesystem::create_directories(path_);
  }
  ~temp_dir() {
    std::error_code ignored;
    std::filesystem::remove_all(path_, ignored);
  }
  temp_dir(const temp_dir&) = delete;
  temp_dir& operator=(const temp_dir&) = delete;

  /// The path of `name` in the directory.
  std::string file(const char* name) const { return (path_ / name).string(); }

 private:
  std::filesystem::path path_;
};

}  // namespace lq::service::testing
