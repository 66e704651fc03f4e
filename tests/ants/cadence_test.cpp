// ants' purge cadence (issue 18 §1), on the manual clock: when a worker that
// went idle is reaped. The rule (docs/pools/ants.md, "When a worker is
// reaped"): revertWorker stamps a worker with the coarse clock, the last
// 500 ms ticktock instant at or before it went idle; a purge tick at T reaps
// it when the stamp is not after T - ExpiryDuration (refresh's binary search:
// stale unless expiryTime.Before(lastUsed)). On the manual clock both
// tickers are made at one instant, so a stamp exactly one period old is
// stale, as on real ants when ticktock's grid comes first (which comes first
// is a race: tests/ants/ticker_race_test.cpp).
#include <map>
#include <vector>

#include "pools/ants/rules.h"
#include "tests/ants/rig.h"

using namespace poolscope;
using namespace poolscope::ants;
using namespace poolscope::ants::test;

namespace {

// Moves the clock to `t` in 500 ms steps, letting ticktock store each step
// and the purge run each whole-second tick before the next step.
void step_to(Rig& rig, PoolCommon& p, Nanos t, Nanos expiry = 1s) {
  while (rig.clock.now() < t) {
    const Nanos now = rig.clock.now();
    const Nanos next = std::min(t, (now / nowTimeUpdateInterval + 1) * nowTimeUpdateInterval);
    rig.clock.advance_to(next);
    if (next % nowTimeUpdateInterval == Nanos(0))
      await_condition([&] { return p.nowTime() == next; }, "ticktock stores the step");
    if (next % expiry == Nanos(0)) {
      const auto passes = static_cast<std::size_t>(next / expiry);
      await_condition(
          [&] {
            rig.log.sync();
            return rig.log.count(is_kind(EventKind::cleaner_pass)) == passes;
          },
          "the purge tick at " + std::to_string(next.count()) + " ns");
    }
  }
}

// Reaps by tick time (s), from the trace.
std::map<double, int> reaps(Rig& rig) {
  rig.log.sync();
  std::map<double, int> by;
  for (const Event& e : rig.log.events())
    if (e.kind == EventKind::worker_reaped) by[static_cast<double>(e.time) / 1e9] += 1;
  return by;
}

}  // namespace

TEST_CASE("ants cadence: a worker is reaped at the first purge tick at least ExpiryDuration after its coarse stamp") {
  // When the worker goes idle (s) -> the tick that reaps it (s). Stamps: 0
  // until the ticktock at 0.5 s, 0.5 until 1 s, and so on.
  const auto [idleAt, reapedAt] = GENERATE(table<double, double>({
      {0.1, 1.0},  // stamp 0: idle 0.9 s at the tick, reaped (ants: 1.01 s)
      {0.4, 1.0},  // stamp 0: idle 0.6 s, reaped
      {0.5, 2.0},  // stamp 0.5: 0.5 is after 1.0 - 1 = 0: survives the 1 s tick
      {0.9, 2.0},  // stamp 0.5
      {1.0, 2.0},  // stamp 1.0, exactly one period old at 2 s: stale (not Before)
      {1.4, 2.0},  // stamp 1.0: idle 0.6 s
      {1.5, 3.0},  // stamp 1.5
  }));
  const bool preAlloc = GENERATE(false, true);  // the stack's refresh and the ring's: the same comparison
  CAPTURE(idleAt, reapedAt, preAlloc);
  Rig rig;
  auto p = rig.pool(10, {.ExpiryDuration = 1s, .PreAlloc = preAlloc});
  Gate gate;
  REQUIRE_FALSE(p->submit(gate.task()));
  gate.await_arrivals(1);
  step_to(rig, *p, std::chrono::duration_cast<Nanos>(std::chrono::duration<double>(idleAt)));
  gate.open();
  await_idle(*p, 1);
  step_to(rig, *p, 4s);
  CHECK(reaps(rig) == std::map<double, int>{{reapedAt, 1}});
}

TEST_CASE("ants cadence: 50 workers, 100 tasks of 50 ms at t = 0, 3, 6, 9 s are reaped at 1, 4, 7, 10 s (real ants)") {
  // Issue 18 §1: real ants (76ddb18), capacity 50, WithExpiryDuration(1s),
  // blocking: all 50 workers gone at 1.01, 4.01, 7.01 and 10.01 s in each of
  // three runs (the 10 ms is when its goroutine made the ticker). poolscope
  // used to answer 1, 5, 8, 11 s in real time: its ticktock stamp came a few
  // microseconds after the purge tick's expiry time. Figures: docs/fidelity.md.
  Rig rig;
  auto p = rig.pool(50, {.ExpiryDuration = 1s});
  std::atomic<int> started{0};
  for (const Nanos t0 : {0s, 3s, 6s, 9s}) {
    step_to(rig, *p, t0);
    started = 0;
    BoundedThread submitter("submitter", [&] {
      for (int i = 0; i < 100; ++i)
        REQUIRE_FALSE(p->submit([&] {
          ++started;
          rig.clock.sleep_for(50ms);
        }));
    });
    await_condition([&] { return started.load() == 50; }, "the first 50 tasks started");
    REQUIRE(rig.clock.await_waiters(52));  // 50 sleeping tasks, the purge and ticktock tickers
    rig.clock.advance(50ms);
    await_condition([&] { return started.load() == 100; }, "the second 50 tasks started");
    submitter.join();
    REQUIRE(rig.clock.await_waiters(52));
    rig.clock.advance(50ms);
    await_idle(*p, 50);
    CHECK(p->running() == 50);
  }
  step_to(rig, *p, 12s);
  CHECK(reaps(rig) == std::map<double, int>{{1.0, 50}, {4.0, 50}, {7.0, 50}, {10.0, 50}});
}
