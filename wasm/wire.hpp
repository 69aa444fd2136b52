// The wire between the engine and web/engine/wire.js: how answers cross as numbers in wasm memory.
// Every layout and constant is declared here once; the JS side declares the same in wire.js and
// tests/package/engine/wire.test.js compares the two through wire_layout().
//
// Offers have one numbering on both sides: the engine's offer number (lq::qualifier::offer_number:
// rewards first, then points products, each in output order).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "lq/answers/explanation.hpp"
#include "lq/answers/qualify_result.hpp"
#include "lq/qualifier.hpp"

namespace lq::wire {

/// Offer table: per offer number, these uint32 words, in this order.
enum offer_field : uint32_t { entity_address, entity_bytes, id_address, id_bytes, offer_fields };

/// Explanation header: these int32 words, in this order, before the entries.
enum explanation_header : uint32_t {
  entry_count,
  best_entry,  // -1: none
  text_address,
  text_bytes,
  header_words
};

/// Entry head word: flags.
constexpr int32_t kQualifies = 1;
/// Reason word: the reason code in its low byte, flags above.
constexpr int32_t kReasonCodeMask = 0xff;
constexpr int32_t kHasRemaining = 1 << 8;
constexpr int32_t kHasPointsNeeded = 1 << 9;

/// Per offer number: the offer_field words (addresses into the loaded snapshot, valid until the
/// next load).
void encode_offer_table(const qualifier& engine, std::vector<uint32_t>& words);

/// [reward count, points product count, offer numbers of the rewards..., of the points
/// products...].
void encode_qualify(const qualifier& engine, const qualify_result& answer,
                    std::vector<uint32_t>& words);

/// The explanation as int32 words: the header, then per entry: head (kQualifies), offer number,
/// discount text bytes, reason count, and per reason: code | flags, then the remaining text bytes
/// (kHasRemaining) and points_needed as int64 (low, high; kHasPointsNeeded). Money crosses as the
/// engine's decimal text (format_cents), one after the other in `text`, whose address and size
/// the header gives.
void encode_explanation(const explain_result& answer, std::vector<int32_t>& words,
                        std::string& text);

/// The constants above and every reason code's name and message template (in code order) as
/// JSON: what wire.js reads once per module.
std::string wire_layout();

}  // namespace lq::wire
