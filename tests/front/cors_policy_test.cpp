// The origins an operator lets call a server from a page (front/http/cors_policy.*): exact
// origins in the form a browser sends, never `*`; the grant names only what the APIs use.
#include <catch2/catch.hpp>

#include <string>

#include "front/http/cors_policy.hpp"

namespace {

using lq::front::canonical_cors_origin;
using lq::front::cors_policy;

std::string canonical(const std::string& text) {
  auto origin = canonical_cors_origin(text);
  return origin ? *origin : "error: " + origin.err().message;
}

std::string header_value(const std::vector<lq::front::header_field>& headers,
                         const std::string& name) {
  for (const auto& [key, value] : headers) {
    if (key == name) return value;
  }
  return "(none)";
}

}  // namespace

TEST_CASE("an origin is kept as a browser sends it in Origin", "[cors]") {
  CHECK(canonical("http://localhost:5173") == "http://localhost:5173");
  CHECK(canonical("HTTP://LocalHost:5173/") == "http://localhost:5173");
  CHECK(canonical("https://shop.example:443") == "https://shop.example");
  CHECK(canonical("http://127.0.0.1:80") == "http://127.0.0.1");
  CHECK(canonical("http://[::1]:8080") == "http://[::1]:8080");
  CHECK(canonical("https://shop.example:8443") == "https://shop.example:8443");
}

TEST_CASE("* is refused outright, saying why and what to give instead", "[cors]") {
  auto star = canonical_cors_origin("*");
  REQUIRE_FALSE(star);
  CHECK(star.err().code == 2);
  CHECK(star.err().message.find("--cors-origin * is refused") == 0);
  CHECK(star.err().message.find("--cors-origin http://localhost:5173") != std::string::npos);
}

TEST_CASE("anything but scheme://host[:port] is a usage error naming the option", "[cors]") {
  for (const char* text : {"null", "localhost:5173", "ftp://x.example", "http://", "http://a/b",
                           "http://a?x", "http://u@a", "http://a:", "http://a:99999",
                           "http://a:5173/x", "http://[zz]", "http://exämple", " http://a"}) {
    auto origin = canonical_cors_origin(text);
    INFO(text);
    REQUIRE_FALSE(origin);
    CHECK(origin.err().code == 2);
    CHECK(origin.err().message.find("--cors-origin must be an origin") == 0);
  }
}

TEST_CASE("a policy allows exactly the origins listed, each once", "[cors]") {
  cors_policy policy;
  CHECK(policy.empty());
  REQUIRE(policy.allow("http://localhost:5173/"));
  REQUIRE(policy.allow("http://LOCALHOST:5173"));
  REQUIRE(policy.allow("https://shop.example"));
  CHECK(policy.origins().size() == 2);
  CHECK(policy.allows("http://localhost:5173"));
  CHECK(policy.allows("https://shop.example"));
  CHECK_FALSE(policy.allows("http://localhost:5174"));
  CHECK_FALSE(policy.allows("http://localhost:5173/"));
  CHECK_FALSE(policy.allows("null"));
  CHECK_FALSE(policy.allow("*"));
}

TEST_CASE("the grant names the API's methods and headers, and what a page may read", "[cors]") {
  const auto preflight = lq::front::preflight_headers("http://localhost:5173", false);
  CHECK(header_value(preflight, "Access-Control-Allow-Origin") == "http://localhost:5173");
  CHECK(header_value(preflight, "Access-Control-Allow-Methods") == "GET, POST");
  for (const char* name : {"Authorization", "Merchant-Key", "Accept", "Content-Type",
                           "If-None-Match", "Store-Key", "Accept-Version", "X-ClientId"}) {
    CHECK(header_value(preflight, "Access-Control-Allow-Headers").find(name) != std::string::npos);
  }
  CHECK(header_value(preflight, "Access-Control-Allow-Private-Network") == "(none)");
  CHECK(header_value(preflight, "Access-Control-Allow-Credentials") == "(none)");
  CHECK(header_value(lq::front::preflight_headers("http://a", true),
                     "Access-Control-Allow-Private-Network") == "true");
  const auto answer = lq::front::allowed_origin_headers("http://localhost:5173");
  CHECK(header_value(answer, "Access-Control-Allow-Origin") == "http://localhost:5173");
  CHECK(header_value(answer, "Access-Control-Expose-Headers") == "Date, ETag, Retry-After");
}
