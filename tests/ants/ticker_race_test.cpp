// ants' two tickers race (issue 42 item 16), in the simulation. Go starts
// purge and ticktock as goroutines and each makes its ticker as it starts,
// the scheduler choosing which runs first: the grids fall microseconds apart,
// either way round. ticktock stamps a worker that goes idle after its tick at
// 5.0 s with the time.Now() it read then; the purge tick at 6.0 s reaps that
// worker only if the stamp is not after its own time.Now() - 1 s. So the
// worker goes at 6.0 s when ticktock's grid is first, at 7.0 s when purge's
// is. Real ants, 500 arrivals/s of 20 ms tasks for 5 s, size 50, expiry 1 s:
// two passes in 2 runs of 3 (7 at 6.00 s + 11 at 7.01 s; 6 + 11), one pass
// of 19 to 21 at 6.0 s in the third. Here the simulation's policy makes the
// choice (pool_common.cpp, startTickers), so its seeds give both.
#include <map>
#include <set>

#include <catch2/catch.hpp>

#include "pools/ants/pool.h"
#include "pools/core/sim/world.h"
#include "pools/core/trace_log.h"

using namespace std::chrono_literals;
using namespace poolscope;

namespace {

// Two tasks of 20 ms at 4.6 s (two workers, idle at 4.62 s: stamped by the
// 4.5 s tick), then one at 4.995 s (the top worker again, idle at 5.015 s:
// stamped by the 5.0 s tick). Returns the reaps after 5.5 s by second.
std::map<int, int> late_reaps(sim::Settings settings) {
  TraceStream stream{std::size_t{1} << 14};
  TraceLog log{stream};
  sim::World world(settings);
  world.run([&] {
    Clock& clock = world.clock();
    auto made = ants::new_pool(50, {.ExpiryDuration = 1s}, {.clock = &clock, .stream = &stream, .name = "ants"});
    REQUIRE(made);
    ants::Pool& p = **made;
    clock.sleep_until(Time(4600ms));
    for (int i = 0; i < 2; ++i) REQUIRE_FALSE(p.submit([&] { clock.sleep_for(20ms); }));
    clock.sleep_until(Time(4995ms));
    REQUIRE_FALSE(p.submit([&] { clock.sleep_for(20ms); }));
    clock.sleep_until(Time(8s));
  });
  log.sync();
  std::map<int, int> by;
  for (const Event& e : log.events())
    if (e.kind == EventKind::worker_reaped && Nanos(e.time) > 5500ms) by[static_cast<int>(Nanos(e.time) / 1s)] += 1;
  return by;
}

const std::map<int, int> kOnePass{{6, 2}};          // ticktock's grid first
const std::map<int, int> kTwoPasses{{6, 1}, {7, 1}};  // purge's grid first

}  // namespace

TEST_CASE("ants ticker race: across seeds the worker stamped at 5.0 s goes at 6.0 s or at 7.0 s, as on real ants") {
  std::set<std::map<int, int>> seen;
  for (std::uint64_t seed = 1; seed <= 16; ++seed) {
    const std::map<int, int> got = late_reaps({.seed = seed});
    CAPTURE(seed);
    CHECK((got == kOnePass || got == kTwoPasses));
    seen.insert(got);
  }
  CHECK(seen == std::set<std::map<int, int>>{kOnePass, kTwoPasses});
}

TEST_CASE("ants ticker race: a run is the same for the same seed") {
  CHECK(late_reaps({.seed = 3}) == late_reaps({.seed = 3}));
}

TEST_CASE("ants ticker race: with no choice (fifo), the thread that waited longest, ticktock, goes first: one pass") {
  CHECK(late_reaps({.policy = sim::Policy::fifo}) == kOnePass);
}
