// The long translations of ants_test.go at 76ddb18: n = 100,000 tasks on a
// pool of AntsSize = 1,000 workers. Tagged [long]: CTest labels them `long`,
// and a plain CI run skips them (tests/CMakeLists.txt).
#include <atomic>

#include "tests/ants/rig.h"

using namespace poolscope;
using namespace poolscope::ants;
using namespace poolscope::ants::test;

namespace {
constexpr int Param = 100;
constexpr int AntsSize = 1000;
constexpr int n = 100000;

// n tasks of demoPoolFunc(Param) (a 100 ms sleep) on `p`, from this thread as
// Go's loop does, the manual clock moved 100 ms whenever every worker sleeps:
// the submitter blocks on the full pool, so it runs on its own thread.
void waitToGetWorker(Rig& rig, PoolCommon& p, const std::function<void(std::function<void()>)>& submit) {
  std::atomic<int> done{0};
  std::atomic<int> started{0};
  BoundedThread submitter("submitter", [&] {
    for (int i = 0; i < n; ++i)
      submit([&] {
        ++started;
        rig.clock.sleep_for(std::chrono::milliseconds(Param));
        ++done;
      });
  });
  for (int round = 1; round <= n / AntsSize; ++round) {
    await_condition([&] { return started.load() == round * AntsSize; }, "a round of tasks started");
    REQUIRE(rig.clock.await_waiters(AntsSize + 2, std::chrono::seconds(60)));  // + purge, ticktock
    rig.clock.advance(std::chrono::milliseconds(Param));
    await_condition([&] { return done.load() == round * AntsSize; }, "the round ended");
  }
  submitter.join();  // wg.Wait()
  CHECK(done.load() == n);
  CHECK(p.running() == AntsSize);  // t.Logf("pool, running workers number:%d", p.Running())
  CHECK(rig.peak_workers() == AntsSize);
}
}  // namespace

// ants_test.go TestAntsPoolWaitToGetWorker (76ddb18).
TEST_CASE("ants_test.go TestAntsPoolWaitToGetWorker", "[long]") {
  Rig rig;
  auto p = rig.pool(AntsSize);
  waitToGetWorker(rig, *p, [&](std::function<void()> f) { (void)p->submit(std::move(f)); });
}

// ants_test.go TestAntsPoolWaitToGetWorkerPreMalloc (76ddb18).
TEST_CASE("ants_test.go TestAntsPoolWaitToGetWorkerPreMalloc", "[long]") {
  Rig rig;
  auto p = rig.pool(AntsSize, {.PreAlloc = true});
  waitToGetWorker(rig, *p, [&](std::function<void()> f) { (void)p->submit(std::move(f)); });
}

// Divergence (c), under churn (TestRestCodeCoverage's pools, made and worked
// again and again): 20 rounds of 1,000 workers started, idle, purged; the
// threads of the purged workers are joined at the next tick, so live and
// unjoined threads never pile up across rounds.
TEST_CASE("ants churn: purged workers' threads never pile up over 20 rounds of 1,000 workers", "[long]") {
  Rig rig;
  auto p = rig.pool(AntsSize);
  const std::size_t base = live_threads();
  for (int round = 0; round < 20; ++round) {
    Gate gate;
    for (int i = 0; i < AntsSize; ++i) REQUIRE_FALSE(p->submit(gate.task()));
    gate.await_arrivals(AntsSize);
    CHECK(live_threads() <= base + AntsSize);
    gate.open();
    await_idle(*p, AntsSize);
    rig.clock.advance(1s);  // reaped at the next tick
    await_condition([&] { return p->running() == 0; }, "the round purged");
    await_condition([&] { return live_threads() == base; }, "the purged workers' threads ended");
    rig.clock.advance(1s);  // joined at the tick after
    await_condition([&] { return p->threads_unjoined() == 0; }, "the purged threads joined");
    CHECK(live_threads() == base);
  }
}
