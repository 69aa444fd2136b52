#include "hub/domain/claim_rules.hpp"

#include "lq/time/instant.hpp"

namespace lq::hub {

const char* code_of(refusal_reason reason) {
  switch (reason) {
    case refusal_reason::claimed_elsewhere:
      return "CLAIMED_ELSEWHERE";
    case refusal_reason::insufficient_points:
      return "INSUFFICIENT_POINTS";
    case refusal_reason::basket_mismatch:
      return "BASKET_MISMATCH";
    case refusal_reason::claim_spent:
      return "CLAIM_SPENT";
    case refusal_reason::claim_released:
      return "CLAIM_RELEASED";
    case refusal_reason::too_many_claims:
      return "TOO_MANY_CLAIMS";
    case refusal_reason::too_many_experiences:
      return "TOO_MANY_POINTS_EXPERIENCES";
  }
  return "CLAIMED_ELSEWHERE";
}

balance_report newest_balance(const std::optional<balance_report>& stored,
                              const balance_report& reported) {
  if (!stored || reported.as_of_ms > stored->as_of_ms) return reported;
  if (reported.as_of_ms == stored->as_of_ms && reported.balance < stored->balance) return reported;
  return *stored;
}

int64_t points_held(const std::vector<claim>& claims, const balance_report& newest,
                    int64_t now_ms) {
  int64_t held = 0;
  for (const claim& c : claims) {
    if (!c.offer.is_points() || !c.holds_at(now_ms)) continue;
    // A spent claim's points left the balance when the service billed it: a balance computed
    // after that shows it already.
    if (c.state == claim_state::spent && c.billed_at_ms.value_or(0) <= newest.as_of_ms) continue;
    held += c.offer.points;
  }
  return held;
}

bool keeps_balance_report(const guest_load& load) {
  return !load.new_experience || load.experiences < kMaxPointsExperiencesPerGuest;
}

claim_decision decide_claim(const claim_request& request, const std::optional<claim>& basket_claim,
                            const std::vector<claim>& others,
                            const std::optional<balance_report>& newest, int64_t default_ttl_ms,
                            int64_t now_ms, const guest_load& load) {
  claim_decision decision;
  const claimed_offer& offer = request.offer;
  if (offer.is_points() && newest) {
    points_position position;
    position.points_experience_id = offer.points_experience_id;
    position.newest = *newest;
    position.held = points_held(others, *newest, now_ms);
    decision.points = position;
  }
  if (basket_claim) {
    // The same basket again: its claim as stored (a retry), or a refusal when it names another
    // offer. Neither changes anything.
    if (basket_claim->offer == offer) {
      decision.what = claim_decision::outcome::repeated;
      decision.answer = basket_claim;
    } else {
      decision.reason = refusal_reason::basket_mismatch;
      decision.conflict = basket_claim;
    }
    return decision;
  }
  if (load.live_claims >= kMaxLiveClaimsPerGuest) {
    decision.reason = refusal_reason::too_many_claims;
    return decision;
  }
  if (offer.is_points() && !keeps_balance_report(load)) {
    decision.reason = refusal_reason::too_many_experiences;
    return decision;
  }
  if (offer.is_points()) {
    const int64_t available = decision.points ? decision.points->available() : 0;
    if (available < offer.points) {
      decision.reason = refusal_reason::insufficient_points;
      decision.points_needed = offer.points - available;
      return decision;
    }
  } else {
    for (const claim& other : others) {
      if (!other.offer.is_points() && other.offer.reward_id == offer.reward_id &&
          other.holds_at(now_ms)) {
        decision.reason = refusal_reason::claimed_elsewhere;
        decision.conflict = other;
        return decision;
      }
    }
  }
  claim granted;
  granted.basket = request.basket;
  granted.kiosk_id = request.kiosk_id;
  granted.offer = offer;
  granted.state = claim_state::held;
  granted.claimed_at_ms = now_ms;
  granted.ttl_ms = request.ttl_ms.value_or(default_ttl_ms);
  granted.expires_at_ms = now_ms + granted.ttl_ms;
  if (decision.points) granted.balance_as_of_ms = decision.points->newest.as_of_ms;
  decision.what = claim_decision::outcome::granted;
  decision.answer = granted;
  return decision;
}

std::optional<error> service_time_problem(const char* name, int64_t at_ms, int64_t now_ms) {
  if (at_ms - now_ms <= kMaxServiceClockLeadMs) return std::nullopt;
  return error{400, std::string(name) + " is " + std::to_string((at_ms - now_ms) / 1000) +
                        " s ahead of the store hub's clock, more than the " +
                        std::to_string(kMaxServiceClockLeadMs / 60'000) +
                        " minutes two clocks may differ: it must be the loyalty service's time "
                        "(its clock, never a kiosk's)"};
}

std::optional<error> billing_time_problem(const claim& stored, int64_t billed_at_ms) {
  if (!stored.balance_as_of_ms || billed_at_ms >= *stored.balance_as_of_ms) return std::nullopt;
  const int64_t as_of = *stored.balance_as_of_ms;
  return error{400, "billed_at " + format_rfc3339_ms(instant_from_unix_ms(billed_at_ms)) +
                        " is before " + format_rfc3339_ms(instant_from_unix_ms(as_of)) +
                        ", the balance_as_of the claim of basket " + stored.basket.basket_id +
                        " was granted against: an order is billed after its claim, so billed_at "
                        "must be the loyalty service's time of a read made after the billing (its "
                        "clock, never a kiosk's)"};
}

settle_decision decide_settlement(const claim& stored, settlement how,
                                  std::optional<int64_t> billed_at_ms, int64_t now_ms) {
  settle_decision decision;
  decision.answer = stored;
  if (how == settlement::spend && billed_at_ms) {
    decision.problem = billing_time_problem(stored, *billed_at_ms);
    if (decision.problem) {
      decision.what = settle_decision::outcome::invalid;
      return decision;
    }
  }
  const claim_state done = how == settlement::spend ? claim_state::spent : claim_state::released;
  if (stored.state == done) {
    decision.what = settle_decision::outcome::repeated;
    return decision;
  }
  if (stored.state != claim_state::held) {
    decision.reason = stored.state == claim_state::spent ? refusal_reason::claim_spent
                                                         : refusal_reason::claim_released;
    return decision;
  }
  // Held, expired or not: an order billed after its claim expired still spent the offer.
  decision.what = settle_decision::outcome::settled;
  decision.answer.state = done;
  decision.answer.settled_at_ms = now_ms;
  if (how == settlement::spend) {
    decision.answer.billed_at_ms = billed_at_ms.value_or(now_ms);
    decision.answer.expires_at_ms = now_ms + stored.ttl_ms;
  }
  return decision;
}

}  // namespace lq::hub
