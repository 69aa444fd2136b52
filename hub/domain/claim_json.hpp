// The hub's answers as JSON text (docs/hub.md shows each): a claim, a points position, a
// refusal, a guest's claims. Times are RFC 3339 UTC with milliseconds when they have some.
#pragma once

#include <cstdint>
#include <string>

#include "hub/domain/claim_rules.hpp"
#include "hub/domain/claim_service.hpp"

namespace lq::hub {

/// `{"claim":{...}}`, with `"points":{...}` for a points product (this claim counted).
std::string render_claim_answer(const claim& c, const std::optional<points_position>& points,
                                int64_t now_ms);

/// `{"code":409,"message":...,"reason":...,...}`: a refused claim.
std::string render_claim_refusal(const claim_request& request, const claim_decision& decision,
                                 int64_t now_ms);

/// `{"code":409,"message":...,"reason":...,"claim":{...}}`: a refused spend or release.
std::string render_settle_refusal(const settle_decision& decision, int64_t now_ms);

/// `{"merchant_id":...,"user_id":...,"now":...,"claims":[...],"truncated":false,"points":[...]}`.
std::string render_guest_claims(const guest_key& guest, const guest_claims& view, int64_t now_ms);

/// RFC 3339 UTC of a time in milliseconds since the epoch.
std::string rfc3339_of_ms(int64_t ms);

}  // namespace lq::hub
