// The hub's request bodies read by the engine's JSON reader (its syntax, its 64 levels of
// nesting, its messages): a claim, a spend, a release. Errors are 400s naming the field. Members
// the hub does not know are ignored.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "hub/domain/claim.hpp"
#include "lq/result.hpp"

namespace lq::hub {

/// The longest id (merchant, user, basket, kiosk, offer, points experience), in bytes.
constexpr size_t kMaxIdBytes = 256;

/// A POST /hub/claims body.
result<claim_request> read_claim_body(std::string_view body);

/// A POST /hub/claims/spend (`billing`: billed_at allowed) or /hub/claims/release body.
struct settle_body {
  basket_key basket;
  std::optional<int64_t> billed_at_ms;
};
result<settle_body> read_settle_body(std::string_view body, bool billing);

/// An id as the hub takes it (also a query parameter's): `name` must be a non-empty string of at
/// most kMaxIdBytes bytes without control characters; the error names it.
std::optional<error> check_id(const char* name, std::string_view value);

}  // namespace lq::hub
