// NewPool's threads (purge, ticktock) and the workers' threads: what the OS
// may refuse, and what a purge gives back.
#include "pools/ants/multipool.h"
#include "pools/ants/rules.h"
#include "tests/ants/rig.h"

using namespace poolscope;
using namespace poolscope::ants;
using namespace poolscope::ants::test;

namespace {
// Disarms testing::refuse_threads however the test ends.
struct RefuseThreads {
  RefuseThreads(const char* prefix, std::size_t n) { testing::refuse_threads(prefix, n); }
  ~RefuseThreads() { testing::refuse_threads("", 0); }
};
}  // namespace

TEST_CASE("ants: a refused purge or ticktock thread is NewPool's errBackgroundThreadFailed, not an exception") {
  const char* which = GENERATE("ants-purge", "ants-ticktock");
  CAPTURE(which);
  Rig rig;
  const std::size_t before = live_threads();
  {
    RefuseThreads refuse(which, 1);
    auto p = new_pool(10, {}, rig.target());
    REQUIRE_FALSE(p);
    CHECK(p.error() == errBackgroundThreadFailed);
    CHECK(error_name(errBackgroundThreadFailed) == "errBackgroundThreadFailed");

    auto f = new_pool_with_func<int>(
        10, [](int) {}, {}, rig.target());
    REQUIRE(f);  // the refusal was used up by the first pool
  }
  {
    RefuseThreads refuse(which, 1);
    auto mp = new_multi_pool(3, 2, RoundRobin, {}, rig.target());
    REQUIRE_FALSE(mp);
    CHECK(mp.error() == errBackgroundThreadFailed);
  }
  CHECK(live_threads() == before);  // what did start was stopped and joined
  auto p = rig.pool(10);            // and the next pool starts as usual
  CHECK(p->running() == 0);
}

TEST_CASE("ants: a purged worker's thread is joined at the next purge tick, not kept until release") {
  Rig rig;
  auto p = rig.pool(20);
  const std::size_t base = live_threads();  // purge and ticktock
  Gate gate;
  for (int i = 0; i < 20; ++i) REQUIRE_FALSE(p->submit(gate.task()));
  gate.await_arrivals(20);
  gate.open();
  await_idle(*p, 20);
  CHECK(live_threads() == base + 20);
  CHECK(p->threads_unjoined() == 20);

  rig.clock.advance(1s);  // stamps say 0: every worker is stale at the first tick
  await_condition([&] { return p->running() == 0; }, "every worker reaped");
  // Their bodies return just after; the next tick joins them.
  await_condition([&] { return live_threads() == base; }, "the reaped workers' threads ended");
  rig.clock.advance(1s);
  await_condition(
      [&] {
        rig.log.sync();
        return rig.log.count(is_kind(EventKind::cleaner_pass, ants::rules::kPurgeTick)) == 2;
      },
      "the next tick");
  // The tick joins them just after it traces its pass: joined, not kept until
  // release (Go: the goroutines are gone).
  await_condition([&] { return p->threads_unjoined() == 0; }, "the reaped workers' threads joined by the tick");
  CHECK(live_threads() == base);
}
