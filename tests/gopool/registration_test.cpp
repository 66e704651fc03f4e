// The registry entry `gopool`: its parameters and SetCap as a live one.
#include "pools/core/registry.h"
#include "tests/gopool/rig.h"

using namespace poolscope;

TEST_CASE("gopool registry: cap (live, SetCap), ScaleThreshold 1, and every submit accepted") {
  const Design& d = Registry::global().get("gopool");
  CHECK(d.docs == "docs/pools/gopool.md");
  CHECK(d.param("cap")->default_value == 10000);
  CHECK(d.param("cap")->live);
  CHECK(d.param("ScaleThreshold")->default_value == 1);
  CHECK_FALSE(d.param("ScaleThreshold")->live);

  test::GopoolRig rig;
  auto pool = Registry::global().create("gopool", {{"cap", 2}}, rig.target());
  test::Gate gate;
  for (int i = 0; i < 3; ++i) CHECK(pool->submit(gate.task()).accepted());
  gate.await_arrivals(2);
  CHECK(pool->state() == Counters{2, 2, 1, 0});
  Registry::global().tune(*pool, "cap", 5);
  CHECK(pool->params()["cap"] == 5);
  CHECK(rig.count(EventKind::param_tuned, "SetCap") == 1);
  gate.open();
  pool->shutdown(ShutdownMode::graceful);
  CHECK(pool->accounting().completed == 3);
  CHECK(rig.count(EventKind::worker_idle) == 0);
}
