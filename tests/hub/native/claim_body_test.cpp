// The hub's request bodies (hub/domain/claim_body.*): what a claim, spend and release read, and
// the 400 that names the field of a bad one.
#include <catch2/catch.hpp>

#include <string>

#include "hub/domain/claim_body.hpp"

namespace {

using namespace lq::hub;

std::string error_of(const std::string& body) {
  auto read = read_claim_body(body);
  REQUIRE_FALSE(read);
  CHECK(read.err().code == 400);
  return read.err().message;
}

constexpr const char* kIds =
    R"("merchant_id":"m_1","user_id":"u_1","basket_id":"b1","kiosk_id":"k1")";

}  // namespace

TEST_CASE("a reward claim and a points claim are read whole", "[claim_body]") {
  auto reward = read_claim_body(std::string("{") + kIds + R"(,"reward_id":"r_1","ttl_ms":5000})");
  REQUIRE(reward);
  CHECK(*reward->offer.reward_id == "r_1");
  CHECK(reward->ttl_ms == 5000);
  auto points =
      read_claim_body(std::string("{") + kIds +
                      R"(,"points_product_id":"pp","points":200,"points_experience_id":"pe_1",)"
                      R"("balance":450,"balance_as_of":"2026-11-24T13:15:00.250Z","extra":[1]})");
  REQUIRE(points);
  CHECK(points->offer.points == 200);
  CHECK(points->balance->balance == 450);
  CHECK(points->balance->as_of_ms == 1795526100250);
}

TEST_CASE("a bad claim body is a 400 naming the field", "[claim_body]") {
  CHECK(error_of("[]") == "request body must be a JSON object");
  CHECK(error_of("{\"merchant_id\":").rfind("request body is not valid JSON", 0) == 0);
  CHECK(error_of(R"({"merchant_id":"m_1"})") == "user_id is required");
  CHECK(error_of(std::string("{") + kIds + "}") == "reward_id or points_product_id is required");
  CHECK(error_of(std::string("{") + kIds + R"(,"reward_id":"r","points_product_id":"p"})")
            .find("give one") != std::string::npos);
  CHECK(error_of(std::string("{") + kIds + R"(,"reward_id":5})") == "reward_id must be a string");
  CHECK(error_of(std::string("{") + kIds + R"(,"reward_id":""})")
            .rfind("reward_id must be a non-empty string", 0) == 0);
  CHECK(error_of(
            std::string("{") + kIds +
            R"(,"points_product_id":"p","points":200,"points_experience_id":"pe","balance":1})") ==
        "balance_as_of is required with points_product_id");
  CHECK(error_of(std::string("{") + kIds + R"(,"points_product_id":"p","points":-1})") ==
        "points must be an integer from 0 to 2^53");
  CHECK(error_of(std::string("{") + kIds + R"(,"reward_id":"r","ttl_ms":0})")
            .rfind("ttl_ms must be an integer from 1", 0) == 0);
  CHECK(error_of(std::string("{") + kIds + R"(,"reward_id":"r","balance":5})")
            .find("belong to a points product") != std::string::npos);
}

TEST_CASE("a settle body names its basket; billed_at only for a spend", "[claim_body]") {
  auto spend = read_settle_body(
      R"({"merchant_id":"m_1","user_id":"u_1","basket_id":"b1","billed_at":"2026-11-24T13:15:00Z"})",
      true);
  REQUIRE(spend);
  CHECK(spend->billed_at_ms == 1795526100000);
  auto release = read_settle_body(
      R"({"merchant_id":"m_1","user_id":"u_1","basket_id":"b1","billed_at":"2026-11-24T13:15:00Z"})",
      false);
  REQUIRE_FALSE(release);
  CHECK(release.err().message == "billed_at belongs to a spend, not to a release");
  CHECK(read_settle_body(R"({"merchant_id":"m_1","user_id":"u_1"})", true).err().message ==
        "basket_id is required");
}
