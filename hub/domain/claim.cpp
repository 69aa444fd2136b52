#include "hub/domain/claim.hpp"

namespace lq::hub {

const char* name_of(claim_state state) {
  switch (state) {
    case claim_state::held:
      return "held";
    case claim_state::spent:
      return "spent";
    case claim_state::released:
      return "released";
    case claim_state::expired:
      return "expired";
  }
  return "held";
}

claim_state claim::state_at(int64_t now_ms) const {
  if (state == claim_state::held && now_ms >= expires_at_ms) return claim_state::expired;
  return state;
}

bool claim::holds_at(int64_t now_ms) const {
  return (state == claim_state::held || state == claim_state::spent) && now_ms < expires_at_ms;
}

}  // namespace lq::hub
