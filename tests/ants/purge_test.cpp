// ants_test.go's purge behaviours, on the manual clock: the purge ticker, the
// ticktock coarse clock, the worker cache, DisablePurge.
#include <atomic>

#include "pools/ants/rules.h"
#include "tests/ants/rig.h"

using namespace poolscope;
using namespace poolscope::ants;
using namespace poolscope::ants::test;

namespace {

// Starts `n` workers on gated tasks, then lets them all go idle.
void make_idle(Pool& p, int n) {
  Gate gate;
  for (int i = 0; i < n; ++i) REQUIRE_FALSE(p.submit(gate.task()));
  gate.await_arrivals(n);
  CHECK(p.running() == n);
  gate.open();
  await_idle(p, n);
}

}  // namespace

TEST_CASE("ants: a purge tick stops every worker idle for ExpiryDuration (TestPurgePool, TestPurgePreMallocPool)") {
  const bool preAlloc = GENERATE(false, true);
  CAPTURE(preAlloc);
  Rig rig;
  auto p = rig.pool(20, {.PreAlloc = preAlloc});
  make_idle(*p, 20);

  rig.clock.advance(1s);  // ExpiryDuration defaults to 1 s
  Event pass = await_event(rig.log, is_kind(EventKind::cleaner_pass, ants::rules::kPurgeTick), "purge tick");
  CHECK(pass.arg == 20);   // idle workers looked at
  CHECK(pass.arg2 == 20);  // stale ones stopped
  // A worker lowers running before it traces its exit (as in ants, the
  // deferred addRunning(-1) comes first): wait for the events themselves.
  await_count(rig.log, is_kind(EventKind::worker_exited, ants::rules::kPurgeTick), 20, "every worker exited");
  CHECK(rig.log.count(is_kind(EventKind::worker_exited, ants::rules::kPurgeTick)) == 20);
  CHECK(rig.log.count(
            [](const Event& e) { return e.kind == EventKind::worker_reaped && e.arg == Nanos(1s).count(); }) == 20);
  CHECK(p->running() == 0);
  CHECK(p->free() == 20);
}

TEST_CASE("ants: a worker idle for less than ExpiryDuration survives the tick, and goes at the next") {
  Rig rig;
  auto p = rig.pool(10, {.ExpiryDuration = 2s});
  rig.clock.advance(1s);
  await_condition([&] { return p->nowTime() == 1s; }, "ticktock stamps t = 1 s");
  make_idle(*p, 1);

  rig.clock.advance(1s);  // t = 2 s: idle for 1 s < 2 s
  Event first = await_event(rig.log, is_kind(EventKind::cleaner_pass), "first tick");
  CHECK(first.arg2 == 0);
  CHECK(p->running() == 1);

  rig.clock.advance(2s);  // t = 4 s: idle for 3 s
  Event reaped = await_event(rig.log, is_kind(EventKind::worker_reaped), "reaped");
  CHECK(reaped.arg == Nanos(3s).count());
  Event second = await_event(rig.log, is_kind(EventKind::cleaner_pass), "second tick");
  CHECK(second.arg2 == 1);
}

TEST_CASE("ants: lastUsed comes from the 500 ms ticktock clock, so a worker can be reaped early") {
  Rig rig;
  auto p = rig.pool(10);
  Gate gate;
  REQUIRE_FALSE(p->submit(gate.task()));
  gate.await_arrivals(1);
  rig.clock.advance(400ms);  // before ticktock's first tick: the coarse clock still says 0
  gate.open();
  await_idle(*p, 1);

  // At t = 1 s the worker has been idle 600 ms, yet its stamp says 0: stale.
  rig.clock.advance(600ms);
  Event reaped = await_event(rig.log, is_kind(EventKind::worker_reaped), "reaped at the first tick");
  CHECK(reaped.time == Nanos(1s).count());
  CHECK(reaped.arg == Nanos(1s).count());  // the idle time as the stamps see it
}

TEST_CASE(
    "ants: after a purge, the next spawn gets a worker object back from the cache (TestAntsPoolGetWorkerFromCache)") {
  Rig rig;
  auto p = rig.pool(10);
  make_idle(*p, 5);
  CHECK(p->workers_allocated() == 5);

  rig.clock.advance(2s);  // 2 x DefaultCleanIntervalTime: one tick reaps them (the ticker drops missed ticks)
  // Each exit gives its object back to the cache just after running drops.
  await_condition([&] { return p->workers_cached() == 5; }, "all purged, their objects back in the cache");

  std::atomic<bool> ran{false};
  REQUIRE_FALSE(p->submit([&] { ran = true; }));
  await_condition([&] { return ran.load(); }, "the task ran");
  CHECK(p->running() == 1);
  CHECK(p->workers_allocated() == 5);  // no new object: sync.Pool's New was not called
  Event spawned = await_event(rig.log, is_kind(EventKind::worker_spawned), "a new thread");
  while (spawned.worker <= 5) spawned = await_event(rig.log, is_kind(EventKind::worker_spawned), "a new thread");
  CHECK(spawned.worker == 6);  // a new thread: the trace names threads, not objects
}

TEST_CASE("ants: DisablePurge keeps idle workers until release (TestWithDisablePurge...Pool)") {
  const Nanos expiry = GENERATE(Nanos(0), Nanos(100ms), Nanos(-1));
  CAPTURE(expiry.count());
  Rig rig;
  auto p = rig.pool(10, {.ExpiryDuration = expiry, .DisablePurge = true});
  make_idle(*p, 10);

  rig.clock.advance(3s);
  await_condition([&] { return p->nowTime() == 3s; }, "ticktock saw t = 3 s");
  REQUIRE(rig.clock.await_waiters(1));
  CHECK(rig.clock.waiters() == 1);  // ticktock only: there is no purge thread
  CHECK(p->running() == 10);
  CHECK(p->free() == 0);
  CHECK_FALSE(p->release_timeout(1500ms));
  CHECK(p->running() == 0);
  CHECK(p->free() == 10);
  rig.log.sync();
  CHECK(rig.log.count(is_kind(EventKind::cleaner_pass)) == 0);
}
