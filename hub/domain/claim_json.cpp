#include "hub/domain/claim_json.hpp"

#include "lq/json/json_writer.hpp"
#include "lq/time/instant.hpp"

namespace lq::hub {

namespace {

void member(std::string& out, const char* name) {
  if (out.back() != '{') out += ',';
  append_json_string(out, name);
  out += ':';
}

void text_member(std::string& out, const char* name, const std::optional<std::string>& value) {
  member(out, name);
  if (value) {
    append_json_string(out, *value);
  } else {
    out += "null";
  }
}

void time_member(std::string& out, const char* name, const std::optional<int64_t>& ms) {
  member(out, name);
  if (ms) {
    append_json_string(out, rfc3339_of_ms(*ms));
  } else {
    out += "null";
  }
}

void append_claim(std::string& out, const claim& c, int64_t now_ms) {
  out += '{';
  text_member(out, "merchant_id", c.basket.merchant_id);
  text_member(out, "user_id", c.basket.user_id);
  text_member(out, "basket_id", c.basket.basket_id);
  text_member(out, "kiosk_id", c.kiosk_id);
  text_member(out, "reward_id", c.offer.reward_id);
  text_member(out, "points_product_id", c.offer.points_product_id);
  member(out, "points");
  out += c.offer.is_points() ? std::to_string(c.offer.points) : "null";
  text_member(out, "points_experience_id",
              c.offer.is_points() ? std::optional<std::string>(c.offer.points_experience_id)
                                  : std::nullopt);
  text_member(out, "state", std::string(name_of(c.state_at(now_ms))));
  time_member(out, "claimed_at", c.claimed_at_ms);
  time_member(out, "expires_at", c.expires_at_ms);
  time_member(out, "settled_at", c.settled_at_ms);
  time_member(out, "billed_at", c.billed_at_ms);
  out += '}';
}

void append_position(std::string& out, const points_position& p) {
  out += '{';
  text_member(out, "points_experience_id", p.points_experience_id);
  member(out, "balance");
  out += std::to_string(p.newest.balance);
  time_member(out, "balance_as_of", p.newest.as_of_ms);
  member(out, "held");
  out += std::to_string(p.held);
  member(out, "available");
  out += std::to_string(p.available());
  out += '}';
}

std::string refusal_head(const char* message_text, refusal_reason reason) {
  std::string out = "{\"code\":409";
  member(out, "message");
  append_json_string(out, message_text);
  member(out, "reason");
  append_json_string(out, code_of(reason));
  return out;
}

std::string offer_name(const claimed_offer& offer) {
  return offer.is_points() ? "points product " + *offer.points_product_id
                           : "reward " + offer.reward_id.value_or("");
}

}  // namespace

std::string rfc3339_of_ms(int64_t ms) {
  return format_rfc3339_ms(instant_from_unix_ms(ms));
}

std::string render_claim_answer(const claim& c, const std::optional<points_position>& points,
                                int64_t now_ms) {
  std::string out = "{";
  member(out, "claim");
  append_claim(out, c, now_ms);
  if (points) {
    member(out, "points");
    append_position(out, *points);
  }
  out += '}';
  return out;
}

std::string render_claim_refusal(const claim_request& request, const claim_decision& decision,
                                 int64_t now_ms) {
  const refusal_reason reason = decision.reason.value_or(refusal_reason::claimed_elsewhere);
  std::string message;
  switch (reason) {
    case refusal_reason::claimed_elsewhere:
      message = offer_name(request.offer) + " is already claimed by basket " +
                decision.conflict->basket.basket_id + " at kiosk " + decision.conflict->kiosk_id;
      break;
    case refusal_reason::insufficient_points: {
      const points_position& p = *decision.points;
      message = offer_name(request.offer) + " needs " + std::to_string(request.offer.points) +
                " points of " + request.offer.points_experience_id + ": the newest balance " +
                std::to_string(p.newest.balance) + " (as of " + rfc3339_of_ms(p.newest.as_of_ms) +
                ") less " + std::to_string(p.held) + " held leaves " +
                std::to_string(p.available());
      break;
    }
    case refusal_reason::too_many_claims:
      message = "user " + request.basket.user_id + " of merchant " + request.basket.merchant_id +
                " already has " + std::to_string(kMaxLiveClaimsPerGuest) +
                " claims that hold, the most a guest may have: settle or release some first";
      break;
    case refusal_reason::too_many_experiences:
      message = "user " + request.basket.user_id + " of merchant " + request.basket.merchant_id +
                " already has balances of " + std::to_string(kMaxPointsExperiencesPerGuest) +
                " points experiences at the store hub, the most a guest may have; " +
                request.offer.points_experience_id +
                " is not one of them (a balance is forgotten a claim TTL after it was last "
                "reported)";
      break;
    default:
      message = "basket " + request.basket.basket_id + " already claims " +
                offer_name(decision.conflict->offer) + "; a basket claims one offer";
      break;
  }
  std::string out = refusal_head(message.c_str(), reason);
  if (reason == refusal_reason::too_many_claims) {
    member(out, "limit");
    out += std::to_string(kMaxLiveClaimsPerGuest);
  } else if (reason == refusal_reason::too_many_experiences) {
    member(out, "limit");
    out += std::to_string(kMaxPointsExperiencesPerGuest);
  } else if (reason == refusal_reason::insufficient_points) {
    member(out, "points_needed");
    out += std::to_string(decision.points_needed);
    member(out, "points");
    append_position(out, *decision.points);
  } else {
    member(out, "claim");
    append_claim(out, *decision.conflict, now_ms);
  }
  out += '}';
  return out;
}

std::string render_settle_refusal(const settle_decision& decision, int64_t now_ms) {
  const refusal_reason reason = decision.reason.value_or(refusal_reason::claim_spent);
  const std::string message = "the claim of basket " + decision.answer.basket.basket_id + " is " +
                              (reason == refusal_reason::claim_spent
                                   ? "spent (billed with its offer): it cannot be released"
                                   : "released: it cannot be spent");
  std::string out = refusal_head(message.c_str(), reason);
  member(out, "claim");
  append_claim(out, decision.answer, now_ms);
  out += '}';
  return out;
}

std::string render_guest_claims(const guest_key& guest, const guest_claims& view, int64_t now_ms) {
  std::string out = "{";
  text_member(out, "merchant_id", guest.merchant_id);
  text_member(out, "user_id", guest.user_id);
  time_member(out, "now", now_ms);
  member(out, "claims");
  out += '[';
  for (size_t i = 0; i < view.claims.size(); ++i) {
    if (i > 0) out += ',';
    append_claim(out, view.claims[i], now_ms);
  }
  out += ']';
  member(out, "truncated");
  out += view.truncated ? "true" : "false";
  member(out, "points");
  out += '[';
  for (size_t i = 0; i < view.points.size(); ++i) {
    if (i > 0) out += ',';
    append_position(out, view.points[i]);
  }
  out += "]}";
  return out;
}

}  // namespace lq::hub
