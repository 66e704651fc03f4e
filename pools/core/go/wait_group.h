// Go's sync.WaitGroup: Add(n) before the goroutines start, Done() as each
// ends, Wait() until the count is back to zero. On poolscope's Mutex and
// CondVar, so a simulation sees a thread that waits here.
#pragma once

#include <mutex>

#include "pools/core/clock.h"

namespace poolscope::go {

class WaitGroup {
 public:
  void Add(int delta) {
    std::lock_guard g(m_);
    n_ += delta;
    if (n_ == 0) zero_.notify_all();
  }
  void Done() { Add(-1); }
  void Wait() {
    std::unique_lock lock(m_);
    zero_.wait(lock, [&] { return n_ == 0; });
  }

 private:
  Mutex m_;
  CondVar zero_;
  int n_ = 0;
};

}  // namespace poolscope::go
