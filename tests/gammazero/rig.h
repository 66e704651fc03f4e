// What the gammazero tests share: the common trace rig, and a thread for
// the calls that block.
#pragma once

#include <atomic>
#include <functional>
#include <string>
#include <string_view>

#include "pools/core/thread.h"
#include "pools/core/trace_log.h"
#include "tests/support/sync.h"
#include "tests/support/trace_rig.h"

namespace poolscope::test {

struct Rig : TraceRig {
  TraceTarget target() { return TraceRig::target("gammazero"); }
};

// Runs a call on its own thread (one that blocks: Stop, Pause, SubmitWait...);
// done() says whether it has returned. Joined on destruction.
class Background {
 public:
  explicit Background(std::move_only_function<void()> call)
      : thread_("background", [this, call = std::move(call)]() mutable {
          tid_ = current_tid();
          call();
          done_ = true;
        }) {}
  bool done() const { return done_; }
  // Waits until the call blocks: its thread, inside the call, asleep in the kernel.
  void await_blocked(const std::string& what) {
    await_condition([&] { return tid_ != 0; }, what + ": the call began");
    test::await_blocked(tid_, what);
  }
  void join() { thread_.join(); }

 private:
  std::atomic<bool> done_{false};
  std::atomic<long> tid_{0};
  Thread thread_;  // last: it starts in the constructor
};

}  // namespace poolscope::test
