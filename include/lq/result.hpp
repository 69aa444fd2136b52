// Errors as values: every engine entry point that can fail returns result<T>.
#pragma once

#include <string>
#include <utility>
#include <variant>

namespace lq {

/// The contract's error body: { "code": <http status>, "message": <reason naming the field> }.
struct error {
  int code = 400;
  std::string message;
};

template <class T>
class result {
 public:
  result(T value) : state_(std::move(value)) {}  // NOLINT(google-explicit-constructor)
  result(error e) : state_(std::move(e)) {}      // NOLINT(google-explicit-constructor)

  bool ok() const { return state_.index() == 0; }
  explicit operator bool() const { return ok(); }
  T& value() { return std::get<0>(state_); }
  const T& value() const { return std::get<0>(state_); }
  T& operator*() { return value(); }
  const T& operator*() const { return value(); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }
  const error& err() const { return std::get<1>(state_); }

 private:
  std::variant<T, error> state_;
};

}  // namespace lq
