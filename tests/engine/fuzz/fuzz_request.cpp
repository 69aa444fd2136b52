// libFuzzer target: the request parser (contract section 2) and everything a request reaches,
// qualify and explain against a fixed snapshot that uses every rule.
#include <nlohmann/json.hpp>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "harness/fuzz_answers.hpp"
#include "harness/fuzz_check.hpp"
#include "lq/qualifier.hpp"
#include "lq/request.hpp"
#include "lq/request_reader.hpp"

namespace {

// Every discount rule, eligibility field and reason code of the contract, on a few product ids
// and categories that the dictionary (json.dict) also knows.
constexpr const char* kSnapshot = R"({
 "schema_version": 1,
 "merchant": {"id": "m", "tz_rule": "EST5EDT,M3.2.0,M11.1.0"},
 "locations": [
  {"uid": "main", "id": "h_main"},
  {"uid": "air", "id": "h_air", "tz_rule": "<+0530>-5:30"},
  {"uid": "other", "id": "h_other", "merchant_id": "m2"}],
 "user": {"id": "u"},
 "points": [{"points_experience_id": "pe", "balance": 300}],
 "rewards": [
  {"id": "amount", "value": 5, "type": "amount", "retire_at": "2027-01-01T00:00:00Z"},
  {"id": "amount_min", "value": "5.00", "minimum": "15.00", "type": "amount"},
  {"id": "amount_cat", "value": 2, "type": "amount", "categories": ["coffee"]},
  {"id": "percent", "value": 12.5, "maximum": 4, "type": "percent"},
  {"id": "percent_product", "value": 50, "type": "percent", "products": ["latte", "mocha"]},
  {"id": "free_item", "value": 6, "type": "item", "products": ["latte"], "categories": ["tea"]},
  {"id": "bogo", "value": 0, "type": "item", "item_kind": "bogo", "categories": ["pastry"]},
  {"id": "modifier", "value": 1, "type": "item", "item_kind": "modifier", "products": ["oat"]},
  {"id": "modifier_any", "value": 0, "type": "item", "item_kind": "modifier"},
  {"id": "fixed", "value": "1.99", "type": "fixed_price", "products": ["latte"]},
  {"id": "fixed_any", "value": 3, "type": "fixed_price"},
  {"id": "unknown_type", "value": 3, "type": "mystery"},
  {"id": "windows", "value": 1, "type": "amount",
   "time_restrictions": [{"days": ["mon", "fri"], "start": "07:00", "end": "11:00"},
                         {"start": "22:00", "end": "02:00"}]},
  {"id": "located", "value": 1, "type": "amount", "restriction_location_ids": ["h_main"]},
  {"id": "delivery", "value": 1, "type": "amount", "handoff": "Delivery", "redemption_venue": "online"},
  {"id": "instore", "value": 1, "type": "amount", "redemption_venue": "instore"},
  {"id": "expired", "value": 1, "type": "amount", "retire_at": "2020-01-01T00:00:00Z"},
  {"id": "later", "value": 1, "type": "amount", "starts_at": "2030-01-01T00:00:00+01:00"},
  {"id": "spent", "value": 1, "type": "amount", "state": "redeemed"},
  {"id": "theirs", "value": 1, "type": "amount", "user_id": "u2"},
  {"id": "elsewhere", "value": 1, "type": "amount", "merchant_id": "m2"}],
 "points_products": [
  {"id": "pp_amount", "points": 100, "value": 2, "type": "amount"},
  {"id": "pp_item", "points": "250", "value": 0, "type": "item", "products": ["latte"]},
  {"id": "pp_dear", "points": 1000, "value": 10, "type": "percent"}]
})";

const lq::qualifier& engine() {
  static const lq::qualifier loaded = [] {
    lq::qualifier q;
    LQ_FUZZ_CHECK(!q.set_snapshot(kSnapshot));
    return q;
  }();
  return loaded;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const auto parsed = lq::parse_request(text);
  const std::optional<bool> valid_json = lq_fuzz::is_json(text);
  if (parsed) {
    LQ_FUZZ_CHECK(valid_json.value_or(true));
    for (const lq::basket_item& item : parsed->items) {
      LQ_FUZZ_CHECK(item.quantity >= 1 && item.quantity <= 1000000000);
      LQ_FUZZ_CHECK(!item.price || !item.price->is_negative());
      for (const auto& modifier : item.modifiers) {
        LQ_FUZZ_CHECK(!modifier.price || !modifier.price->is_negative());
      }
    }
    LQ_FUZZ_CHECK(!parsed->subtotal || !parsed->subtotal->is_negative());
  } else {
    LQ_FUZZ_CHECK(parsed.err().code == 400);
    // One verdict on syntax, whatever field comes first: text that is not JSON gets a syntax
    // complaint (or the depth limit's, met first); a syntax complaint about JSON is a bug.
    const std::string& message = parsed.err().message;
    const bool syntax = message.rfind("request body is not valid JSON: ", 0) == 0;
    const bool deep = message.rfind("request body nests deeper than 64 levels at offset ", 0) == 0;
    if (syntax) LQ_FUZZ_CHECK(!valid_json.value_or(false));
    if (deep) LQ_FUZZ_CHECK(lq_fuzz::nesting_depth(text) > 64);
    if (!valid_json.value_or(true)) LQ_FUZZ_CHECK(syntax || deep);
  }
  lq_fuzz::check_answers(engine(), text);
  return 0;
}
