// libFuzzer target: the snapshot loader (contract section 1), the entities it renders (3.4) and
// the answers a loaded snapshot gives to baskets built from its own product ids and categories.
#include <nlohmann/json.hpp>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <string_view>

#include "../answer_fields.hpp"
#include "harness/fuzz_answers.hpp"
#include "harness/fuzz_check.hpp"
#include "lq/qualifier.hpp"
#include "model/snapshot.hpp"
#include "readers/snapshot_reader.hpp"
#include "render/render.hpp"

namespace {

using nlohmann::json;

using lq_test::kPointsProductFields;
using lq_test::kRewardFields;

std::set<std::string> keys_of(const json& object) {
  std::set<std::string> keys;
  for (const auto& member : object.items()) keys.insert(member.key());
  return keys;
}

void check_entities(const lq::snapshot& snap) {
  const json entities = json::parse(lq::render_entities(snap), nullptr, false);
  LQ_FUZZ_CHECK(entities.is_object());
  LQ_FUZZ_CHECK(entities["rewards"].size() == snap.rewards.size());
  LQ_FUZZ_CHECK(entities["points_products"].size() == snap.points_products.size());
  for (const auto& entity : entities["rewards"]) LQ_FUZZ_CHECK(keys_of(entity) == kRewardFields);
  for (const auto& entity : entities["points_products"]) {
    LQ_FUZZ_CHECK(keys_of(entity) == kPointsProductFields);
  }
  // Output order: retire_at ascending (null last), then id; points ascending, then id.
  for (size_t i = 1; i < snap.rewards.size(); ++i) {
    const lq::offer& a = snap.rewards[i - 1];
    const lq::offer& b = snap.rewards[i];
    if (a.retire_at && b.retire_at && *a.retire_at != *b.retire_at) {
      LQ_FUZZ_CHECK(*a.retire_at < *b.retire_at);
    } else if (a.retire_at.has_value() != b.retire_at.has_value()) {
      LQ_FUZZ_CHECK(a.retire_at.has_value());
    } else {
      LQ_FUZZ_CHECK(a.id <= b.id);
    }
  }
  for (size_t i = 1; i < snap.points_products.size(); ++i) {
    const lq::offer& a = snap.points_products[i - 1];
    const lq::offer& b = snap.points_products[i];
    LQ_FUZZ_CHECK(a.points < b.points || (a.points == b.points && a.id <= b.id));
  }
}

// Baskets that reach the discount rules of this snapshot: its own symbols as item ids,
// categories and modifier ids.
std::vector<std::string> baskets_for(const lq::snapshot& snap) {
  json items = json::array();
  size_t n = 0;
  for (const auto& [name, symbol] : snap.symbols) {
    if (n == 6) break;
    json item = {{"id", name},
                 {"price", std::to_string(n + 1) + ".25"},
                 {"categories", json::array({name})},
                 {"quantity", 1 + n % 3}};
    if (n % 2 == 0) item["modifiers"] = json::array({{{"id", name}, {"price", "0.75"}}});
    items.push_back(item);
    ++n;
  }
  items.push_back({{"id", "unpriced"}});
  json located = {{"items", items}, {"subtotal", "20.00"}, {"redemption_venue", "instore"}};
  if (!snap.locations.empty()) located["location_uid"] = snap.locations.front().uid;
  for (const lq::offer& offer : snap.rewards) {
    if (offer.handoff) {
      located["handoff"] = *offer.handoff;
      break;
    }
  }
  return {"{}", json{{"items", items}}.dump(), located.dump(),
          R"({"subtotal":"0.01","order_timestamp":"2026-07-04T23:30:00-04:00"})"};
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const auto loaded = lq::load_snapshot(text);
  const std::optional<bool> valid_json = lq_fuzz::is_json(text);
  if (!loaded) {
    LQ_FUZZ_CHECK(loaded.err().code == 422 && !loaded.err().message.empty());
    // One verdict on syntax, whatever field comes first: text that is not JSON gets a syntax
    // complaint (or the depth limit's, met first); a syntax complaint about JSON is a bug.
    const std::string& message = loaded.err().message;
    const bool syntax = message.rfind("snapshot is not valid JSON: ", 0) == 0;
    const bool deep = message.rfind("snapshot nests deeper than 64 levels at offset ", 0) == 0;
    if (syntax) LQ_FUZZ_CHECK(!valid_json.value_or(false));
    if (deep) LQ_FUZZ_CHECK(lq_fuzz::nesting_depth(text) > 64);
    if (!valid_json.value_or(true)) LQ_FUZZ_CHECK(syntax || deep);
    // A failed load leaves the previous snapshot in force.
    lq::qualifier engine;
    LQ_FUZZ_CHECK(!engine.set_snapshot(
        R"({"schema_version":1,"merchant":{"id":"m"},"user":{"id":"u"},"rewards":[]})"));
    LQ_FUZZ_CHECK(engine.set_snapshot(text).has_value());
    LQ_FUZZ_CHECK(engine.has_snapshot() && engine.current().merchant_id == "m");
    return 0;
  }
  LQ_FUZZ_CHECK(valid_json.value_or(true));
  check_entities(*loaded);
  lq::qualifier engine;
  LQ_FUZZ_CHECK(!engine.set_snapshot(text));
  for (const std::string& basket : baskets_for(engine.current())) {
    lq_fuzz::check_answers(engine, basket);
  }
  return 0;
}
