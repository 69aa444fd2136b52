// All JSON the engine writes per call: the qualifying set and every offer (from the entities
// rendered at load, model/offer_entity.hpp), the explanation; and, public in lq/render.hpp and
// lq/reason.hpp, error bodies, the canonical text of a validated request and the reasons' words.
#pragma once

#include <string>

#include "lq/answers/explanation.hpp"
#include "lq/answers/qualify_result.hpp"
#include "lq/answers/reason.hpp"
#include "lq/render.hpp"
#include "model/snapshot.hpp"

namespace lq {

/// `{"rewards":[...],"points_products":[...]}` from the pre-rendered entities.
std::string render_qualify(const snapshot& snap, const qualify_result& result);

/// Every offer's entity, in output order: `{"rewards":[...],"points_products":[...]}`.
std::string render_entities(const snapshot& snap);

/// `{"entries":[...],"best":...}` (contract section 4).
std::string render_explain(const explain_result& result);

}  // namespace lq
