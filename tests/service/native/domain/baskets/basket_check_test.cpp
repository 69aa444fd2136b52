// What the service checks before it stores or bills a basket (service/domain/basket_check.*,
// open_baskets.*): a declared subtotal never above the total of the basket's priced items, as the
// engine sums them, and the size bound of a basket body.
#include <catch2/catch.hpp>

#include <optional>
#include <string>

#include "domain/baskets/basket_check.hpp"
#include "domain/baskets/open_baskets.hpp"
#include "lq/qualifier.hpp"
#include "lq/request.hpp"
#include "lq/request_reader.hpp"
#include "lq/time/instant.hpp"

namespace {

using namespace lq;
using namespace lq::service;

// A snapshot with one "$5 off $15" reward.
constexpr const char* kSnapshot = R"({"schema_version":1,"merchant":{"id":"m_1"},
  "user":{"id":"u_1"},"points":[],"points_products":[],
  "rewards":[{"id":"rw_5off","type":"amount","value":"5.00","minimum":"15.00"}]})";

// check_declared_subtotal on `body`, as the service runs it: nullopt when it passes.
std::optional<error> subtotal_problem(const std::string& body) {
  qualifier engine;
  REQUIRE_FALSE(engine.set_snapshot(kSnapshot));
  result<basket_request> request = parse_request(body);
  REQUIRE(request);
  result<basket_check> check = check_basket(engine, *request, instant{1'800'000'000, 0},
                                            offer_ref{offer_kind::reward, "rw_5off"});
  REQUIRE(check);
  return check_declared_subtotal(*request, *check);
}

}  // namespace

TEST_CASE("a subtotal above the priced items is refused, naming subtotal", "[basket_check]") {
  // The $2 drip declared as $15: the engine would give $5 off on the declared figure.
  const std::optional<error> inflated =
      subtotal_problem(R"({"subtotal":"15.00","items":[{"id":"drip","price":"2.00"}]})");
  REQUIRE(inflated);
  CHECK(inflated->code == 400);
  CHECK(inflated->message.rfind("subtotal 15.00 is above the total of the basket's items, 2.00 (",
                                0) == 0);
  // One cent over the items' total is over.
  CHECK(subtotal_problem(R"({"subtotal":"2.01","items":[{"id":"drip","price":"2.00"}]})"));
  // No items at all: nothing vouches for the figure.
  CHECK(subtotal_problem(R"({"subtotal":"5.00","items":[]})"));
}

TEST_CASE("the items' total is the engine's: unit price plus modifiers, times quantity",
          "[basket_check]") {
  // (5.25 + 0.75) x 2 + 3.25 = 15.25.
  const std::string items = R"("items":[{"id":"latte","price":"5.25","quantity":2,
      "modifiers":[{"id":"oat","price":"0.75"}]},{"id":"croissant","price":"3.25"}])";
  CHECK_FALSE(subtotal_problem("{\"subtotal\":\"15.25\"," + items + "}"));
  CHECK_FALSE(subtotal_problem("{\"subtotal\":15.250," + items + "}"));
  CHECK_FALSE(subtotal_problem("{\"subtotal\":\"9.99\"," + items + "}"));  // a till's discount
  CHECK_FALSE(subtotal_problem("{" + items + "}"));                        // no subtotal
  const std::optional<error> over = subtotal_problem("{\"subtotal\":\"15.26\"," + items + "}");
  REQUIRE(over);
  CHECK(over->message.rfind("subtotal 15.26 is above the total of the basket's items, 15.25 (",
                            0) == 0);
}

TEST_CASE("an item without a price counts 0: it cannot vouch for a subtotal", "[basket_check]") {
  CHECK(subtotal_problem(R"({"subtotal":"5.00","items":[{"id":"latte"}]})"));
  CHECK(subtotal_problem(R"({"subtotal":"5.00","items":[{"id":"latte"},
      {"id":"drip","price":"2.00"}]})"));
  CHECK_FALSE(subtotal_problem(R"({"subtotal":"2.00","items":[{"id":"latte"},
      {"id":"drip","price":"2.00"}]})"));
  CHECK_FALSE(subtotal_problem(R"({"subtotal":"0","items":[{"id":"latte"}]})"));
}

TEST_CASE("a basket body may take 64 KiB", "[open_baskets]") {
  CHECK_FALSE(check_basket_body_size(std::string(65536, ' ')));
  const std::optional<error> over = check_basket_body_size(std::string(65537, ' '));
  REQUIRE(over);
  CHECK(over->code == 413);
  CHECK(over->message ==
        "a basket body may take at most 64 KiB (65536 bytes); this one has 65537 bytes");
}
