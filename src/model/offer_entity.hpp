// An offer's output entity (API spec 2.3 / 2.4): the record's fields echoed as read, rendered once
// at load into offer::entity_json.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "model/offer.hpp"

namespace lq {

/// An offer record's fields as the entity echoes them: the JSON text of each number as stored
/// (or its default), the strings as read.
struct entity_text {
  std::string value_json = "0";
  std::string minimum_json = "null";
  std::string maximum_json = "null";
  std::string points_json = "0";  // points products only
  std::string label;
  std::string state = "redeemable";
  std::string type;
  std::string fine_print;
  std::vector<std::string> products;
  std::optional<std::string> retire_at;  // rewards only
};

/// The entity of `item` (rendered once, at load).
std::string render_entity(const offer& item, const entity_text& text);

}  // namespace lq
