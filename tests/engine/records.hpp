// Test records: a snapshot skeleton and offers carrying every field of their entity table.
#pragma once

#include <nlohmann/json.hpp>

#include <string>

namespace lq_test {

using nlohmann::json;

/// Merchant `m`, user `u` with 300 points of experience `pe`, the given locations, no offers.
inline json base_snapshot(json locations = json::array()) {
  return json{{"schema_version", 1},
              {"generated_at", "2026-03-02T08:00:00Z"},
              {"merchant", {{"id", "m"}}},
              {"locations", std::move(locations)},
              {"user", {{"id", "u"}}},
              {"points", json::array({{{"points_experience_id", "pe"}, {"balance", 300}}})},
              {"rewards", json::array()},
              {"points_products", json::array()}};
}

/// A redeemable, unrestricted $3 amount reward; `fields` override or add fields.
inline json reward(const std::string& id, const json& fields = json::object()) {
  json r = {{"id", id},
            {"value", 3},
            {"minimum", nullptr},
            {"maximum", nullptr},
            {"label", id},
            {"state", "redeemable"},
            {"type", "amount"},
            {"products", json::array()},
            {"fine_print", ""},
            {"retire_at", nullptr},
            {"restriction_location_ids", json::array()}};
  r.update(fields);
  return r;
}

/// A redeemable, unrestricted $1 amount points product costing `points`.
inline json points_product(const std::string& id, int points, const json& fields = json::object()) {
  json p = {{"id", id},
            {"points", points},
            {"value", 1},
            {"minimum", nullptr},
            {"maximum", nullptr},
            {"label", id},
            {"state", "redeemable"},
            {"type", "amount"},
            {"products", json::array()},
            {"fine_print", ""},
            {"restriction_location_ids", json::array()}};
  p.update(fields);
  return p;
}

}  // namespace lq_test
