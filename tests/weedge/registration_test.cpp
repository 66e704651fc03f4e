// The registry entry `weedge`: the package example's defaults, NewWorkerPool's
// refusal as a config error, and AddTask behind submit.
#include "pools/core/registry.h"
#include "tests/support/sync.h"

using namespace poolscope;

TEST_CASE("weedge registry: the package example's defaults (3, 5, 3, 3 s), min > max refused with Go's log text") {
  const Design& d = Registry::global().get("weedge");
  CHECK(d.docs == "docs/pools/weedge.md");
  CHECK(d.param("minWorkerNum")->default_value == 3);
  CHECK(d.param("maxWorkerNum")->default_value == 5);
  CHECK(d.param("taskChSize")->default_value == 3);
  CHECK(d.param("TimeOut")->default_value == "3s");
  CHECK(d.param("go123_timers")->default_value == false);

  ManualClock clock;
  auto pool = Registry::global().create("weedge", nullptr, {.clock = &clock});
  CHECK(pool->state().workers == 3);  // Run started min workers
  CHECK(pool->params()["TimeOut"] == "3s");
  CHECK(pool->submit([] {}).accepted());
  pool->shutdown(ShutdownMode::graceful);
  CHECK(pool->accounting().completed == 1);

  try {
    Registry::global().create("weedge", {{"minWorkerNum", 6}}, {.clock = &clock});
    FAIL("min > max accepted");
  } catch (const ConfigError& e) {
    CHECK(std::string(e.what()) ==
          "/minWorkerNum: worker pool init error , the min number: 6 the max number: 5 (weedge NewWorkerPool)");
  }
}
