// The lesson sweep shipped for the GUI (scenarios/library/sweeps/, docs/sweeps.md)
// is what its command writes today: the sweep is simulated, so every point's
// metrics and series must match the file exactly. When a design's behaviour
// changes on purpose, regenerate the file with the command below.
#include <filesystem>

#include <catch2/catch.hpp>

#include "pools/core/params.h"
#include "tests/cli/runner.h"

using poolscope::json;
using namespace cli_test;

namespace {

// Run from the source directory, this writes the shipped file (docs/sweeps.md names it).
const std::string kArgs =
    "sweep scenarios/library/periodic-bursts.json --pool ants "
    "--param ants.ExpiryDuration=100ms,1s,2s,3s,4s,4500ms,5s,6s,10s "
    "--metric spawned,reaped,queue_wait_s.p50,mean_workers,cpu --quiet --json";
const std::string kShipped = "scenarios/library/sweeps/periodic-bursts-expiry.json";

// What a run of the sweep decides: the grid, the metrics, and each point's status, metrics and series.
json measured(json doc) {
  for (json& p : doc["points"]) p.erase("wall_s");
  return {{"params", doc["params"]}, {"metrics", doc["metrics"]}, {"points", doc["points"]}};
}

}  // namespace

TEST_CASE("lesson sweep: the shipped ants expiry sweep is what its command writes today") {
  const fs::path fresh = scratch() / "lesson-sweep.json";
  const fs::path source = POOLSCOPE_SOURCE_DIR;
  const Result r = run("sweep " + (source / "scenarios/library/periodic-bursts.json").string() +
                       kArgs.substr(kArgs.find(" --pool")) + " " + fresh.string());
  INFO(r.err);
  REQUIRE(r.code == 0);
  const json shipped = json::parse(slurp(source / kShipped));
  CHECK(shipped["format"] == "poolscope-sweep/1");
  CHECK(shipped["scenario"]["file"] ==
        "scenarios/library/periodic-bursts.json");  // a path from the source tree, not a machine's
  INFO("the shipped sweep is stale: regenerate it from the source directory with\n  build/bin/poolscope " + kArgs +
       " " + kShipped);
  CHECK(measured(shipped) == measured(json::parse(slurp(fresh))));
}
