#include "model/offer_entity.hpp"

#include "lq/json/json_writer.hpp"

namespace lq {

std::string render_entity(const offer& item, const entity_text& text) {
  const bool reward = item.kind == offer_kind::reward;
  std::string out = "{\"id\":";
  append_json_string(out, item.id);
  if (!reward) out += ",\"points\":" + text.points_json;
  out += ",\"value\":" + text.value_json;
  out += ",\"minimum\":" + text.minimum_json;
  out += ",\"maximum\":" + text.maximum_json;
  out += ",\"label\":";
  append_json_string(out, text.label);
  out += ",\"state\":";
  append_json_string(out, text.state);
  out += ",\"type\":";
  append_json_string(out, text.type);
  out += ",\"products\":";
  append_json_string_array(out, text.products);
  out += ",\"fine_print\":";
  append_json_string(out, text.fine_print);
  if (reward) {
    out += ",\"retire_at\":";
    if (text.retire_at) {
      append_json_string(out, *text.retire_at);
    } else {
      out += "null";
    }
  }
  out += ",\"restriction_location_ids\":";
  append_json_string_array(out, item.restriction_location_ids);
  out += '}';
  return out;
}

}  // namespace lq
