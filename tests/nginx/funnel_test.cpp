// nginx's completion lane in the simulation (virtual time, the default
// machine: 2 CPUs, os-threads costs): the one event loop runs every
// completion and serves every other connection, so once its own work is
// counted it, not the thread pool, bounds how soon a request completes.
// Issue 42, item 11.
#include <algorithm>
#include <chrono>
#include <cstdlib>

#include <catch2/catch.hpp>

#include "pools/core/sim/world.h"
#include "pools/core/trace_log.h"
#include "pools/nginx/thread_pool.h"
#include "scenarios/engine/metrics.h"

using namespace std::chrono_literals;
using namespace poolscope;
using namespace poolscope::nginx;

namespace {

struct Burst {
  Time last_thread_end{0};  // the last task's end on its pool thread
  Time last_completion{0};  // the last completion handler's run on the loop
  Nanos longest{0};         // the longest latency from the post to the completion
  std::uint64_t network_events = 0;
  Time loop_done{0};  // quit() returned: the loop and the threads have ended
  metrics::Summary trace;  // what the runner reports, from the trace
};

// 400 tasks of 1 ms of blocking I/O posted at t = 0 to 32 threads.
Burst burst(Config config) {
  sim::World world;
  TraceStream stream{std::size_t{1} << 14};
  Burst out;
  world.run([&] {
    Clock& clock = world.clock();
    config.threads = 32;
    ThreadPool tp(config, {.clock = &clock, .stream = &stream, .name = "nginx"});
    for (int i = 0; i < 400; ++i) {
      auto task = tp.ngx_thread_task_alloc([&] {
        clock.sleep_for(1ms);
        out.last_thread_end = std::max(out.last_thread_end, clock.now());
      });
      const Time posted = clock.now();
      task->event.handler = [&, posted] {
        out.last_completion = std::max(out.last_completion, clock.now());
        out.longest = std::max(out.longest, clock.now() - posted);
      };
      REQUIRE(tp.ngx_thread_task_post(std::move(task)) == NGX_OK);
    }
    tp.quit();
    out.network_events = tp.network_events_served_();
    out.loop_done = clock.now();
  });
  REQUIRE(world.leaked().empty());
  std::vector<Event> events;
  stream.drain(events);
  metrics::RunMetrics run;
  run.set_pools(stream.pools());
  run.add(events);
  out.trace = run.pools().at(0).summary();
  return out;
}

}  // namespace

TEST_CASE("nginx, simulated: the event loop's own work makes the completion lane the bottleneck") {
  SECTION("a loop that does nothing else completes each task as its thread ends it") {
    const Burst b = burst({});
    INFO("thread end " << b.last_thread_end.count() << " ns, completion " << b.last_completion.count() << " ns");
    CHECK(b.last_thread_end >= 13ms);  // 400 / 32 = 12.5 rounds of 1 ms
    CHECK(b.last_thread_end < 15ms);
    CHECK(b.last_completion - b.last_thread_end < 100us);
    CHECK(b.trace.end_to_end.max < 15'000'000);
  }
  SECTION("100 µs per completion: the threads are done at 13 ms, the completions at 40 ms") {
    const Burst b = burst({.completion_ = 100us});
    INFO("thread end " << b.last_thread_end.count() << " ns, completion " << b.last_completion.count() << " ns");
    CHECK(b.last_thread_end < 15ms);
    CHECK(b.last_completion >= 40ms);  // 400 x 100 µs, one at a time on the loop
    CHECK(b.last_completion < 43ms);
    CHECK(b.longest >= 38ms);
    // The runner's end-to-end latency is the client's: it ends at the
    // completion (task_completed), not when the thread is done (1 ms of
    // service, at most 14 ms after the post).
    CHECK(b.trace.completed == 400);
    CHECK(b.trace.end_to_end.count == 400);
    CHECK(b.trace.service.max < 1'100'000);
    CHECK(std::abs(b.trace.end_to_end.max - b.longest.count()) < 50'000);
  }
  SECTION("and the loop half busy with other connections: later still, and the connections wait too") {
    // 5,000 network events a second of 100 µs each. epoll returns the ready
    // events in the order they became ready: a pass over the done queue waits
    // for the connections ready before its eventfd write, and the connections
    // ready after it wait for the pass. 40 ms of completions and 22.5 ms of
    // events share the one loop, which ends at 65 ms.
    const Burst b = burst({.completion_ = 100us, .network_events_ = 5000, .network_event_ = 100us});
    INFO("thread end " << b.last_thread_end.count() << " ns, completion " << b.last_completion.count()
                       << " ns, loop done " << b.loop_done.count() << " ns, events " << b.network_events);
    CHECK(b.last_thread_end < 15ms);
    CHECK(b.last_completion >= 45ms);
    CHECK(b.last_completion < 50ms);
    CHECK(b.network_events >= 200);
    CHECK(b.loop_done >= 62ms);
  }
}
