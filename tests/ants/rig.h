// What the ants pool tests share: a manual clock, a trace stream and its log.
#pragma once

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <memory>
#include <string>
#include <thread>

#include "pools/ants/pool_func.h"
#include "pools/core/thread.h"
#include "tests/support/sync.h"

namespace poolscope::ants::test {

using namespace std::chrono_literals;
using poolscope::test::await_condition;
using poolscope::test::await_count;
using poolscope::test::await_event;
using poolscope::test::Gate;

// Declare it before the pools it serves: they use its clock and stream.
struct Rig {
  ManualClock clock;
  TraceStream stream{std::size_t{1} << 18};
  TraceLog log{stream};

  TraceTarget target() { return {.clock = &clock, .stream = &stream, .name = "ants"}; }

  std::unique_ptr<Pool> pool(int size, Options options = {}) {
    auto p = new_pool(size, std::move(options), target());
    REQUIRE(p);
    return std::move(*p);
  }

  // The largest number of live workers any event of the stream reported.
  std::uint32_t peak_workers() {
    log.sync();
    std::uint32_t peak = 0;
    for (const Event& e : log.events()) peak = std::max(peak, e.counters.workers);
    return peak;
  }
};

// Waits until `n` workers of `p` are idle in its queue.
inline void await_idle(const PoolCommon& p, int n) {
  await_condition([&] { return p.idle() == n; }, std::to_string(n) + " idle workers");
}
// Waits until `n` submitters of `p` are blocked in submit.
inline void await_waiting(const PoolCommon& p, int n) {
  await_condition([&] { return p.waiting() == n; }, std::to_string(n) + " blocked submitters");
}
// Waits until `n` submitters of `p` are asleep in cond.Wait, each holding its
// ticket: from then on a Signal wakes one of them and cannot be lost.
inline void await_parked(const PoolCommon& p, int n) {
  await_condition([&] { return p.parked() == n; }, std::to_string(n) + " parked submitters");
}

// A thread whose join() waits at most the safety limit: a submitter that
// never returns aborts the binary with its name instead of hanging the run
// (Catch cannot unwind past a join that never ends). The destructor joins
// the same way, so a failed REQUIRE cannot hang either.
class BoundedThread {
 public:
  BoundedThread(std::string name, std::function<void()> body)
      : name_(name),
        done_(std::make_shared<std::atomic<bool>>(false)),
        thread_(std::move(name), [body = std::move(body), done = done_] {
          body();
          done->store(true);
        }) {}
  BoundedThread(BoundedThread&&) noexcept = default;
  ~BoundedThread() {
    if (thread_.joinable()) join();
  }

  void join() {
    const auto deadline = std::chrono::steady_clock::now() + poolscope::test::kSafetyLimit;
    while (!done_->load()) {
      if (std::chrono::steady_clock::now() > deadline) {
        std::fprintf(stderr, "thread '%s' did not return within the safety limit\n", name_.c_str());
        std::abort();
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    thread_.join();
  }
  bool done() const { return done_->load(); }

 private:
  std::string name_;
  std::shared_ptr<std::atomic<bool>> done_;
  Thread thread_;
};

}  // namespace poolscope::ants::test
