// What the ants pool tests share: a manual clock, a trace stream and its log.
#pragma once

#include <algorithm>
#include <atomic>

#include "pools/ants/pool_func.h"
#include "tests/support/sync.h"

namespace poolscope::ants::test {

using namespace std::chrono_literals;
using poolscope::test::await_condition;
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

}  // namespace poolscope::ants::test
