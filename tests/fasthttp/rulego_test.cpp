// rulego's WorkerPool (seed 000), fasthttp's workerPool with changes: the
// two that change behaviour are the `flavor` parameter (docs/pools/fasthttp.md,
// "rulego"). Everything else must stay fasthttp's.
#include <atomic>

#include "pools/core/registry.h"
#include "tests/fasthttp/rig.h"

using namespace poolscope;
using namespace poolscope::fasthttp;
using test::Gate;
using test::Rig;

TEST_CASE("rulego: a refusal is the error \"no idle workers\", under the code fasthttp uses") {
  Rig rig({.MaxWorkersCount = 1, .rulego_ = true});
  Gate gate;
  rig.serve(gate.task());
  auto served = rig.wp.serve([] {});
  REQUIRE_FALSE(served);
  const Label why = served.error();
  CHECK(why == kNoIdleWorkersRulego);
  CHECK(label_code(why) == label_code(kNoIdleWorkers));  // the same rule...
  CHECK(label_text(why) != label_text(kNoIdleWorkers));  // ...in rulego's words
  CHECK(std::string(label_text(why)).find("errors.New(\"no idle workers\")") != std::string::npos);
  gate.open();
}

TEST_CASE("rulego: Start after Stop does nothing (startOnce): no cleaner again, where fasthttp starts one") {
  for (bool rulego : {false, true}) {
    CAPTURE(rulego);
    Rig rig({.MaxWorkersCount = 2, .rulego_ = rulego});
    rig.wp.stop();
    rig.wp.join();
    rig.wp.start();
    CHECK(rig.events(is_kind(EventKind::pool_state, kStartCleaner)).size() == (rulego ? 1u : 2u));
    // mustStop is never reset in either: a worker serves one task and exits.
    Event e = rig.serve([] {});
    rig.wp.join();
    CHECK(rig.exited(e.worker).rule == kMustStop);
    rig.wp.stop();  // rulego: stopCh is nil, so this returns at once
  }
}

TEST_CASE("rulego: otherwise fasthttp's rules: LIFO reuse, and the registry takes flavor=rulego") {
  ManualClock clock;
  auto pool = Registry::global().create("fasthttp", {{"flavor", "rulego"}, {"MaxWorkersCount", 1}}, {.clock = &clock});
  Gate gate;
  CHECK(pool->submit(gate.task()).accepted());
  SubmitResult r = pool->submit([] {});
  CHECK(r.fate == Fate::refused);
  CHECK(r.reason == kNoIdleWorkersRulego);
  gate.open();
  pool->shutdown(ShutdownMode::graceful);
  CHECK(pool->accounting().balanced());
}
