// The claim rules (hub/domain/claim_rules.*) as pure functions: what a claim, a spend and a
// release decide from what is stored and the time.
#include <catch2/catch.hpp>

#include <optional>
#include <vector>

#include "hub/domain/claim_rules.hpp"

namespace {

using namespace lq::hub;

constexpr int64_t kNow = 1'800'000'000'000;
constexpr int64_t kTtl = 60'000;

claim_request reward_claim(const std::string& basket, const std::string& reward = "r_latte") {
  claim_request r;
  r.basket = {"m_1", "u_1", basket};
  r.kiosk_id = "kiosk-1";
  r.offer.reward_id = reward;
  return r;
}

claim_request points_claim(const std::string& basket, int64_t points, int64_t balance,
                           int64_t as_of) {
  claim_request r;
  r.basket = {"m_1", "u_1", basket};
  r.kiosk_id = "kiosk-1";
  r.offer.points_product_id = "pp_two_off";
  r.offer.points = points;
  r.offer.points_experience_id = "pe_1";
  r.balance = balance_report{balance, as_of};
  return r;
}

claim granted(const claim_request& r, int64_t at = kNow) {
  claim_decision d = decide_claim(r, std::nullopt, {}, r.balance, kTtl, at, {});
  REQUIRE(d.what == claim_decision::outcome::granted);
  return *d.answer;
}

}  // namespace

TEST_CASE("a reward nobody holds is granted, held until now + TTL", "[claim_rules]") {
  const claim c = granted(reward_claim("b1"));
  CHECK(c.state == claim_state::held);
  CHECK(c.expires_at_ms == kNow + kTtl);
  CHECK(c.state_at(kNow + kTtl - 1) == claim_state::held);
  CHECK(c.state_at(kNow + kTtl) == claim_state::expired);
}

TEST_CASE("a reward another basket holds is refused CLAIMED_ELSEWHERE, naming that claim",
          "[claim_rules]") {
  const claim first = granted(reward_claim("b1"));
  claim_decision d =
      decide_claim(reward_claim("b2"), std::nullopt, {first}, std::nullopt, kTtl, kNow + 1, {});
  CHECK(d.what == claim_decision::outcome::refused);
  REQUIRE(d.reason == refusal_reason::claimed_elsewhere);
  CHECK(std::string(code_of(*d.reason)) == "CLAIMED_ELSEWHERE");
  CHECK(d.conflict->basket.basket_id == "b1");
}

TEST_CASE("an expired or released claim no longer holds its reward", "[claim_rules]") {
  const claim first = granted(reward_claim("b1"));
  CHECK(decide_claim(reward_claim("b2"), std::nullopt, {first}, std::nullopt, kTtl, kNow + kTtl, {})
            .what == claim_decision::outcome::granted);
  const claim released = decide_settlement(first, settlement::release, std::nullopt, kNow).answer;
  CHECK(released.state == claim_state::released);
  CHECK(decide_claim(reward_claim("b2"), std::nullopt, {released}, std::nullopt, kTtl, kNow + 1, {})
            .what == claim_decision::outcome::granted);
}

TEST_CASE("a spent reward stays held against other baskets for a TTL after the spend",
          "[claim_rules]") {
  const claim first = granted(reward_claim("b1"));
  const claim spent = decide_settlement(first, settlement::spend, std::nullopt, kNow + 10).answer;
  CHECK(spent.state == claim_state::spent);
  CHECK(spent.expires_at_ms == kNow + 10 + kTtl);
  CHECK(decide_claim(reward_claim("b2"), std::nullopt, {spent}, std::nullopt, kTtl, kNow + kTtl + 5,
                     {})
            .reason == refusal_reason::claimed_elsewhere);
  CHECK(spent.state_at(kNow + 10 + kTtl) == claim_state::spent);  // spent stays spent
  CHECK_FALSE(spent.holds_at(kNow + 10 + kTtl));
}

TEST_CASE(
    "the same basket again gets its stored claim, whatever its state; another offer is "
    "BASKET_MISMATCH",
    "[claim_rules]") {
  const claim first = granted(reward_claim("b1"));
  claim_decision again =
      decide_claim(reward_claim("b1"), first, {}, std::nullopt, kTtl, kNow + kTtl * 2, {});
  CHECK(again.what == claim_decision::outcome::repeated);
  CHECK(again.answer->claimed_at_ms == kNow);
  CHECK(again.answer->state_at(kNow + kTtl * 2) == claim_state::expired);
  claim_decision other =
      decide_claim(reward_claim("b1", "r_muffin"), first, {}, std::nullopt, kTtl, kNow, {});
  CHECK(other.reason == refusal_reason::basket_mismatch);
  CHECK(*other.conflict->offer.reward_id == "r_latte");
}

TEST_CASE("points are granted while the newest balance less held points covers them",
          "[claim_rules]") {
  // 450 points, 200 a claim: two grants, the third needs 150 more.
  const claim one = granted(points_claim("b1", 200, 450, kNow - 1000));
  claim_request second = points_claim("b2", 200, 450, kNow - 1000);
  claim_decision d2 = decide_claim(second, std::nullopt, {one}, second.balance, kTtl, kNow, {});
  REQUIRE(d2.what == claim_decision::outcome::granted);
  CHECK(d2.points->held == 200);
  claim_request third = points_claim("b3", 200, 450, kNow - 1000);
  claim_decision d3 =
      decide_claim(third, std::nullopt, {one, *d2.answer}, third.balance, kTtl, kNow, {});
  CHECK(d3.reason == refusal_reason::insufficient_points);
  CHECK(d3.points_needed == 150);
  CHECK(d3.points->available() == 50);
}

TEST_CASE("the newest balance wins: a later as_of, or at the same as_of the lower",
          "[claim_rules]") {
  const balance_report old{450, 1000};
  CHECK(newest_balance(old, {100, 999}).balance == 450);
  CHECK(newest_balance(old, {100, 1001}).balance == 100);
  CHECK(newest_balance(old, {500, 1000}).balance == 450);
  CHECK(newest_balance(old, {400, 1000}).balance == 400);
  CHECK(newest_balance(std::nullopt, {7, 1}).balance == 7);
}

TEST_CASE("a spent points claim counts until a balance computed after its billing shows it",
          "[claim_rules]") {
  const claim one = granted(points_claim("b1", 200, 450, kNow - 1000));
  const claim spent = decide_settlement(one, settlement::spend, kNow + 500, kNow + 600).answer;
  CHECK(spent.billed_at_ms == kNow + 500);
  CHECK(points_held({spent}, {450, kNow - 1000}, kNow + 700) == 200);
  CHECK(points_held({spent}, {250, kNow + 500}, kNow + 700) == 0);
  // An expired held claim holds nothing.
  CHECK(points_held({one}, {450, kNow - 1000}, kNow + kTtl) == 0);
}

TEST_CASE("settling twice the same way repeats; the other way is refused", "[claim_rules]") {
  const claim first = granted(reward_claim("b1"));
  const claim spent = decide_settlement(first, settlement::spend, std::nullopt, kNow).answer;
  CHECK(decide_settlement(spent, settlement::spend, std::nullopt, kNow + 1).what ==
        settle_decision::outcome::repeated);
  CHECK(decide_settlement(spent, settlement::release, std::nullopt, kNow + 1).reason ==
        refusal_reason::claim_spent);
  const claim released = decide_settlement(first, settlement::release, std::nullopt, kNow).answer;
  CHECK(decide_settlement(released, settlement::release, std::nullopt, kNow + 1).what ==
        settle_decision::outcome::repeated);
  CHECK(decide_settlement(released, settlement::spend, std::nullopt, kNow + 1).reason ==
        refusal_reason::claim_released);
}

TEST_CASE("an expired claim can still be spent (billed late) or released", "[claim_rules]") {
  const claim first = granted(reward_claim("b1"));
  CHECK(decide_settlement(first, settlement::spend, std::nullopt, kNow + kTtl * 3).answer.state ==
        claim_state::spent);
  CHECK(decide_settlement(first, settlement::release, std::nullopt, kNow + kTtl * 3).answer.state ==
        claim_state::released);
}

TEST_CASE(
    "a loyalty-service time more than 5 minutes ahead of the hub's clock is refused, naming the "
    "field",
    "[claim_rules]") {
  CHECK_FALSE(service_time_problem("balance_as_of", kNow, kNow));
  CHECK_FALSE(
      service_time_problem("balance_as_of", kNow - 3'600'000, kNow));  // an old balance is fine
  CHECK_FALSE(service_time_problem("billed_at", kNow + kMaxServiceClockLeadMs, kNow));
  const std::optional<lq::error> ahead =
      service_time_problem("billed_at", kNow + kMaxServiceClockLeadMs + 1, kNow);
  REQUIRE(ahead);
  CHECK(ahead->code == 400);
  CHECK(ahead->message.rfind("billed_at is 300 s ahead of the store hub's clock", 0) == 0);
}

TEST_CASE(
    "a new claim of a guest whose live claims reach the limit is refused TOO_MANY_CLAIMS; a repeat "
    "is not",
    "[claim_rules]") {
  const claim stored = granted(reward_claim("b1"));
  claim_decision d = decide_claim(reward_claim("b2", "r_other"), std::nullopt, {}, std::nullopt,
                                  kTtl, kNow, guest_load{kMaxLiveClaimsPerGuest});
  CHECK(d.what == claim_decision::outcome::refused);
  CHECK(d.reason == refusal_reason::too_many_claims);
  CHECK(decide_claim(reward_claim("b2", "r_other"), std::nullopt, {}, std::nullopt, kTtl, kNow,
                     guest_load{kMaxLiveClaimsPerGuest - 1})
            .what == claim_decision::outcome::granted);
  CHECK(decide_claim(reward_claim("b1"), stored, {}, std::nullopt, kTtl, kNow,
                     guest_load{kMaxLiveClaimsPerGuest})
            .what == claim_decision::outcome::repeated);
}

TEST_CASE(
    "a points claim of a new experience beyond the guest's kMaxPointsExperiencesPerGuest is "
    "refused TOO_MANY_POINTS_EXPERIENCES, its balance not kept; a known experience or a repeat is "
    "not",
    "[claim_rules]") {
  const claim_request r = points_claim("b1", 200, 450, kNow - 1000);
  const guest_load full{0, kMaxPointsExperiencesPerGuest, true};
  const claim_decision d = decide_claim(r, std::nullopt, {}, r.balance, kTtl, kNow, full);
  CHECK(d.what == claim_decision::outcome::refused);
  REQUIRE(d.reason == refusal_reason::too_many_experiences);
  CHECK(std::string(code_of(*d.reason)) == "TOO_MANY_POINTS_EXPERIENCES");
  CHECK_FALSE(keeps_balance_report(full));
  const guest_load room{0, kMaxPointsExperiencesPerGuest - 1, true};
  CHECK(keeps_balance_report(room));
  CHECK(decide_claim(r, std::nullopt, {}, r.balance, kTtl, kNow, room).what ==
        claim_decision::outcome::granted);
  const guest_load known{0, kMaxPointsExperiencesPerGuest, false};
  CHECK(keeps_balance_report(known));
  CHECK(decide_claim(r, std::nullopt, {}, r.balance, kTtl, kNow, known).what ==
        claim_decision::outcome::granted);
  const claim stored = granted(r);
  CHECK(decide_claim(r, stored, {}, r.balance, kTtl, kNow, full).what ==
        claim_decision::outcome::repeated);
}

TEST_CASE(
    "a points claim's spend billed before the balance it was granted against is invalid, naming "
    "billed_at, whatever the claim's state; at or after it, it is taken; a reward has no floor",
    "[claim_rules]") {
  // Granted against the newest balance, here another kiosk's, newer than the claim's own report.
  const claim_request r = points_claim("b1", 300, 450, kNow - 60'000);
  const claim_decision d =
      decide_claim(r, std::nullopt, {}, balance_report{450, kNow - 30'000}, kTtl, kNow, {});
  REQUIRE(d.what == claim_decision::outcome::granted);
  const claim held = *d.answer;
  CHECK(held.balance_as_of_ms == kNow - 30'000);
  const settle_decision epoch = decide_settlement(held, settlement::spend, 0, kNow + 10);
  CHECK(epoch.what == settle_decision::outcome::invalid);
  REQUIRE(epoch.problem);
  CHECK(epoch.problem->code == 400);
  CHECK(epoch.problem->message.rfind(
            "billed_at 1970-01-01T00:00:00Z is before 2027-01-15T07:59:30Z, the balance_as_of the "
            "claim of basket b1 was granted against",
            0) == 0);
  CHECK(epoch.answer.state == claim_state::held);
  CHECK(decide_settlement(held, settlement::spend, kNow - 30'001, kNow + 10).what ==
        settle_decision::outcome::invalid);
  // The same time as the balance (a fixed service clock) is taken: the tie the balance shows.
  const settle_decision same = decide_settlement(held, settlement::spend, kNow - 30'000, kNow + 10);
  CHECK(same.what == settle_decision::outcome::settled);
  CHECK(same.answer.billed_at_ms == kNow - 30'000);
  // A repeat with a billing before the balance is the same bad body: 400, never a 200.
  CHECK(decide_settlement(same.answer, settlement::spend, 0, kNow + 20).what ==
        settle_decision::outcome::invalid);
  // A release carries no billed_at; a reward's billed_at counts for nothing: neither has a floor.
  CHECK(decide_settlement(held, settlement::release, std::nullopt, kNow + 10).what ==
        settle_decision::outcome::settled);
  const claim reward = granted(reward_claim("b2"));
  CHECK_FALSE(reward.balance_as_of_ms);
  CHECK(decide_settlement(reward, settlement::spend, 0, kNow + 10).what ==
        settle_decision::outcome::settled);
}
