// Go's sync.Once: Do(f) runs f the first time it is called; every other call,
// concurrent ones included, returns once that first f has returned. As in Go,
// an f that panics (throws) still counts as done, and f must not call Do on
// the same Once (it would wait on itself).
//
//   Go                              here
//   var once sync.Once              go::Once once;
//   once.Do(func() { close(ch) })   once.Do([&] { ch.close(); });
//
// Go's algorithm (sync/once.go): a done flag read without the lock on the
// fast path; the slow path takes the lock, looks again, and sets done after f.
#pragma once

#include <atomic>
#include <cstdint>
#include <mutex>

#include "pools/core/go/defer.h"
#include "pools/core/sync.h"

namespace poolscope::go {

class Once {
 public:
  template <class F>
  void Do(F&& f) {
    if (done_.load(std::memory_order_acquire) == 0) doSlow(f);
  }

 private:
  template <class F>
  void doSlow(F& f) {
    std::lock_guard g(m_);
    if (done_.load(std::memory_order_relaxed) == 0) {
      Defer setDone([&] { done_.store(1, std::memory_order_release); });  // defer o.done.Store(1)
      f();
    }
  }

  std::atomic<std::uint32_t> done_{0};
  Mutex m_;
};

}  // namespace poolscope::go
