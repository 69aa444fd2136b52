// The rules of the store hub, as pure functions of what it has stored and of the time (the claim
// service applies them inside one SQLite transaction, which makes each decision a compare-and-set):
// - a reward is held by at most one basket at a time: a claim on it while another basket's claim
//   holds it (held and not expired, or spent and still remembered) is refused, CLAIMED_ELSEWHERE;
// - a points product is granted while the newest balance any kiosk reported, less the points
//   other baskets hold, covers its points; else INSUFFICIENT_POINTS with the points needed;
// - a basket claims one offer: a repeated claim gets the stored claim whatever its state, a claim
//   of another offer for the same basket is refused, BASKET_MISMATCH;
// - a guest has at most kMaxLiveClaimsPerGuest claims that hold at once: a new one beyond is
//   refused, TOO_MANY_CLAIMS (a retry of a stored claim is answered as always);
// - the hub keeps a guest's balances of at most kMaxPointsExperiencesPerGuest points experiences:
//   a new claim naming another is refused, TOO_MANY_POINTS_EXPERIENCES, its balance not kept (a
//   refused claim keeps its balance report, so this is what bounds what a guest makes it keep);
// - the loyalty service's times a kiosk reports (a balance's as_of, a billing's billed_at) may lie
//   at most kMaxServiceClockLeadMs ahead of the hub's clock: a time further ahead is no service's
//   time (a kiosk's clock, or year 9999) and is refused with a 400 naming the field;
// - a held claim is spent (billed with its offer) or released (refused, or billed without it);
//   settling again the same way repeats the answer, the other way is refused; a points claim's
//   spend billed before the balance it was granted against (both the service's clock) is no
//   billing of it (400, billed_at): counted inside that balance, it would free its points twice.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "hub/domain/claim.hpp"
#include "lq/result.hpp"

namespace lq::hub {

/// The default claim TTL: the hybrid qualifier's maxStaleMs (7 days), the longest a kiosk may
/// serve answers from a snapshot, so from one older than a spend.
constexpr int64_t kDefaultClaimTtlMs = 7LL * 24 * 60 * 60 * 1000;
/// The longest TTL a claim may ask for (366 days).
constexpr int64_t kMaxClaimTtlMs = 366LL * 24 * 60 * 60 * 1000;
/// How far ahead of the hub's clock a loyalty-service time (balance_as_of, billed_at) may lie: the
/// two clocks' skew (5 minutes).
constexpr int64_t kMaxServiceClockLeadMs = 5LL * 60 * 1000;
/// The most claims of one guest that hold at once (held, or spent and still remembered).
constexpr int64_t kMaxLiveClaimsPerGuest = 256;
/// The most claims GET /hub/claims lists for one guest: the most recent; it says when it cut.
constexpr size_t kMaxListedClaims = 100;
/// The most points experiences whose balances the hub keeps (and GET /hub/claims lists) for one
/// guest: a merchant has one or a few.
constexpr int64_t kMaxPointsExperiencesPerGuest = 16;

enum class refusal_reason {
  claimed_elsewhere,     // CLAIMED_ELSEWHERE: another basket holds the reward
  insufficient_points,   // INSUFFICIENT_POINTS: the newest balance less held points is too low
  basket_mismatch,       // BASKET_MISMATCH: this basket already claims another offer
  claim_spent,           // CLAIM_SPENT: a release of a spent claim
  claim_released,        // CLAIM_RELEASED: a spend of a released claim
  too_many_claims,       // TOO_MANY_CLAIMS: the guest holds kMaxLiveClaimsPerGuest claims already
  too_many_experiences,  // TOO_MANY_POINTS_EXPERIENCES: kMaxPointsExperiencesPerGuest balances
};

/// The reason's code in answers: "CLAIMED_ELSEWHERE", ...
const char* code_of(refusal_reason reason);

/// Where a guest's points of one experience stand at the hub.
struct points_position {
  std::string points_experience_id;
  balance_report newest;  // the newest balance any kiosk reported
  int64_t held = 0;       // points that claims hold against it
  int64_t available() const { return newest.balance - held; }
};

/// The newer of a stored and a reported balance: the later as_of; at the same as_of, the lower.
balance_report newest_balance(const std::optional<balance_report>& stored,
                              const balance_report& reported);

/// The points `claims` (of one guest and points experience) hold against `newest` at `now_ms`:
/// a held claim that has not expired, and a spent one still remembered whose billing `newest`
/// does not show yet (billed after its as_of).
int64_t points_held(const std::vector<claim>& claims, const balance_report& newest, int64_t now_ms);

/// What a guest already has at the hub, which the bounds measure.
struct guest_load {
  int64_t live_claims = 0;      // the guest's claims that hold now
  int64_t experiences = 0;      // the points experiences the hub keeps a balance of for the guest
  bool new_experience = false;  // a points claim whose experience is not one of them
};

/// Whether the hub keeps the balance a points claim reports: its experience is known, or there
/// is room for one more.
bool keeps_balance_report(const guest_load& load);

struct claim_decision {
  enum class outcome { granted, repeated, refused };
  outcome what = outcome::refused;
  /// granted: the new claim, to store; repeated: the basket's stored claim.
  std::optional<claim> answer;
  std::optional<refusal_reason> reason;
  /// claimed_elsewhere: the claim holding the reward; basket_mismatch: the basket's claim.
  std::optional<claim> conflict;
  /// A points product: the guest's points at the hub, this claim not counted.
  std::optional<points_position> points;
  int64_t points_needed = 0;  // insufficient_points
};

/// Decides `request` at `now_ms`. `basket_claim`: the stored claim of the same basket, if any;
/// `others`: the stored claims of the same guest on the same reward (a reward) or the same points
/// experience (a points product), other baskets; `newest`: the newest balance of that experience,
/// the request's own report included (a points product); `load`: what the guest has at `now_ms`.
claim_decision decide_claim(const claim_request& request, const std::optional<claim>& basket_claim,
                            const std::vector<claim>& others,
                            const std::optional<balance_report>& newest, int64_t default_ttl_ms,
                            int64_t now_ms, const guest_load& load);

/// The 400 of a loyalty-service time `name` (`at_ms`) more than kMaxServiceClockLeadMs ahead of
/// `now_ms`, the hub's clock; nullopt when it is not.
std::optional<error> service_time_problem(const char* name, int64_t at_ms, int64_t now_ms);

enum class settlement { spend, release };

/// The 400 of a spend of `stored` billed at `billed_at_ms` before the balance the claim was
/// granted against (balance_as_of_ms; both the service's clock, so no skew): an order is billed
/// after its claim; nullopt when it is not, or when the claim has no such balance (a reward).
std::optional<error> billing_time_problem(const claim& stored, int64_t billed_at_ms);

struct settle_decision {
  enum class outcome { settled, repeated, refused, invalid };
  outcome what = outcome::refused;
  claim answer;  // settled: the claim to store; else the stored one
  std::optional<refusal_reason> reason;
  std::optional<error> problem;  // invalid: the 400 (billing_time_problem), nothing changed
};

/// Settles `stored` at `now_ms`: spend (`billed_at_ms`: when the service billed it, default now;
/// invalid when billing_time_problem says so, whatever the claim's state) or release.
settle_decision decide_settlement(const claim& stored, settlement how,
                                  std::optional<int64_t> billed_at_ms, int64_t now_ms);

}  // namespace lq::hub
