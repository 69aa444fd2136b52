#include "wire.hpp"

#include <utility>

#include "lq/answers/reason.hpp"
#include "lq/decimal.hpp"
#include "lq/json/json_writer.hpp"

namespace lq::wire {

namespace {

void push_int64(std::vector<int32_t>& words, int64_t value) {
  const auto bits = static_cast<uint64_t>(value);
  words.push_back(static_cast<int32_t>(static_cast<uint32_t>(bits)));
  words.push_back(static_cast<int32_t>(static_cast<uint32_t>(bits >> 32)));
}

// Appends the cents' decimal text and pushes its size.
void push_cents(std::vector<int32_t>& words, std::string& text, int64_t cents) {
  const size_t before = text.size();
  text += format_cents(cents);
  words.push_back(static_cast<int32_t>(text.size() - before));
}

}  // namespace

void encode_offer_table(const qualifier& engine, std::vector<uint32_t>& words) {
  const uint32_t count = engine.reward_count() + engine.points_product_count();
  words.clear();
  words.reserve(size_t{offer_fields} * count);
  for (uint32_t number = 0; number < count; ++number) {
    const offer_view item = engine.offer_at(number);
    words.push_back(reinterpret_cast<uintptr_t>(item.entity_json.data()));
    words.push_back(static_cast<uint32_t>(item.entity_json.size()));
    words.push_back(reinterpret_cast<uintptr_t>(item.id.data()));
    words.push_back(static_cast<uint32_t>(item.id.size()));
  }
}

void encode_qualify(const qualifier& engine, const qualify_result& answer,
                    std::vector<uint32_t>& words) {
  words.clear();
  words.push_back(static_cast<uint32_t>(answer.rewards.size()));
  words.push_back(static_cast<uint32_t>(answer.points_products.size()));
  words.insert(words.end(), answer.rewards.begin(), answer.rewards.end());
  for (const uint32_t index : answer.points_products) {
    words.push_back(engine.offer_number(offer_kind::points_product, index));
  }
}

void encode_explanation(const explain_result& answer, std::vector<int32_t>& words,
                        std::string& text) {
  words.assign(header_words, 0);
  text.clear();
  words[entry_count] = static_cast<int32_t>(answer.entries.size());
  words[best_entry] = answer.best ? static_cast<int32_t>(*answer.best) : -1;
  for (const explanation& entry : answer.entries) {
    words.push_back(entry.qualifies ? kQualifies : 0);
    words.push_back(static_cast<int32_t>(entry.number));
    push_cents(words, text, entry.discount_cents);
    words.push_back(static_cast<int32_t>(entry.reasons.size()));
    for (const reason& why : entry.reasons) {
      words.push_back(static_cast<int32_t>(why.code) | (why.remaining_cents ? kHasRemaining : 0) |
                      (why.points_needed ? kHasPointsNeeded : 0));
      if (why.remaining_cents) push_cents(words, text, *why.remaining_cents);
      if (why.points_needed) push_int64(words, *why.points_needed);
    }
  }
  // The text is complete only now: its address is taken after its last growth.
  words[text_address] = static_cast<int32_t>(reinterpret_cast<uintptr_t>(text.data()));
  words[text_bytes] = static_cast<int32_t>(text.size());
}

std::string wire_layout() {
  const std::pair<const char*, int32_t> constants[] = {
      {"offer_fields", offer_fields},   {"header_words", header_words},
      {"entry_count", entry_count},     {"best_entry", best_entry},
      {"text_address", text_address},   {"text_bytes", text_bytes},
      {"qualifies", kQualifies},        {"reason_code_mask", kReasonCodeMask},
      {"has_remaining", kHasRemaining}, {"has_points_needed", kHasPointsNeeded},
  };
  std::string out = "{";
  for (const auto& [name, value] : constants) {
    out += '"';
    out += name;
    out += "\":";
    out += std::to_string(value);
    out += ',';
  }
  out += "\"reasons\":[";
  for (int code = 0; code <= static_cast<int>(kLastReasonCode); ++code) {
    if (code) out += ',';
    out += "{\"code\":\"";
    out += reason_code_name(static_cast<reason_code>(code));
    out += "\",\"message\":";
    append_json_string(out, reason_message_template(static_cast<reason_code>(code)));
    out += '}';
  }
  out += "]}";
  return out;
}

}  // namespace lq::wire
