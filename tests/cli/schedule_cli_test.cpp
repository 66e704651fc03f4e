// `poolscope run --schedule` and `poolscope challenge` (docs/challenges.md):
// a stepped run's schedule replays it; bad schedule and challenge files
// exit 2 naming the file and the field; a pick that does not fit says at
// which decision.
#include <filesystem>
#include <fstream>

#include <catch2/catch.hpp>

#include "pools/core/params.h"
#include "tests/cli/runner.h"

using namespace cli_test;
using poolscope::json;

namespace {

fs::path scratch(const std::string& name, const std::string& text) {
  fs::path p = fs::temp_directory_path() / ("poolscope-schedule-cli-" + name);
  std::ofstream(p) << text;
  return p;
}

json read_json(const fs::path& p) { return json::parse(slurp(p)); }

}  // namespace

TEST_CASE("a stored winning schedule wins, and a stepped run's result replays as a schedule, to the same events") {
  // A shipped challenge's stored schedule wins.
  const std::string challenge = std::string(POOLSCOPE_SOURCE_DIR) + "/scenarios/challenges/lab01-lost-wakeup.json";
  Result c = run("challenge check " + challenge);
  REQUIRE(c.code == 0);
  CHECK(c.out.find("won by its stored schedule") != std::string::npos);

  // A stepped run's result replays as a schedule: the same events.
  const fs::path first = fs::temp_directory_path() / "poolscope-schedule-cli-first.json";
  const fs::path again = fs::temp_directory_path() / "poolscope-schedule-cli-again.json";
  const fs::path sched = scratch("s.json", R"({"format": "poolscope-schedule/1", "scenario": "burst-then-idle",
      "pool": "fasthttp", "seed": 5, "policy": "random", "picks": ""})");
  REQUIRE(run("run --schedule " + sched.string() + " --events -q --json " + first.string()).code == 0);
  json a = read_json(first);
  REQUIRE(a["run"]["simulation"].contains("schedule"));
  CHECK(!a["run"]["simulation"]["schedule"].empty());
  REQUIRE(run("run --schedule " + first.string() + " --events -q --json " + again.string()).code == 0);
  json b = read_json(again);
  CHECK(b["run"]["simulation"]["schedule"] == a["run"]["simulation"]["schedule"]);
  CHECK(b["pools"][0]["events"] == a["pools"][0]["events"]);
}

TEST_CASE("bad schedules and challenges: exit 2, the file and the field named") {
  const fs::path bad_picks = scratch("bad-picks.json", R"({"format": "poolscope-schedule/1", "scenario":
      "burst-then-idle", "pool": "fasthttp", "picks": "1.x.2"})");
  Result r = run("run --schedule " + bad_picks.string() + " -q");
  CHECK(r.code == 2);
  CHECK(r.err.find(bad_picks.string() + ": /picks") != std::string::npos);
  CHECK(r.err.find("pick 2") != std::string::npos);

  const fs::path unfit = scratch("unfit.json", R"({"format": "poolscope-schedule/1", "scenario":
      "burst-then-idle", "pool": "fasthttp", "seed": 1, "picks": "999"})");
  r = run("run --schedule " + unfit.string() + " -q");
  CHECK(r.code == 2);
  CHECK(r.err.find(unfit.string() + ": /picks") != std::string::npos);
  CHECK(r.err.find("does not fit the run: at decision 0") != std::string::npos);

  const fs::path bad_goal = scratch("bad-goal.json", R"({"format": "poolscope-challenge/1", "name": "x",
      "title": "x", "pool": "fasthttp", "goal": {"kind": "win"}, "hint": "", "explanation": "",
      "scenario": {"format": "poolscope-scenario/1", "name": "x", "lesson": "x", "phases": [{"name": "a", "duration": "1s",
      "arrival": {"kind": "idle"}}], "pools": [{"name": "fasthttp", "design": "fasthttp"}]}})");
  r = run("challenge check " + bad_goal.string());
  CHECK(r.code == 2);
  CHECK(r.err.find(bad_goal.string() + ": /goal/kind") != std::string::npos);

  // The challenge pools are found by name, and never listed as designs.
  Result pools = run("pools");
  CHECK(pools.out.find("lab01-lost-wakeup") == std::string::npos);
}
