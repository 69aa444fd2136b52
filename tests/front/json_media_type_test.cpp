// The media type a body must declare (front/http/json_media_type.*): application/json, once,
// UTF-8 if a charset is named; anything a page of another site may send without a preflight
// (text/plain, a form) is 415.
#include <catch2/catch.hpp>

#include <string_view>
#include <vector>

#include "front/http/json_media_type.hpp"

namespace {

using lq::front::json_body_problem;

int status_of(std::vector<std::string_view> content_types) {
  auto problem = json_body_problem(content_types);
  return problem ? problem->code : 0;
}

}  // namespace

TEST_CASE("application/json passes, in any case, with or without charset=utf-8", "[media_type]") {
  CHECK(status_of({"application/json"}) == 0);
  CHECK(status_of({"Application/JSON"}) == 0);
  CHECK(status_of({"application/json; charset=utf-8"}) == 0);
  CHECK(status_of({"application/json;charset=\"UTF-8\""}) == 0);
  CHECK(status_of({" application/json ; foo=bar"}) == 0);
}

TEST_CASE("what a page of another site sends without a preflight is 415", "[media_type]") {
  CHECK(status_of({"text/plain"}) == 415);
  CHECK(status_of({"text/plain;charset=UTF-8"}) == 415);
  CHECK(status_of({"application/x-www-form-urlencoded"}) == 415);
  CHECK(status_of({"multipart/form-data; boundary=x"}) == 415);
  CHECK(json_body_problem({"text/plain"})->message ==
        "the request body must be application/json (UTF-8), not text/plain");
}

TEST_CASE("no Content-Type, two of them, another charset or a lookalike is 415", "[media_type]") {
  CHECK(status_of({}) == 415);
  CHECK(status_of({"application/json", "application/json"}) == 415);
  CHECK(status_of({"application/json; charset=latin1"}) == 415);
  CHECK(status_of({"application/jsonx"}) == 415);
  CHECK(status_of({"application/json-patch+json"}) == 415);
  CHECK(status_of({""}) == 415);
}
