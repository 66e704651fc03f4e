// Go's defer, for the one deferred function a goroutine's body starts with:
//
//   defer func() { ... }()          go::Defer exit([&] { ... });
//
// It runs when the scope ends, however it ends (a return, or a throw: Go's
// panic, which the deferred function may recover).
#pragma once

#include <utility>

namespace poolscope::go {

template <class F>
class [[nodiscard]] Defer {
 public:
  explicit Defer(F f) : f_(std::move(f)) {}
  ~Defer() { f_(); }
  Defer(const Defer&) = delete;
  Defer& operator=(const Defer&) = delete;

 private:
  F f_;
};

}  // namespace poolscope::go
