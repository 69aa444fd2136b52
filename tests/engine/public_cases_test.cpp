// The conformance cases, run through the native engine exactly as every face must answer them.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "lq/qualifier.hpp"
#include "lq/time/instant.hpp"

namespace {

using nlohmann::json;

/// The shared conformance file when this checkout sits next to it, else the repo's copy.
std::string cases_path() {
  const std::string shared = LQ_SOURCE_DIR "/../shared/cases/public.json";
  if (std::ifstream(shared).good()) return shared;
  return LQ_SOURCE_DIR "/tests/engine/cases/public.json";
}

std::vector<std::string> ids_of(const json& list) {
  std::vector<std::string> ids;
  for (const auto& entity : list) ids.push_back(entity.at("id"));
  return ids;
}

}  // namespace

TEST_CASE("every public conformance case passes on the native engine") {
  const std::string path = cases_path();
  INFO("cases file " << path);
  std::ifstream in(path);
  REQUIRE(in.good());
  std::stringstream text;
  text << in.rdbuf();
  const json cases = json::parse(text.str());
  REQUIRE(cases.is_array());
  REQUIRE(cases.size() > 0);

  std::size_t run = 0;
  for (const auto& c : cases) {
    const std::string name = c.at("name");
    INFO("case: " << name);
    lq::qualifier q;
    const auto load_error = q.set_snapshot(c.at("snapshot").dump());
    INFO((load_error ? load_error->message : std::string()));
    REQUIRE_FALSE(load_error.has_value());
    const auto now = lq::parse_rfc3339(c.at("now").get<std::string>());
    REQUIRE(now.has_value());

    const json& expect = c.at("expect");
    const auto body = q.qualify_json(c.at("request").dump(), *now);
    if (expect.contains("error")) {
      REQUIRE_FALSE(body.ok());
      CHECK(body.err().code == expect.at("error").get<int>());
      CHECK_THAT(body.err().message, Catch::Contains(expect.at("contains").get<std::string>()));
    } else {
      INFO((body.ok() ? std::string() : body.err().message));
      REQUIRE(body.ok());
      const json out = json::parse(*body);
      CHECK(ids_of(out.at("rewards")) == expect.at("rewards").get<std::vector<std::string>>());
      CHECK(ids_of(out.at("points_products")) ==
            expect.at("points_products").get<std::vector<std::string>>());
    }
    ++run;
  }
  REQUIRE(run == cases.size());
}
