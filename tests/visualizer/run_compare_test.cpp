// Two runs compared: each run's figures are its file's summaries (the
// runner's numbers), matched by pool name, whichever order the pools are in.
#include "visualizer/model/run_compare.h"

#include <catch2/catch.hpp>

#include "tests/visualizer/rig.h"
#include "visualizer/model/sweep_scales.h"

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

TEST_CASE("run comparison: run B's counters over time are its file's series, matched to A's pools by name") {
  const scenario::ResultFile a = test::run_and_write(false).read();
  scenario::ResultFile b = a;
  std::swap(b.pools[0], b.pools[1]);  // B's spawn first: matched by name, not position
  b.pools.push_back(b.pools[0]);
  b.pools.back().info.name = "only-in-b";
  b.pools.back().series = nullptr;  // a file without series: nothing to overlay

  const RunComparison c = compare_runs(a, b);
  REQUIRE(c.pools.size() == 3);
  for (std::size_t p = 0; p < a.pools.size(); ++p) {
    INFO(a.pools[p].info.name);
    REQUIRE(c.pools[p].b_series);
    const SweepSeries& s = *c.pools[p].b_series;
    const json& written = a.pools[p].series;  // B is A's copy: the same pool's series
    REQUIRE(s.t.size() == written["t"].size());
    CHECK(s.bucket_s == written["bucket_s"].get<double>());
    // The value at a time is the bucket holding it, the peak over a range the highest bucket in it.
    const std::size_t mid = s.t.size() / 2;
    CHECK(value_at(s, SweepCounter::workers, s.t[mid] + s.bucket_s / 2) == written["workers"][mid].get<double>());
    double highest = 0;
    for (std::size_t i = 0; i < s.t.size(); ++i) highest = std::max(highest, written["busy"][i].get<double>());
    CHECK(peak_between(s, SweepCounter::busy, 0, s.end_s()) == highest);
  }
  CHECK_FALSE(c.pools[2].b_series);
}

TEST_CASE("run comparison: B's peak over a range takes every bucket it overlaps, and none outside the series") {
  SweepSeries s;
  s.bucket_s = 0.1;
  s.t = {0, 0.1, 0.2, 0.3};
  s.counters[static_cast<std::size_t>(SweepCounter::queued)] = {1, 7, 3, 2};
  CHECK(peak_between(s, SweepCounter::queued, 0.15, 0.15) == 7);  // inside one bucket
  CHECK(peak_between(s, SweepCounter::queued, 0.25, 0.9) == 3);   // from the third bucket past the end
  CHECK(peak_between(s, SweepCounter::queued, -1, 0.05) == 1);    // from before the start
  CHECK(peak_between(s, SweepCounter::queued, 0.2, 0.2) == 3);    // a bucket's start belongs to it
  CHECK_FALSE(peak_between(s, SweepCounter::queued, 0.4, 1));     // past the end
  CHECK_FALSE(peak_between(s, SweepCounter::queued, -2, -1));     // before the start
}
