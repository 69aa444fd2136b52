// Embind face of the engine: one handle per loaded snapshot. Every call returns 0 or the error's
// HTTP code and the answer is read through accessors, so no C++ exception ever crosses into JS.
#include <emscripten/bind.h>

#include <cstddef>
#include <cstdint>
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
  /// than passing a std::string); read by the next load/qualify/explain call.
  uintptr_t input_buffer(size_t capacity) {
    if (input_.size() < capacity) input_.resize(capacity);
    return reinterpret_cast<uintptr_t>(input_.data());
  }

  /// Loads the snapshot in input_buffer(): 0, or 422 with error_message(); on error the previous
  /// snapshot stays in force.
  int load(size_t snapshot_size) {
    auto e = qualifier_.set_snapshot(input(snapshot_size));
    std::vector<char>().swap(input_);  // a snapshot is large and read once: free its bytes
    return e ? fail(*e) : 0;
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

  /// The explanation (contract section 4) of the request in input_buffer(), read with text().
  int explain(size_t request_size, double now_ms) {
    if (!qualifier_.has_snapshot()) return no_snapshot();
    return keep_text(
        qualifier_.explain_json(input(request_size), lq::instant_from_unix_ms(now_ms)));
  }

  std::string entities_json() const {
    return qualifier_.has_snapshot() ? qualifier_.entities_json() : std::string();
  }
  const std::string& text() const { return text_; }
  const std::string& error_message() const { return error_message_; }

 private:
  std::string_view input(size_t size) const {
    return std::string_view(input_.data(), size < input_.size() ? size : input_.size());
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

  lq::qualifier qualifier_;
  std::vector<char> input_;
  std::vector<uint32_t> indices_;
  std::string text_;
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
      .function("qualify_json", &snapshot_handle::qualify_json)
      .function("explain", &snapshot_handle::explain)
      .function("entities_json", &snapshot_handle::entities_json)
      .function("text", &snapshot_handle::text)
      .function("error_message", &snapshot_handle::error_message);
  emscripten::function("live_handle_count", &live_handle_count);
}
