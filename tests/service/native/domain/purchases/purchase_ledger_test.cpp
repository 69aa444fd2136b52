// The purchase ledger (service/domain/purchase_ledger.*): one record per purchase, points at the
// merchant's rate, and nothing written when they are out of range.
#include <catch2/catch.hpp>

#include <string>

#include "../../temp_dir.hpp"
#include "domain/purchases/purchase_ledger.hpp"
#include "store/store.hpp"

namespace {

using namespace lq::service;
using lq::decimal;
using lq::service::testing::temp_dir;

const merchant_row kMerchant{"m_1", "key-1", "UTC", "1.5", "pe_1"};

purchase_entry entry_of(const char* amount) {
  purchase_entry entry;
  entry.source = "sandbox";
  entry.user_id = "u_1";
  entry.amount = *decimal::parse(amount);
  entry.purchased_at = "2026-01-01T10:00:00Z";
  entry.location_id = "loc_1";
  entry.amount_field = "purchase.amount";
  entry.unrepresentable_message = "purchase.amount is out of range";
  return entry;
}

}  // namespace

TEST_CASE("a recorded purchase accrues the floor of amount times the rate, due after the delay",
          "[purchase_ledger]") {
  temp_dir dir;
  store db(dir.file("service.db"));
  REQUIRE(db.insert_merchant(kMerchant));
  REQUIRE(db.insert_user({"u_1", "m_1", "token-1"}));
  auto id = record_purchase(db, kMerchant, entry_of("10.99"), 60000);
  REQUIRE(id);
  CHECK(db.committed_and_pending_points("u_1", "pe_1") == 16);
  auto due = db.due_purchases(INT64_MAX);
  REQUIRE(due.size() == 1);
  CHECK(due[0].id == *id);
  CHECK(due[0].source == "sandbox");
  CHECK(due[0].amount == "10.99");
  CHECK(due[0].location_id == std::optional<std::string>("loc_1"));
  CHECK_FALSE(due[0].basket_id);
  CHECK(due[0].due_at - due[0].received_at == 60000);
}

TEST_CASE("a purchase whose points would pass the balance's bound is 400 and not recorded",
          "[purchase_ledger]") {
  temp_dir dir;
  store db(dir.file("service.db"));
  REQUIRE(db.insert_merchant(kMerchant));
  REQUIRE(db.insert_user({"u_1", "m_1", "token-1"}));
  REQUIRE(db.insert_points_balance("u_1", {"pe_1", 999'999'999'999'990}));
  auto refused = record_purchase(db, kMerchant, entry_of("10"), 0);
  REQUIRE_FALSE(refused);
  CHECK(refused.err().code == 400);
  CHECK(refused.err().message.rfind("purchase.amount is out of range: ", 0) == 0);
  CHECK(db.due_purchases(INT64_MAX).empty());
  CHECK(record_purchase(db, kMerchant, entry_of("6"), 0));
}
