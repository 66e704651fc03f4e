// Two runs compared: each run's figures are its file's summaries (the
// runner's numbers), matched by pool name, whichever order the pools are in.
#include "visualizer/model/run_compare.h"

#include <catch2/catch.hpp>

#include "tests/visualizer/rig.h"

using namespace poolscope;
using namespace poolscope::gui;

namespace {

std::size_t figure(const char* name) {
  const auto& all = compared_figures();
  for (std::size_t i = 0; i < all.size(); ++i)
    if (std::string(all[i].name) == name) return i;
  FAIL("no figure " << name);
  return 0;
}

}  // namespace

TEST_CASE("run comparison: each run's numbers are its file's, pool by pool by name, and say which run is which") {
  const scenario::ResultFile a = test::run_and_write(false).read();
  scenario::ResultFile b = a;
  b.file = "after.json";
  b.scenario["seed"] = 7;
  // B tuned: fasthttp refused 3 more, its queue waits doubled; spawn left out, another pool added.
  json& fast = b.pools[0].summary;
  fast["tasks"]["refused"] = fast["tasks"]["refused"].get<double>() + 3;
  fast["queue_wait_s"]["p99"] = fast["queue_wait_s"]["p99"].get<double>() * 2;
  b.pools[1].info.name = "gammazero";
  std::swap(b.pools[0], b.pools[1]);  // and in another order

  const RunComparison c = compare_runs(a, b);
  CHECK(c.a == "r.json: scenario reader, seed 5");
  CHECK(c.b == "after.json: scenario reader, seed 7");
  REQUIRE(c.pools.size() == 3);
  CHECK(c.pools[0].pool == "fasthttp");
  CHECK(c.pools[1].pool == "spawn");
  CHECK(c.pools[2].pool == "gammazero");

  const std::size_t refused = figure("refused"), wait = figure("queue wait p99"), submitted = figure("submitted");
  const json& fa = a.pools[0].summary;
  REQUIRE(c.pools[0].a[refused]);
  REQUIRE(c.pools[0].b[refused]);
  CHECK(*c.pools[0].a[refused] == fa["tasks"]["refused"].get<double>());
  CHECK(*c.pools[0].b[refused] - *c.pools[0].a[refused] == 3);
  CHECK(*c.pools[0].b[wait] == 2 * fa["queue_wait_s"]["p99"].get<double>());
  CHECK(*c.pools[0].a[submitted] == *c.pools[0].b[submitted]);
  // A pool one run does not have: nothing on that side.
  CHECK(c.pools[1].a[submitted]);
  CHECK_FALSE(c.pools[1].b[submitted]);
  CHECK_FALSE(c.pools[2].a[submitted]);
  CHECK(c.pools[2].b[submitted]);
}

TEST_CASE("run comparison: every figure names a number the runner writes") {
  const scenario::ResultFile a = test::run_and_write(false).read();
  const RunComparison c = compare_runs(a, a);
  for (const PoolComparison& p : c.pools)
    for (std::size_t i = 0; i < compared_figures().size(); ++i) {
      INFO(p.pool << " " << compared_figures()[i].name);
      REQUIRE(p.a[i]);
      CHECK(*p.a[i] == *p.b[i]);
    }
}
