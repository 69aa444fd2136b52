// The brake on failed keys (front/http/failure_brake.*): a client past its failures per second
// is told to wait (429, Retry-After) and stays braked while it keeps failing; other clients are
// not; the table of clients stays within its bound.
#include <catch2/catch.hpp>

#include <string>

#include "front/http/failure_brake.hpp"

namespace {

using lq::front::failure_brake;

}  // namespace

TEST_CASE("the 11th failure within a second is braked for 1 s", "[failure_brake]") {
  failure_brake brake;
  for (int i = 0; i < 10; ++i) CHECK_FALSE(brake.fail("10.0.0.1", 1000 + i));
  const auto wait = brake.fail("10.0.0.1", 1010);
  REQUIRE(wait);
  CHECK(*wait == 1);
  // Another client is not braked by it.
  CHECK_FALSE(brake.fail("10.0.0.2", 1011));
}

TEST_CASE("a client that keeps failing stays braked; one that waits starts afresh",
          "[failure_brake]") {
  failure_brake brake;
  for (int i = 0; i < 11; ++i) brake.fail("c", 0);
  // Failing again every 500 ms keeps the brake on, past the first window.
  for (int64_t t = 500; t <= 5000; t += 500) CHECK(brake.fail("c", t));
  // A full second without a failure: a fresh window of 10.
  for (int i = 0; i < 10; ++i) CHECK_FALSE(brake.fail("c", 6001 + i));
  CHECK(brake.fail("c", 6011));
}

TEST_CASE("failures spread over seconds are never braked", "[failure_brake]") {
  failure_brake brake;
  for (int64_t second = 0; second < 20; ++second) {
    for (int i = 0; i < 10; ++i) CHECK_FALSE(brake.fail("steady", second * 1000 + i * 90));
  }
}

TEST_CASE("the table keeps at most max_clients; a braked client is kept over idle ones",
          "[failure_brake]") {
  failure_brake brake({10, 1000, 8});
  for (int i = 0; i < 11; ++i) brake.fail("braked", 0);
  for (int i = 0; i < 100; ++i) {
    brake.fail("client-" + std::to_string(i), 10 + i);
    CHECK(brake.clients() <= 8);
    brake.fail("braked", 10 + i);  // still failing: the most recent, never the one evicted
  }
  CHECK(brake.fail("braked", 200));
  // Once everyone's second is over, new clients take the room of the old.
  for (int i = 0; i < 8; ++i) CHECK_FALSE(brake.fail("late-" + std::to_string(i), 10'000));
  CHECK(brake.clients() <= 8);
}
