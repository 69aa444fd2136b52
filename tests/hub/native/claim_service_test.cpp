// The claim service (hub/domain/claim_service.*) over a real SQLite file: what it acknowledges is
// committed (a reopened file has it), concurrent claims of one reward get exactly one grant, and
// its clock decides expiry.
#include <catch2/catch.hpp>

#include <atomic>
#include <string>
#include <thread>
#include <vector>

#include "../../service/native/temp_dir.hpp"
#include "hub/domain/claim_service.hpp"
#include "hub/store/claim_store.hpp"
#include "hub/store/hub_schema.hpp"

namespace {

using namespace lq::hub;
using lq::front::database;
using lq::service::testing::temp_dir;

constexpr int64_t kTtl = 60'000;

struct hub_files {
  explicit hub_files(const std::string& path) : writer(path), reader(path) {}
  database writer;
  database reader;
};

claim_request reward_claim(const std::string& basket, const std::string& kiosk = "kiosk-1") {
  claim_request r;
  r.basket = {"m_1", "u_1", basket};
  r.kiosk_id = kiosk;
  r.offer.reward_id = "r_latte";
  return r;
}

}  // namespace

TEST_CASE("an acknowledged claim is in the file when it is opened again", "[claim_service]") {
  temp_dir dir;
  const std::string path = dir.file("hub.db");
  std::atomic<int64_t> now{1'000'000};
  {
    hub_files files(path);
    CHECK(migrate_hub(files.writer) == 0);
    claim_service claims(files.writer, files.reader, kTtl, [&] { return now.load(); });
    CHECK(claims.claim(reward_claim("b1")).what == claim_decision::outcome::granted);
    REQUIRE(claims.settle({"m_1", "u_1", "b1"}, settlement::spend, std::nullopt));
  }
  hub_files files(path);
  CHECK(migrate_hub(files.writer) == kHubSchemaVersion);
  claim_service claims(files.writer, files.reader, kTtl, [&] { return now.load(); });
  const guest_claims view = claims.guest({"m_1", "u_1"});
  REQUIRE(view.claims.size() == 1);
  CHECK(view.claims[0].state == claim_state::spent);
  CHECK(claims.claim(reward_claim("b2")).reason == refusal_reason::claimed_elsewhere);
}

TEST_CASE("64 threads claiming one reward at once: exactly one grant", "[claim_service]") {
  temp_dir dir;
  hub_files files(dir.file("hub.db"));
  migrate_hub(files.writer);
  claim_service claims(files.writer, files.reader, kTtl);
  std::atomic<int> grants{0};
  std::atomic<int> refusals{0};
  std::vector<std::thread> kiosks;
  for (int i = 0; i < 64; ++i) {
    kiosks.emplace_back([&, i] {
      const claim_decision d = claims.claim(reward_claim("b" + std::to_string(i)));
      (d.what == claim_decision::outcome::granted ? grants : refusals) += 1;
    });
  }
  for (std::thread& kiosk : kiosks) kiosk.join();
  CHECK(grants == 1);
  CHECK(refusals == 63);
  CHECK(claims.guest({"m_1", "u_1"}).claims.size() == 1);
}

TEST_CASE("the clock expires a claim; a retry answers it expired, another basket gets the reward",
          "[claim_service]") {
  temp_dir dir;
  hub_files files(dir.file("hub.db"));
  migrate_hub(files.writer);
  std::atomic<int64_t> now{1'000'000};
  claim_service claims(files.writer, files.reader, kTtl, [&] { return now.load(); });
  claim_request first = reward_claim("b1");
  first.ttl_ms = 500;
  CHECK(claims.claim(first).what == claim_decision::outcome::granted);
  CHECK(claims.claim(reward_claim("b2")).reason == refusal_reason::claimed_elsewhere);
  now += 500;
  const claim_decision retry = claims.claim(first);
  CHECK(retry.what == claim_decision::outcome::repeated);
  CHECK(retry.answer->state_at(now) == claim_state::expired);
  CHECK(claims.guest({"m_1", "u_1"}).claims.empty());
  CHECK(claims.claim(reward_claim("b2")).what == claim_decision::outcome::granted);
}

TEST_CASE("points held against the newest balance any kiosk reported", "[claim_service]") {
  temp_dir dir;
  hub_files files(dir.file("hub.db"));
  migrate_hub(files.writer);
  claim_service claims(files.writer, files.reader, kTtl, [] { return int64_t{5'000'000}; });
  auto points = [](const std::string& basket, int64_t balance, int64_t as_of) {
    claim_request r;
    r.basket = {"m_1", "u_1", basket};
    r.kiosk_id = "kiosk-2";
    r.offer.points_product_id = "pp_two_off";
    r.offer.points = 200;
    r.offer.points_experience_id = "pe_1";
    r.balance = balance_report{balance, as_of};
    return r;
  };
  CHECK(claims.claim(points("b1", 450, 1000)).what == claim_decision::outcome::granted);
  // A kiosk with an older snapshot (a higher balance) does not raise what the hub counts on.
  CHECK(claims.claim(points("b2", 900, 500)).what == claim_decision::outcome::granted);
  const claim_decision third = claims.claim(points("b3", 900, 500));
  CHECK(third.reason == refusal_reason::insufficient_points);
  CHECK(third.points_needed == 150);
  const guest_claims view = claims.guest({"m_1", "u_1"});
  REQUIRE(view.points.size() == 1);
  CHECK(view.points[0].newest.balance == 450);
  CHECK(view.points[0].held == 400);
  // Released points are free again.
  REQUIRE(claims.settle({"m_1", "u_1", "b1"}, settlement::release, std::nullopt));
  CHECK(claims.claim(points("b3", 900, 500)).what == claim_decision::outcome::granted);
}

TEST_CASE("a settle of a basket without a claim finds none", "[claim_service]") {
  temp_dir dir;
  hub_files files(dir.file("hub.db"));
  migrate_hub(files.writer);
  claim_service claims(files.writer, files.reader, kTtl);
  CHECK_FALSE(claims.settle({"m_1", "u_1", "nope"}, settlement::release, std::nullopt));
}

TEST_CASE(
    "a guest's claims are listed up to kMaxListedClaims, the most recent, and the list says it is "
    "cut; points count every claim",
    "[claim_service]") {
  temp_dir dir;
  hub_files files(dir.file("hub.db"));
  migrate_hub(files.writer);
  int64_t now = 1'000'000;
  claim_service claims(files.writer, files.reader, kTtl, [&] { return now; });
  claim_request points;
  points.basket = {"m_1", "u_1", "p-oldest"};
  points.kiosk_id = "kiosk-1";
  points.offer.points_product_id = "pp_1";
  points.offer.points = 10;
  points.offer.points_experience_id = "pe_1";
  points.balance = balance_report{1000, 0};
  REQUIRE(claims.claim(points).what == claim_decision::outcome::granted);
  for (size_t i = 0; i < kMaxListedClaims; ++i) {
    now += 1;
    claim_request r = reward_claim("b" + std::to_string(i));
    r.offer.reward_id = "r_" + std::to_string(i);
    REQUIRE(claims.claim(r).what == claim_decision::outcome::granted);
  }
  const guest_claims view = claims.guest({"m_1", "u_1"});
  CHECK(view.truncated);
  REQUIRE(view.claims.size() == kMaxListedClaims);
  CHECK(view.claims.front().basket.basket_id == "b0");
  CHECK(view.claims.back().basket.basket_id == "b" + std::to_string(kMaxListedClaims - 1));
  REQUIRE(view.points.size() == 1);
  CHECK(view.points[0].held == 10);  // the oldest claim, not listed, still holds its points
  now += 1;
  REQUIRE(claims.settle({"m_1", "u_1", "b0"}, settlement::release, std::nullopt));
  CHECK_FALSE(claims.guest({"m_1", "u_1"}).truncated);
}

TEST_CASE(
    "a guest with kMaxLiveClaimsPerGuest claims that hold gets TOO_MANY_CLAIMS; a retry of a "
    "stored claim and another guest are answered as always",
    "[claim_service]") {
  temp_dir dir;
  hub_files files(dir.file("hub.db"));
  migrate_hub(files.writer);
  int64_t now = 1'000'000;
  claim_service claims(files.writer, files.reader, kTtl, [&] { return now; });
  auto distinct = [](const std::string& user, int64_t i) {
    claim_request r = reward_claim("b" + std::to_string(i));
    r.basket.user_id = user;
    r.offer.reward_id = "r_" + std::to_string(i);
    return r;
  };
  for (int64_t i = 0; i < kMaxLiveClaimsPerGuest; ++i) {
    REQUIRE(claims.claim(distinct("u_1", i)).what == claim_decision::outcome::granted);
  }
  const claim_decision refused = claims.claim(distinct("u_1", kMaxLiveClaimsPerGuest));
  CHECK(refused.what == claim_decision::outcome::refused);
  REQUIRE(refused.reason == refusal_reason::too_many_claims);
  CHECK(std::string(code_of(*refused.reason)) == "TOO_MANY_CLAIMS");
  CHECK(claims.claim(distinct("u_1", 0)).what == claim_decision::outcome::repeated);
  CHECK(claims.claim(distinct("u_2", 0)).what == claim_decision::outcome::granted);
  // Released, a claim no longer holds: room for one more.
  REQUIRE(claims.settle({"m_1", "u_1", "b0"}, settlement::release, std::nullopt));
  CHECK(claims.claim(distinct("u_1", kMaxLiveClaimsPerGuest)).what ==
        claim_decision::outcome::granted);
  // Expired claims do not count either.
  now += kTtl;
  CHECK(claims.claim(distinct("u_1", kMaxLiveClaimsPerGuest + 1)).what ==
        claim_decision::outcome::granted);
}

TEST_CASE(
    "a guest's balances are kept for at most kMaxPointsExperiencesPerGuest experiences; the list "
    "of an older file with more is cut to the most recently reported and says so",
    "[claim_service]") {
  temp_dir dir;
  hub_files files(dir.file("hub.db"));
  migrate_hub(files.writer);
  int64_t now = 1'000'000;
  claim_service claims(files.writer, files.reader, kTtl, [&] { return now; });
  auto points = [](const std::string& basket, const std::string& experience) {
    claim_request r;
    r.basket = {"m_1", "u_1", basket};
    r.kiosk_id = "kiosk-1";
    r.offer.points_product_id = "pp_1";
    r.offer.points = 10;
    r.offer.points_experience_id = experience;
    r.balance = balance_report{0, 0};
    return r;
  };
  for (int64_t i = 0; i < kMaxPointsExperiencesPerGuest; ++i) {
    now += 1;
    CHECK(claims.claim(points("b" + std::to_string(i), "pe_" + std::to_string(i))).reason ==
          refusal_reason::insufficient_points);
  }
  CHECK(claims.claim(points("beyond", "pe_beyond")).reason == refusal_reason::too_many_experiences);
  guest_claims view = claims.guest({"m_1", "u_1"});
  CHECK(view.points.size() == static_cast<size_t>(kMaxPointsExperiencesPerGuest));
  CHECK_FALSE(view.truncated);
  for (const points_position& p : view.points) CHECK(p.points_experience_id != "pe_beyond");

  // A file an earlier hub wrote may hold more: the least recently reported is left out.
  claim_store(files.writer).put_balance({"m_1", "u_1"}, "pe_legacy", {0, 0}, now + 1);
  view = claims.guest({"m_1", "u_1"});
  CHECK(view.truncated);
  REQUIRE(view.points.size() == static_cast<size_t>(kMaxPointsExperiencesPerGuest));
  CHECK(view.points.front().points_experience_id == "pe_1");  // pe_0, reported first, is cut
  CHECK(view.points.back().points_experience_id == "pe_legacy");
}

TEST_CASE(
    "a points claim keeps the balance it was granted against: its spend billed before it is "
    "invalid, also after reopening; a claim of a schema 1 file has no floor",
    "[claim_service]") {
  temp_dir dir;
  const std::string path = dir.file("hub.db");
  int64_t now = 1'000'000;
  claim_request points;
  points.basket = {"m_1", "u_1", "p1"};
  points.kiosk_id = "kiosk-1";
  points.offer.points_product_id = "pp_1";
  points.offer.points = 300;
  points.offer.points_experience_id = "pe_1";
  points.balance = balance_report{450, 900'000};
  {
    hub_files files(path);
    migrate_hub(files.writer);
    claim_service claims(files.writer, files.reader, kTtl, [&] { return now; });
    REQUIRE(claims.claim(points).what == claim_decision::outcome::granted);
    // The file as schema 1 wrote it: no balance_as_of column; a claim stored then.
    files.writer.exec(
        "ALTER TABLE claims DROP COLUMN balance_as_of; UPDATE hub_schema_version SET version = 1");
  }
  hub_files files(path);
  CHECK(migrate_hub(files.writer) == 1);
  claim_service claims(files.writer, files.reader, kTtl, [&] { return now; });
  points.basket.basket_id = "p2";
  points.balance = balance_report{900, 950'000};
  REQUIRE(claims.claim(points).what == claim_decision::outcome::granted);
  const std::optional<settle_decision> before =
      claims.settle({"m_1", "u_1", "p2"}, settlement::spend, 949'999);
  REQUIRE(before);
  CHECK(before->what == settle_decision::outcome::invalid);
  CHECK(claims.guest({"m_1", "u_1"}).points.at(0).held == 600);  // both still held
  const std::optional<settle_decision> old =
      claims.settle({"m_1", "u_1", "p1"}, settlement::spend, 899'999);
  REQUIRE(old);
  CHECK(old->what == settle_decision::outcome::settled);
  CHECK(claims.settle({"m_1", "u_1", "p2"}, settlement::spend, 950'000)->what ==
        settle_decision::outcome::settled);
}
