// Request framing (front/http/framing/): where a head ends, which heads pass and what
// status the others get, and chunked bodies decoded as their bytes arrive.
#include <catch2/catch.hpp>

#include <optional>
#include <string>
#include <string_view>

#include "front/http/framing/chunked_decoder.hpp"
#include "front/http/framing/reason_phrase.hpp"
#include "front/http/framing/request_framing.hpp"

namespace {

using lq::front::chunked_decoder;
using lq::front::find_head_end;
using lq::front::framing_limits;
using lq::front::parse_request_head;
using lq::front::reason_phrase_of;
using lq::front::request_head;

const framing_limits kLimits;

// The status a head is refused with, 0 when it passes.
int status_of(std::string_view head, const framing_limits& limits = kLimits) {
  auto parsed = parse_request_head(head, limits);
  return parsed ? 0 : parsed.err().code;
}

request_head passed(std::string_view head) {
  auto parsed = parse_request_head(head, kLimits);
  INFO((parsed ? std::string() : parsed.err().message));
  REQUIRE(parsed);
  return *parsed;
}

// Feeds `body` to a decoder in pieces of `step` bytes, as a socket would deliver them; the
// decoder's verdict once the last piece is in: true (complete) or an error's status as a string.
std::string decode(std::string_view body, size_t step, std::string& out,
                   const framing_limits& limits = kLimits) {
  chunked_decoder decoder(limits);
  std::string received;
  size_t consumed = 0;
  for (size_t at = 0; at < body.size(); at += step) {
    received.append(body.substr(at, step));
    auto fed = decoder.feed(received, consumed);
    if (!fed) return std::to_string(fed.err().code);
    if (*fed) {
      out = decoder.body();
      return "complete";
    }
  }
  return "incomplete";
}

}  // namespace

TEST_CASE("a head is not found until its empty line has arrived", "[request_framing]") {
  const std::string head = "POST /api/baskets HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\n";
  for (size_t cut = 0; cut < head.size(); ++cut) {
    auto end = find_head_end(std::string_view(head).substr(0, cut), kLimits);
    REQUIRE(end);
    CHECK_FALSE(end->has_value());
  }
  auto end = find_head_end(head + "{}", kLimits);
  REQUIRE(end);
  CHECK(end->value() == head.size());
}

TEST_CASE("a head that ends with bare line feeds is found too", "[request_framing]") {
  const std::string head = "GET / HTTP/1.1\nHost: x\n\n";
  auto end = find_head_end(head, kLimits);
  REQUIRE(end);
  CHECK(end->value() == head.size());
}

TEST_CASE("a request line longer than the limit is 414 before its end arrives",
          "[request_framing]") {
  framing_limits limits;
  limits.max_request_line_bytes = 32;
  auto end = find_head_end("GET /" + std::string(40, 'a'), limits);
  REQUIRE_FALSE(end);
  CHECK(end.err().code == 414);
}

TEST_CASE("a head that grows past the head limit without ending is 431", "[request_framing]") {
  framing_limits limits;
  limits.max_head_bytes = 256;
  std::string head = "GET / HTTP/1.1\r\n";
  while (head.size() <= 256) head += "X-Filler: 0123456789\r\n";
  auto end = find_head_end(head, limits);
  REQUIRE_FALSE(end);
  CHECK(end.err().code == 431);
}

TEST_CASE("a valid head passes with its framing headers taken out of the canonical head",
          "[request_framing]") {
  const request_head head = passed(
      "POST /api/qualify?x=1 HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length:  12 \r\n"
      "Content-Encoding: identity\r\nExpect: 100-continue\r\nX-Trace:\t a b \r\n\r\n");
  CHECK(head.method == "POST");
  CHECK(head.target == "/api/qualify?x=1");
  CHECK_FALSE(head.http10);
  CHECK_FALSE(head.chunked);
  CHECK(head.content_length == 12);
  CHECK(head.expects_continue);
  CHECK(head.canonical_head == "POST /api/qualify?x=1 HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Trace: a b");
}

TEST_CASE("a repeated Content-Length of one value is that value", "[request_framing]") {
  CHECK(passed("POST / HTTP/1.1\r\nContent-Length: 5, 5\r\n\r\n").content_length == 5);
  CHECK(
      passed("POST / HTTP/1.1\r\nContent-Length: 5\r\nContent-Length: 5\r\n\r\n").content_length ==
      5);
}

TEST_CASE("conflicting or non-numeric Content-Length is 400", "[request_framing]") {
  CHECK(status_of("POST / HTTP/1.1\r\nContent-Length: 5, 6\r\n\r\n") == 400);
  CHECK(status_of("POST / HTTP/1.1\r\nContent-Length: 5\r\nContent-Length: 6\r\n\r\n") == 400);
  CHECK(status_of("POST / HTTP/1.1\r\nContent-Length: -1\r\n\r\n") == 400);
  CHECK(status_of("POST / HTTP/1.1\r\nContent-Length: 0x10\r\n\r\n") == 400);
  CHECK(status_of("POST / HTTP/1.1\r\nContent-Length: 1234567890123456\r\n\r\n") == 400);
}

TEST_CASE("Content-Length together with chunked is 400", "[request_framing]") {
  CHECK(status_of("POST / HTTP/1.1\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n") ==
        400);
}

TEST_CASE("a transfer coding other than one chunked is 400", "[request_framing]") {
  CHECK(passed("POST / HTTP/1.1\r\nTransfer-Encoding: Chunked\r\n\r\n").chunked);
  CHECK(status_of("POST / HTTP/1.1\r\nTransfer-Encoding: gzip\r\n\r\n") == 400);
  CHECK(status_of("POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n"
                  "Transfer-Encoding: chunked\r\n\r\n") == 400);
  CHECK(status_of("POST / HTTP/1.0\r\nTransfer-Encoding: chunked\r\n\r\n") == 400);
}

TEST_CASE("a compressed body is 415", "[request_framing]") {
  CHECK(status_of("POST / HTTP/1.1\r\nContent-Encoding: gzip\r\n\r\n") == 415);
}

TEST_CASE("a declared body larger than the limit is 413", "[request_framing]") {
  framing_limits limits;
  limits.max_body_bytes = 100;
  CHECK(status_of("POST / HTTP/1.1\r\nContent-Length: 100\r\n\r\n", limits) == 0);
  CHECK(status_of("POST / HTTP/1.1\r\nContent-Length: 101\r\n\r\n", limits) == 413);
}

TEST_CASE("more header fields than the limit is 431", "[request_framing]") {
  framing_limits limits;
  limits.max_header_count = 3;
  std::string head = "GET / HTTP/1.1\r\n";
  for (int i = 0; i < 3; ++i) head += "X-" + std::to_string(i) + ": v\r\n";
  CHECK(status_of(head + "\r\n", limits) == 0);
  CHECK(status_of(head + "X-3: v\r\n\r\n", limits) == 431);
}

TEST_CASE("a malformed request line or header line is 400", "[request_framing]") {
  CHECK(status_of("GET /\r\n\r\n") == 400);
  CHECK(status_of("GET / HTTP/2.0\r\n\r\n") == 400);
  CHECK(status_of("G(T / HTTP/1.1\r\n\r\n") == 400);
  CHECK(status_of("GET /a\x01 HTTP/1.1\r\n\r\n") == 400);
  CHECK(status_of("GET / HTTP/1.1\r\nHost : x\r\n\r\n") == 400);  // space before the colon
  CHECK(status_of("GET / HTTP/1.1\r\nHost: x\r\n folded\r\n\r\n") == 400);
  CHECK(status_of("GET / HTTP/1.1\r\nNo colon here\r\n\r\n") == 400);
  CHECK(status_of("GET / HTTP/1.1\r\nHost: x\ry\r\n\r\n") == 400);  // a bare carriage return
  CHECK(status_of("GET / HTTP/1.1\r\nX-A: a\x7f\r\n\r\n") == 400);
}

TEST_CASE("an HTTP/1.0 request passes and says so", "[request_framing]") {
  CHECK(passed("GET / HTTP/1.0\r\n\r\n").http10);
}

TEST_CASE("a chunked body decodes the same however its bytes are split", "[request_framing]") {
  const std::string body = "4;ext=1\r\n{\"a\"\r\n9\r\n:[1,2,3]}\n0\r\nX-Trailer: t\r\n\r\n";
  for (size_t step : {size_t{1}, size_t{2}, size_t{7}, body.size()}) {
    std::string out;
    INFO("pieces of " << step);
    CHECK(decode(body, step, out) == "complete");
    CHECK(out == "{\"a\":[1,2,3]}");
  }
}

TEST_CASE("a chunked body stays incomplete until its last chunk and empty trailer",
          "[request_framing]") {
  std::string out;
  CHECK(decode("3\r\nabc\r\n", 1, out) == "incomplete");
  CHECK(decode("3\r\nabc\r\n0\r\n", 1, out) == "incomplete");
}

TEST_CASE("a chunked body larger than the limit is 413 before its data arrives",
          "[request_framing]") {
  framing_limits limits;
  limits.max_body_bytes = 8;
  std::string out;
  CHECK(decode("8\r\n12345678\r\n0\r\n\r\n", 3, out, limits) == "complete");
  CHECK(decode("5\r\n12345\r\n4\r\n", 1, out, limits) == "413");
  CHECK(decode("FFFFFFFF\r\n", 1, out, limits) == "413");
}

TEST_CASE("a chunk that breaks its framing is 400", "[request_framing]") {
  std::string out;
  CHECK(decode("3\r\nabcd\r\n0\r\n\r\n", 1, out) == "400");  // longer than its size
  CHECK(decode("3\r\nabc\rx0\r\n\r\n", 1, out) == "400");    // no CRLF after the data
  CHECK(decode("zz\r\nabc\r\n0\r\n\r\n", 1, out) == "400");  // size not hexadecimal
  CHECK(decode("123456789\r\n", 1, out) == "400");           // size over 8 digits
  CHECK(decode("0\r\nno colon\r\n\r\n", 1, out) == "400");   // trailer without colon
  CHECK(decode(std::string(1100, '0'), 100, out) == "400");  // endless size line
}

TEST_CASE("more chunked trailer fields than the header limit is 431", "[request_framing]") {
  framing_limits limits;
  limits.max_header_count = 2;
  std::string out;
  CHECK(decode("0\r\nA: 1\r\nB: 2\r\n\r\n", 1, out, limits) == "complete");
  CHECK(decode("0\r\nA: 1\r\nB: 2\r\nC: 3\r\n\r\n", 1, out, limits) == "431");
}

TEST_CASE("a refused request's status line carries its reason phrase", "[request_framing]") {
  CHECK(std::string(reason_phrase_of(408)) == "Request Timeout");
  CHECK(std::string(reason_phrase_of(413)) == "Payload Too Large");
  CHECK(std::string(reason_phrase_of(431)) == "Request Header Fields Too Large");
  CHECK(std::string(reason_phrase_of(507)) == "Insufficient Storage");
  CHECK(std::string(reason_phrase_of(299)) == "Error");
}
