// Appended to the Emscripten glue (--post-js, see CMakeLists.txt): the snapshot handle of
// wasm/bindings.cpp as a JS class over its C exports, with the names and behaviour the Embind
// class had (new SnapshotHandle(), input_buffer, load, qualify, ..., text, error_message, delete,
// isDeleted), plus live_handle_count() and explain_messages() on the module.
var lqTextDecoder = new TextDecoder();

function lqText(address, size) {
  address >>>= 0;
  return lqTextDecoder.decode(HEAPU8.subarray(address, address + size));
}

class SnapshotHandle {
  constructor() {
    this.pointer = _lq_handle_new();
  }
  isDeleted() {
    return this.pointer === 0;
  }
  delete() {
    if (this.pointer === 0) throw new Error('SnapshotHandle already deleted');
    _lq_handle_delete(this.pointer);
    this.pointer = 0;
  }
  input_buffer(capacity) {
    return _lq_input_buffer(this.pointer, capacity) >>> 0;
  }
  load(size) {
    return _lq_load(this.pointer, size);
  }
  qualify(size, nowMs) {
    return _lq_qualify(this.pointer, size, nowMs);
  }
  indices_address() {
    return _lq_indices_address(this.pointer) >>> 0;
  }
  offer_table_address() {
    return _lq_offer_table_address(this.pointer) >>> 0;
  }
  reward_count() {
    return _lq_reward_count(this.pointer) >>> 0;
  }
  points_product_count() {
    return _lq_points_product_count(this.pointer) >>> 0;
  }
  qualify_json(size, nowMs) {
    return _lq_qualify_json(this.pointer, size, nowMs);
  }
  explain(size, nowMs) {
    return _lq_explain(this.pointer, size, nowMs);
  }
  explanation_address() {
    return _lq_explanation_address(this.pointer) >>> 0;
  }
  explain_json(size, nowMs) {
    return _lq_explain_json(this.pointer, size, nowMs);
  }
  text() {
    return lqText(_lq_text_address(this.pointer), _lq_text_size(this.pointer));
  }
  error_message() {
    return lqText(_lq_error_address(this.pointer), _lq_error_size(this.pointer));
  }
}

Module['SnapshotHandle'] = SnapshotHandle;
Module['live_handle_count'] = function () {
  return _lq_live_handle_count();
};
Module['explain_messages'] = function () {
  return lqText(_lq_explain_messages_address(), _lq_explain_messages_size());
};
