// The store key's strength and its file (hub/store_key.*): at least 128 bits of key material,
// measured in the alphabet it is written in; a file read without its trailing newline.
#include <catch2/catch.hpp>

#include <sys/stat.h>

#include <fstream>
#include <string>

#include "../../service/native/temp_dir.hpp"
#include "hub/store_key.hpp"

namespace {

using lq::hub::read_store_key_file;
using lq::hub::store_key_problem;
using lq::service::testing::temp_dir;

bool fit(const std::string& key) {
  return !store_key_problem(key, "k");
}

}  // namespace

TEST_CASE("32 hex digits, 22 base64 characters or 20 other characters are 128 bits",
          "[store_key]") {
  CHECK(fit(std::string(32, 'a')));
  CHECK_FALSE(fit("0123456789abcdef0123456789abcde"));  // 31 hex digits: 124 bits
  CHECK(fit("0123456789abcdef0123456789abcdef"));
  CHECK(fit("q2xA7Zk1b9Pd0Ws-Lm3N_v"));         // 22 base64url characters
  CHECK_FALSE(fit("q2xA7Zk1b9Pd0Ws-Lm3N_"));    // 21: 126 bits
  CHECK(fit("q2xA7Zk1b9Pd0Ws+Lm3N/v=="));       // `openssl rand -base64 16`: padding aside, 22
  CHECK_FALSE(fit("q2xA7Zk1b9Pd0Ws+Lm3N/=="));  // 21 and padding
  CHECK(fit("store.key!for#tests~1"));          // 21 of any visible ASCII
  CHECK(fit("store.key!for#tests~"));           // 20
  CHECK_FALSE(fit("store.key!for#tests"));      // 19
}

TEST_CASE("a short, empty, spaced or over-long key is refused with how to make one",
          "[store_key]") {
  for (const std::string& key : {std::string("ab"), std::string(), std::string(31, 'f') + " x",
                                 std::string(513, 'a'), std::string(32, 'a') + "\n"}) {
    auto problem = store_key_problem(key, "--store-key");
    REQUIRE(problem);
    CHECK(problem->rfind("--store-key must be a store key of at least 128 bits", 0) == 0);
    CHECK(problem->find("openssl rand -hex 16") != std::string::npos);
  }
}

TEST_CASE("a key file is read without its trailing newline; its mode is reported", "[store_key]") {
  temp_dir dir;
  const std::string path = dir.file("key");
  std::ofstream(path) << "0123456789abcdef0123456789abcdef\n";
  ::chmod(path.c_str(), 0600);
  auto read = read_store_key_file(path);
  REQUIRE(read);
  CHECK(read->key == "0123456789abcdef0123456789abcdef");
  CHECK_FALSE(read->others_may_read);
  ::chmod(path.c_str(), 0644);
  CHECK(read_store_key_file(path)->others_may_read);
}

TEST_CASE("a missing, weak or oversized key file is an error naming the file", "[store_key]") {
  temp_dir dir;
  auto missing = read_store_key_file(dir.file("none"));
  REQUIRE_FALSE(missing);
  CHECK(missing.err().code == 2);
  CHECK(missing.err().message.find("none: cannot read it") != std::string::npos);
  const std::string weak = dir.file("weak");
  std::ofstream(weak) << "abc\n";
  auto short_key = read_store_key_file(weak);
  REQUIRE_FALSE(short_key);
  CHECK(short_key.err().message.rfind("the key in --store-key-file " + weak + " must be", 0) == 0);
  const std::string big = dir.file("big");
  std::ofstream(big) << std::string(5000, 'a');
  REQUIRE_FALSE(read_store_key_file(big));
}
