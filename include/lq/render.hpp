// What the engine writes that a face writes too: the error body and the canonical request.
// (Reason names and message templates: lq/reason.hpp.)
#pragma once

#include <string>

#include "lq/request.hpp"
#include "lq/result.hpp"

namespace lq {

/// The error body `{"code":400,"message":"..."}`.
std::string render_error(const error& e);

/// The request as the engine read it, every field present (null when absent), money as exact
/// decimal strings: `{"redemption_venue":...,"order_timestamp":...,...,"items":[...]}`.
std::string render_request(const basket_request& request);

}  // namespace lq
