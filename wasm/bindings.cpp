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

#include "lq/qualifier.hpp"
#include "wire.hpp"

namespace {

namespace wire = lq::wire;

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
    wire::encode_offer_table(qualifier_, offers_);
    return 0;
  }

  /// Where each offer's entity JSON and id live in wasm memory (wire::encode_offer_table), so
  /// that JS decodes an entity only when an answer first uses it. Valid until the next load.
  uintptr_t offer_table_address() const { return reinterpret_cast<uintptr_t>(offers_.data()); }
  uint32_t reward_count() const { return qualifier_.reward_count(); }
  uint32_t points_product_count() const { return qualifier_.points_product_count(); }

  /// Qualifies the request in input_buffer(); on 0 the answer is at indices_address()
  /// (wire::encode_qualify).
  int qualify(size_t request_size, double now_ms) {
    if (!qualifier_.has_snapshot()) return no_snapshot();
    auto answer = qualifier_.qualify(input(request_size), lq::instant_from_unix_ms(now_ms));
    if (!answer) return fail(answer.err());
    wire::encode_qualify(qualifier_, *answer, indices_);
    return 0;
  }
  uintptr_t indices_address() const { return reinterpret_cast<uintptr_t>(indices_.data()); }

  /// The explanation (contract section 4) of the request in input_buffer(); on 0 it is at
  /// explanation_address() (wire::encode_explanation).
  int explain(size_t request_size, double now_ms) {
    if (!qualifier_.has_snapshot()) return no_snapshot();
    auto answer = qualifier_.explain(input(request_size), lq::instant_from_unix_ms(now_ms));
    if (!answer) return fail(answer.err());
    wire::encode_explanation(*answer, words_, money_text_);
    return 0;
  }

  /// How one offer (kind: 0 reward, 1 points product; its id) fares on the request in
  /// input_buffer(): on 0 its entry is at explanation_address(), an explanation of one entry
  /// (best: -1); 404 when the snapshot has no such offer.
  int offer_outcome(size_t request_size, uint32_t kind, const std::string& id, double now_ms) {
    if (!qualifier_.has_snapshot()) return no_snapshot();
    const lq::offer_ref wanted{kind == 0 ? lq::offer_kind::reward : lq::offer_kind::points_product,
                               id};
    auto outcome =
        qualifier_.offer_outcome(input(request_size), wanted, lq::instant_from_unix_ms(now_ms));
    if (!outcome) return fail(outcome.err());
    lq::explain_result one;
    one.entries.push_back(std::move(*outcome));
    wire::encode_explanation(one, words_, money_text_);
    return 0;
  }
  uintptr_t explanation_address() const { return reinterpret_cast<uintptr_t>(words_.data()); }

#ifdef LQ_WASM_BENCH_ENTRY_POINTS
  // The bench build's alone (loyalty_qualifier_bench, bench/README.md): the answers as the
  // engine's JSON text, read with text(), to measure the boundary against; and the reference the
  // typed explain() is tested against (tests/package/engine/explain_typed.test.js).
  int qualify_json(size_t request_size, double now_ms) {
    if (!qualifier_.has_snapshot()) return no_snapshot();
    return keep_text(
        qualifier_.qualify_json(input(request_size), lq::instant_from_unix_ms(now_ms)));
  }
  int explain_json(size_t request_size, double now_ms) {
    if (!qualifier_.has_snapshot()) return no_snapshot();
    return keep_text(
        qualifier_.explain_json(input(request_size), lq::instant_from_unix_ms(now_ms)));
  }
  const std::string& text() const {
    return text_;
  }
#endif

  const std::string& error_message() const {
    return error_message_;
  }

 private:
  std::string_view input(size_t size) const {
    return std::string_view(input_.get(), size < input_capacity_ ? size : input_capacity_);
  }
#ifdef LQ_WASM_BENCH_ENTRY_POINTS
  int keep_text(lq::result<std::string> answer) {
    if (!answer) return fail(answer.err());
    text_ = std::move(*answer);
    return 0;
  }
#endif
  int fail(const lq::error& e) {
    error_message_ = e.message;
    return e.code;
  }
  int no_snapshot() {
    return fail(lq::error{422, "no snapshot is loaded"});
  }
  lq::qualifier qualifier_;
  std::unique_ptr<char[]> input_;
  size_t input_capacity_ = 0;
  std::vector<uint32_t> indices_;
  std::vector<int32_t> words_;
  std::vector<uint32_t> offers_;
  std::string money_text_;  // the explanation's decimal figures
#ifdef LQ_WASM_BENCH_ENTRY_POINTS
  std::string text_;
#endif
  std::string error_message_;
};

int live_handle_count() {
  return live_handles;
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
      .function("explain", &snapshot_handle::explain)
      .function("explanation_address", &snapshot_handle::explanation_address)
      .function("offer_outcome", &snapshot_handle::offer_outcome)
      .function("error_message", &snapshot_handle::error_message)
#ifdef LQ_WASM_BENCH_ENTRY_POINTS
      .function("qualify_json", &snapshot_handle::qualify_json)
      .function("explain_json", &snapshot_handle::explain_json)
      .function("text", &snapshot_handle::text)
#endif
      ;
  emscripten::function("live_handle_count", &live_handle_count);
  emscripten::function("wire_layout", &wire::wire_layout);
}
