// The Embind types the bindings use, registered here instead of by Embind's own bind.cpp.
//
// --bind links Embind's library (system/lib/embind/bind.cpp) whole, and it registers every builtin
// type at start-up: all integer widths, 64-bit BigInts, float, std::string, std::wstring /
// u16string / u32string, emscripten::val and eighteen memory_view types. Each registration makes
// the glue carry the JS that converts that type (UTF-16/32 strings, emval handles, typed-array
// views...), whether or not a binding uses it. So the build (CMakeLists.txt) links Embind's JS
// runtime without --bind, and this file gives what bind.cpp gave: __getTypeName, which the JS
// runtime calls, and the registrations, of these types alone (bench/design/wasm-build-options.md,
// "Download, issue 13").
//
// A binding that uses another type (void, bool, float, std::wstring, emscripten::val...) must add
// its registration here: until then calling it throws "UnboundTypeError: Cannot call <name> due
// to unbound types: (a type without an Embind registration: see wasm/embind_types.cpp)".
#include <emscripten/bind.h>
#include <emscripten/emscripten.h>

#include <cstdlib>
#include <cstring>
#include <limits>
#include <string>

namespace {

using emscripten::internal::TypeID;

template <typename T>
void register_integer(const char* name) {
  emscripten::internal::_embind_register_integer(TypeID<T>::get(), name, sizeof(T),
                                                 std::numeric_limits<T>::min(),
                                                 std::numeric_limits<T>::max());
}

}  // namespace

extern "C" {

/// What Embind's JS calls to name a type in an error (it frees the answer): the bindings are
/// compiled without RTTI, so a type has no name to give.
EMSCRIPTEN_KEEPALIVE const char* __getTypeName(const void*) {
  return strdup("(a type without an Embind registration: see wasm/embind_types.cpp)");
}

__attribute__((constructor)) void lq_register_embind_types() {
  using emscripten::internal::_embind_register_float;
  using emscripten::internal::_embind_register_std_string;
  register_integer<int>("int");
  register_integer<unsigned int>("unsigned int");
  register_integer<unsigned long>("unsigned long");
  _embind_register_float(TypeID<double>::get(), "double", sizeof(double));
  _embind_register_std_string(TypeID<std::string>::get(), "std::string");
}

}  // extern "C"
