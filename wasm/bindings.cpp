// Embind face of the engine: one handle per loaded snapshot. Every call returns 0 or the error's
// HTTP code and the answer is read through accessors, so no C++ exception ever crosses into JS.
#include <emscripten/bind.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "qualifier.hpp"

namespace {

int live_handles = 0;

class snapshot_handle {
 public:
  snapshot_handle() { ++live_handles; }
  ~snapshot_handle() { --live_handles; }
  snapshot_handle(const snapshot_handle&) = delete;
  snapshot_handle& operator=(const snapshot_handle&) = delete;

  /// Where JS writes UTF-8 JSON of up to `capacity` bytes (TextEncoder.encodeInto, far cheaper
  /// than passing a std::string); read by the next load/qualify/explain call. Its content is
  /// undefined until written: not zero-filled, so that memory a fresh instance has never touched
  /// is touched only where JS writes (a first touch costs a page fault).
  uintptr_t input_buffer(size_t capacity) {
    if (input_capacity_ < capacity) {
      input_.reset(new char[capacity]);
      input_capacity_ = capacity;
    }
    return reinterpret_cast<uintptr_t>(input_.get());
  }

  /// Loads the snapshot in input_buffer(): 0, or 422 with error_message(); on error the previous
  /// snapshot stays in force.
  int load(size_t snapshot_size) {
    auto e = qualifier_.set_snapshot(input(snapshot_size));
    input_.reset();  // a snapshot is large and read once: free its bytes
    input_capacity_ = 0;
    if (e) return fail(*e);
    index_offers();
    return 0;
  }

  /// Where each offer's entity JSON and id live in wasm memory, so that JS decodes an entity
  /// only when an answer first uses it: per offer (rewards, then points products, in output
  /// order) [entity address, entity bytes, id address, id bytes]. Valid until the next load.
  uintptr_t offer_table_address() const { return reinterpret_cast<uintptr_t>(offers_.data()); }
  uint32_t reward_count() const {
    return qualifier_.has_snapshot() ? qualifier_.current().rewards.size() : 0;
  }
  uint32_t points_product_count() const {
    return qualifier_.has_snapshot() ? qualifier_.current().points_products.size() : 0;
  }

  /// Qualifies the request in input_buffer(); on 0 the answer is at indices_address():
  /// [reward count, points product count, reward indices..., points product indices...],
  /// indices into entities_json()'s lists.
  int qualify(size_t request_size, double now_ms) {
    if (!qualifier_.has_snapshot()) return no_snapshot();
    auto answer = qualifier_.qualify(input(request_size), lq::instant_from_unix_ms(now_ms));
    if (!answer) return fail(answer.err());
    indices_.clear();
    indices_.push_back(static_cast<uint32_t>(answer->rewards.size()));
    indices_.push_back(static_cast<uint32_t>(answer->points_products.size()));
    indices_.insert(indices_.end(), answer->rewards.begin(), answer->rewards.end());
    indices_.insert(indices_.end(), answer->points_products.begin(), answer->points_products.end());
    return 0;
  }
  uintptr_t indices_address() const { return reinterpret_cast<uintptr_t>(indices_.data()); }

  /// The response body as JSON text, read with text(); kept to measure the boundary (bench/).
  int qualify_json(size_t request_size, double now_ms) {
    if (!qualifier_.has_snapshot()) return no_snapshot();
    return keep_text(
        qualifier_.qualify_json(input(request_size), lq::instant_from_unix_ms(now_ms)));
  }

  /// The explanation (contract section 4) of the request in input_buffer() as numbers; on 0 it
  /// is at explanation_address(), int32 words:
  ///   entry count, best entry (-1: none),
  ///   per entry: kind << 1 | qualifies, index into its snapshot list, discount cents (lo, hi),
  ///              reason count, per reason: code | has remaining << 8 | has points_needed << 9,
  ///              then remaining cents (lo, hi) and points_needed (lo, hi) when present.
  /// JS builds the messages from explain_messages(); explain_json() renders the same as JSON.
  int explain(size_t request_size, double now_ms) {
    if (!qualifier_.has_snapshot()) return no_snapshot();
    auto request = lq::parse_request(input(request_size));
    if (!request) return fail(request.err());
    const lq::explain_result answer =
        lq::explain(qualifier_.current(), *request, lq::instant_from_unix_ms(now_ms));
    words_.clear();
    words_.push_back(static_cast<int32_t>(answer.entries.size()));
    words_.push_back(answer.best ? static_cast<int32_t>(*answer.best) : -1);
    for (const lq::explanation& entry : answer.entries) {
      words_.push_back((entry.kind == lq::offer_kind::points_product ? 2 : 0) |
                       (entry.qualifies ? 1 : 0));
      words_.push_back(static_cast<int32_t>(entry.index));
      push_int64(entry.discount_cents);
      words_.push_back(static_cast<int32_t>(entry.reasons.size()));
      for (const lq::reason& why : entry.reasons) {
        words_.push_back(static_cast<int32_t>(why.code) | (why.remaining_cents ? 1 << 8 : 0) |
                         (why.points_needed ? 1 << 9 : 0));
        if (why.remaining_cents) push_int64(*why.remaining_cents);
        if (why.points_needed) push_int64(*why.points_needed);
      }
    }
    return 0;
  }
  uintptr_t explanation_address() const { return reinterpret_cast<uintptr_t>(words_.data()); }

  /// The explanation rendered by the engine as JSON text, read with text(): the reference the
  /// typed explain() is tested against (tests/js/explain_typed.test.js) and benchmarked with.
  int explain_json(size_t request_size, double now_ms) {
    if (!qualifier_.has_snapshot()) return no_snapshot();
    return keep_text(
        qualifier_.explain_json(input(request_size), lq::instant_from_unix_ms(now_ms)));
  }

  const std::string& text() const { return text_; }
  const std::string& error_message() const { return error_message_; }

 private:
  std::string_view input(size_t size) const {
    return std::string_view(input_.get(), size < input_capacity_ ? size : input_capacity_);
  }
  int keep_text(lq::result<std::string> answer) {
    if (!answer) return fail(answer.err());
    text_ = std::move(*answer);
    return 0;
  }
  int fail(const lq::error& e) {
    error_message_ = e.message;
    return e.code;
  }
  int no_snapshot() { return fail(lq::error{422, "no snapshot is loaded"}); }
  void push_int64(int64_t value) {
    const auto bits = static_cast<uint64_t>(value);
    words_.push_back(static_cast<int32_t>(static_cast<uint32_t>(bits)));
    words_.push_back(static_cast<int32_t>(static_cast<uint32_t>(bits >> 32)));
  }
  void index_offers() {
    const lq::snapshot& snap = qualifier_.current();
    offers_.clear();
    offers_.reserve(4 * snap.offer_count());
    for (const auto* list : {&snap.rewards, &snap.points_products}) {
      for (const lq::offer& item : *list) {
        offers_.push_back(reinterpret_cast<uintptr_t>(item.entity_json.data()));
        offers_.push_back(static_cast<uint32_t>(item.entity_json.size()));
        offers_.push_back(reinterpret_cast<uintptr_t>(item.id.data()));
        offers_.push_back(static_cast<uint32_t>(item.id.size()));
      }
    }
  }

  lq::qualifier qualifier_;
  std::unique_ptr<char[]> input_;
  size_t input_capacity_ = 0;
  std::vector<uint32_t> indices_;
  std::vector<int32_t> words_;
  std::vector<uint32_t> offers_;
  std::string text_;
  std::string error_message_;
};

int live_handle_count() {
  return live_handles;
}

/// Every reason's code and message as the engine renders them, as explain JSON text:
/// {"entries":[{...,"reasons":[one per reason code, in code order]}],"best":null}. BELOW_MINIMUM
/// and INSUFFICIENT_POINTS carry remaining 9876543.21 and points_needed 987654321, so that JS
/// can cut their messages around the figure. JS reads it once per module.
std::string explain_messages() {
  lq::snapshot snap;
  snap.rewards.emplace_back();
  lq::explain_result sample;
  sample.entries.emplace_back();
  for (int code = 0; code <= static_cast<int>(lq::kLastReasonCode); ++code) {
    sample.entries.front().reasons.push_back(
        lq::reason{static_cast<lq::reason_code>(code), 987654321, 987654321});
  }
  return lq::render_explain(snap, sample);
}

}  // namespace

EMSCRIPTEN_BINDINGS(loyalty_qualifier) {
  emscripten::class_<snapshot_handle>("SnapshotHandle")
      .constructor<>()
      .function("input_buffer", &snapshot_handle::input_buffer)
      .function("load", &snapshot_handle::load)
      .function("qualify", &snapshot_handle::qualify)
      .function("indices_address", &snapshot_handle::indices_address)
      .function("offer_table_address", &snapshot_handle::offer_table_address)
      .function("reward_count", &snapshot_handle::reward_count)
      .function("points_product_count", &snapshot_handle::points_product_count)
      .function("qualify_json", &snapshot_handle::qualify_json)
      .function("explain", &snapshot_handle::explain)
      .function("explanation_address", &snapshot_handle::explanation_address)
      .function("explain_json", &snapshot_handle::explain_json)
      .function("text", &snapshot_handle::text)
      .function("error_message", &snapshot_handle::error_message);
  emscripten::function("live_handle_count", &live_handle_count);
  emscripten::function("explain_messages", &explain_messages);
}
