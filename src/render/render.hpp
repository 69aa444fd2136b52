// All JSON the engine writes per call: the qualifying set and every offer (from the entities
// rendered at load, model/offer_entity.hpp), the explanation, error bodies and the canonical text
// of a validated request.
#pragma once

#include <string>

#include "lq/result.hpp"
#include "model/offer.hpp"
#include "lq/reason.hpp"
#include "lq/request.hpp"
#include "model/snapshot.hpp"
#include "rules/explain.hpp"
#include "rules/qualify.hpp"

namespace lq {

/// `{"rewards":[...],"points_products":[...]}` from the pre-rendered entities.
std::string render_qualify(const snapshot& snap, const qualify_result& result);

/// Every offer's entity, in output order: `{"rewards":[...],"points_products":[...]}`.
std::string render_entities(const snapshot& snap);

/// `{"entries":[...],"best":...}` (contract section 4).
std::string render_explain(const snapshot& snap, const explain_result& result);

/// "NOT_REDEEMABLE" etc.
const char* reason_code_name(reason_code code);

/// The message of a reason as a template: its figure, if any, is written as "{remaining}" (cents
/// as format_cents writes them) or "{points_needed}" (an integer). Explain fills it in.
const char* reason_message_template(reason_code code);

/// The error body `{"code":400,"message":"..."}`.
std::string render_error(const error& e);

/// The request as the engine read it, every field present (null when absent), money as exact
/// decimal strings: `{"redemption_venue":...,"order_timestamp":...,...,"items":[...]}`.
std::string render_request(const basket_request& request);

}  // namespace lq
