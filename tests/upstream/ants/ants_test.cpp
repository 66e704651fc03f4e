// Translations of panjf2000/ants' ants_test.go at 76ddb18 (v2.11.4), one
// TEST_CASE per upstream function, named in the comment above each. Go's
// time.Sleep in a task sleeps on the manual clock; where the upstream test
// sleeps to let the purge run (time.Sleep(5 * DefaultCleanIntervalTime)),
// the clock is advanced by that much in 500 ms steps (sleep_ below), each
// step waiting for ticktock and the purge to act on it; where it sleeps so a
// goroutine can block, a latch waits for it to block. README.md lists every
// upstream function and what became of it.
#include <any>
#include <atomic>

#include "pools/ants/pool_func.h"
#include "tests/ants/rig.h"

using namespace poolscope;
using namespace poolscope::ants;
using namespace poolscope::ants::test;

namespace {

// time.Sleep(d) in the test goroutine: the manual clock moves by d, in steps
// of nowTimeUpdateInterval, each step seen by ticktock and, on a purge tick,
// by the purge.
void sleep_(Rig& rig, PoolCommon& p, Nanos d) {
  const Nanos end = rig.clock.now() + d;
  while (rig.clock.now() < end) {
    const Nanos next = std::min(end, (rig.clock.now() / nowTimeUpdateInterval + 1) * nowTimeUpdateInterval);
    rig.clock.advance_to(next);
    if (next % nowTimeUpdateInterval == Nanos(0))
      await_condition([&] { return p.nowTime() == next || p.is_closed(); }, "ticktock saw the step");
    if (next % p.options().ExpiryDuration == Nanos(0)) {
      const auto passes = static_cast<std::size_t>(next / p.options().ExpiryDuration);
      await_condition(
          [&] {
            rig.log.sync();
            return rig.log.count(is_kind(EventKind::cleaner_pass)) >= passes;
          },
          "the purge tick");
    }
  }
}

// Opens the gate and waits until every task past it sleeps on the clock
// (`sleepers`), besides the purge and ticktock tickers of `pools` pools.
void open_and_await_sleepers(Rig& rig, Gate& gate, std::size_t sleepers, std::size_t pools = 1) {
  gate.open();
  REQUIRE(rig.clock.await_waiters(sleepers + 2 * pools));
}

// The first `d` of a sleep_, in which every task's own sleep ends: the
// clock moves to `d` and the test waits until `idle` workers are back in the
// queue, as they are within a few milliseconds in Go. Then sleep_ the rest.
void sleep_tasks_(Rig& rig, PoolCommon& p, Nanos d, int idle) {
  rig.clock.advance(d);
  await_idle(p, idle);
}

}  // namespace

// ants_test.go TestPurgePool (76ddb18): 500 workers blocked on a channel,
// then sleeping j % 100 ms; 5 s later the purge has stopped them all. The
// same for NewPoolWithFunc and NewPoolWithFuncGeneric.
TEST_CASE("ants_test.go TestPurgePool") {
  const int size = 500;
  SECTION("NewPool") {
    Rig rig;
    auto p = rig.pool(size);
    Gate ch;
    for (int i = 0; i < size; ++i) {
      const int j = i + 1;
      (void)p->submit([&, j] {
        ch.pass();
        rig.clock.sleep_for(std::chrono::milliseconds(j % 100));
      });
    }
    REQUIRE(p->running() == size);  // "pool should be full"
    ch.await_arrivals(size);
    open_and_await_sleepers(rig, ch, size - size / 100);  // j % 100 == 0 does not sleep
    sleep_tasks_(rig, *p, 100ms, size);
    sleep_(rig, *p, 5 * DefaultCleanIntervalTime - 100ms);
    await_condition([&] { return p->running() == 0; }, "pool should be empty after purge");
    REQUIRE(p->running() == 0);
  }
  SECTION("NewPoolWithFunc") {
    Rig rig;
    Gate ch;
    auto p1 = new_pool_with_func<std::any>(
        size,
        [&](std::any i) {
          ch.pass();
          rig.clock.sleep_for(std::chrono::milliseconds(std::any_cast<int>(i) % 100));
        },
        {}, rig.target());
    REQUIRE(p1);
    for (int i = 0; i < size; ++i) (void)(*p1)->invoke(i);
    REQUIRE((*p1)->running() == size);
    ch.await_arrivals(size);
    open_and_await_sleepers(rig, ch, size - size / 100);
    sleep_tasks_(rig, **p1, 100ms, size);
    sleep_(rig, **p1, 5 * DefaultCleanIntervalTime - 100ms);
    await_condition([&] { return (*p1)->running() == 0; }, "pool should be empty after purge");
  }
  SECTION("NewPoolWithFuncGeneric") {
    Rig rig;
    Gate ch;
    auto p2 = new_pool_with_func<int>(
        size,
        [&](int i) {
          ch.pass();
          rig.clock.sleep_for(std::chrono::milliseconds(i % 100));
        },
        {}, rig.target());
    REQUIRE(p2);
    for (int i = 0; i < size; ++i) (void)(*p2)->invoke(i);
    REQUIRE((*p2)->running() == size);
    ch.await_arrivals(size);
    open_and_await_sleepers(rig, ch, size - size / 100);
    sleep_tasks_(rig, **p2, 100ms, size);
    sleep_(rig, **p2, 5 * DefaultCleanIntervalTime - 100ms);
    await_condition([&] { return (*p2)->running() == 0; }, "pool should be empty after purge");
  }
}

// ants_test.go TestPurgePreMallocPool (76ddb18): one task of demoFunc (a
// 10 ms sleep, BenchParam) on a PreAlloc pool of 10; 3 s later no worker.
// Then demoPoolFunc(1) and demoPoolFuncInt(1) on pools with func.
TEST_CASE("ants_test.go TestPurgePreMallocPool") {
  SECTION("NewPool") {
    Rig rig;
    auto p = rig.pool(10, {.PreAlloc = true});
    (void)p->submit([&] { rig.clock.sleep_for(10ms); });
    REQUIRE(rig.clock.await_waiters(3));
    sleep_tasks_(rig, *p, 10ms, 1);
    sleep_(rig, *p, 3 * DefaultCleanIntervalTime - 10ms);
    await_condition([&] { return p->running() == 0; }, "all p should be purged");
  }
  SECTION("NewPoolWithFunc") {
    Rig rig;
    auto p1 = new_pool_with_func<std::any>(
        10, [&](std::any n) { rig.clock.sleep_for(std::chrono::milliseconds(std::any_cast<int>(n))); }, {},
        rig.target());
    REQUIRE(p1);
    (void)(*p1)->invoke(1);
    REQUIRE(rig.clock.await_waiters(3));
    sleep_tasks_(rig, **p1, 10ms, 1);
    sleep_(rig, **p1, 3 * DefaultCleanIntervalTime - 10ms);
    await_condition([&] { return (*p1)->running() == 0; }, "all p should be purged");
  }
  SECTION("NewPoolWithFuncGeneric") {
    Rig rig;
    auto p2 = new_pool_with_func<int>(
        10, [&](int n) { rig.clock.sleep_for(std::chrono::milliseconds(n)); }, {}, rig.target());
    REQUIRE(p2);
    (void)(*p2)->invoke(1);
    REQUIRE(rig.clock.await_waiters(3));
    sleep_tasks_(rig, **p2, 10ms, 1);
    sleep_(rig, **p2, 3 * DefaultCleanIntervalTime - 10ms);
    await_condition([&] { return (*p2)->running() == 0; }, "all p should be purged");
  }
}

// ants_test.go TestNonblockingSubmit (76ddb18): a full Nonblocking pool
// answers ErrPoolOverload; once a task ends, Submit works again.
TEST_CASE("ants_test.go TestNonblockingSubmit") {
  const int poolSize = 10;
  Rig rig;
  auto p = rig.pool(poolSize, {.Nonblocking = true});
  Gate stopLongRunningFunc;  // longRunningFunc spins on a flag; this waits on a gate
  for (int i = 0; i < poolSize - 1; ++i)
    REQUIRE_FALSE(p->submit(stopLongRunningFunc.task()));  // "nonblocking submit when pool is not full ..."
  Gate ch;
  Gate ch1;
  auto f = [&] {
    ch.pass();
    ch1.open();
  };
  // p is full now.
  REQUIRE_FALSE(p->submit(f));
  REQUIRE(p->submit([] {}) == ErrPoolOverload);  // "... when pool is full should get an ants.ErrPoolOverload"
  // interrupt f to get an available worker
  ch.open();
  ch1.pass();
  await_idle(*p, 1);  // Go's <-ch1 returns before revertWorker; Go's Submit may still spawn, ours must wait
  REQUIRE_FALSE(p->submit([] {}));
  stopLongRunningFunc.open();
}

// ants_test.go TestMaxBlockingSubmit (76ddb18): with MaxBlockingTasks(1), one
// submitter may block on a full pool; the next gets ErrPoolOverload; the
// blocked one succeeds once a worker frees.
TEST_CASE("ants_test.go TestMaxBlockingSubmit") {
  const int poolSize = 10;
  Rig rig;
  auto p = rig.pool(poolSize, {.MaxBlockingTasks = 1});
  Gate stopLongRunningFunc;
  for (int i = 0; i < poolSize - 1; ++i) REQUIRE_FALSE(p->submit(stopLongRunningFunc.task()));
  Gate ch;
  // p is full now.
  REQUIRE_FALSE(p->submit(ch.task()));
  std::error_code blockedErr;
  BoundedThread blocked("blocked submit", [&] { blockedErr = p->submit([] {}); });  // should be blocked
  await_waiting(*p, 1);                                                             // Go: time.Sleep(1 * time.Second)
  // already reached max blocking limit
  REQUIRE(p->submit([] {}) == ErrPoolOverload);
  // interrupt f to make blocking submit successful.
  ch.open();
  blocked.join();
  REQUIRE_FALSE(blockedErr);  // "blocking submit when pool is full should not return error"
  stopLongRunningFunc.open();
}

// ants_test.go TestReleaseTimeout (76ddb18): five tasks of 1 s; ReleaseTimeout(2s)
// returns nil. The same for NewPoolWithFunc and NewPoolWithFuncGeneric.
TEST_CASE("ants_test.go TestReleaseTimeout") {
  auto check = [](Rig& rig, PoolCommon& p, auto submit) {
    for (int i = 0; i < 5; ++i) submit();
    REQUIRE(p.running() != 0);
    REQUIRE(rig.clock.await_waiters(5 + 2));  // the five sleeping tasks, purge, ticktock
    std::error_code err = make_error_code(ErrPoolClosed);
    BoundedThread releaser("ReleaseTimeout", [&] { err = p.release_timeout(2s); });
    await_condition([&] { return p.is_closed(); }, "ReleaseTimeout began");
    rig.clock.advance(1s);  // the tasks end; the 2 s deadline is ahead whenever ReleaseTimeout read the clock
    releaser.join();
    REQUIRE_FALSE(err);
  };
  {
    Rig rig;
    auto p = rig.pool(10);
    check(rig, *p, [&] { (void)p->submit([&] { rig.clock.sleep_for(1s); }); });
  }
  {
    Rig rig;
    auto pf = new_pool_with_func<std::any>(
        10, [&](std::any i) { rig.clock.sleep_for(std::any_cast<Nanos>(i)); }, {}, rig.target());
    REQUIRE(pf);
    check(rig, **pf, [&] { (void)(*pf)->invoke(Nanos(1s)); });
  }
  {
    Rig rig;
    auto pfg = new_pool_with_func<Nanos>(
        10, [&](Nanos d) { rig.clock.sleep_for(d); }, {}, rig.target());
    REQUIRE(pfg);
    check(rig, **pfg, [&] { (void)(*pfg)->invoke(1s); });
  }
}
