// The Embind types the bindings use, registered here instead of by Embind's own bind.cpp.
//
// Embind's library (system/lib/embind/bind.cpp) registers every builtin type at start-up: all
// integer widths, 64-bit BigInts, float, std::string, std::wstring / u16string / u32string,
// emscripten::val and eighteen memory_view types. Each registration makes the glue carry the JS
// that converts that type (UTF-16/32 strings, emval handles, typed-array views...), whether or not
// a binding uses it. The linker pulls bind.cpp in only for __getTypeName, so defining it here
// keeps bind.cpp out and leaves the registration below: the glue then carries the JS of these
// types alone (bench/wasm-build-options.md, "Download, issue 13").
//
// A binding that uses another type (bool, float, std::wstring, emscripten::val...) must add its
// registration here; until then Embind refuses the call naming the type ("UnboundTypeError").
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
