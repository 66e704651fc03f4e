// Every way a scenario file can be wrong gets a message naming the file, the
// JSON path and what was expected.
#include <fstream>

#include <catch2/catch.hpp>

#include "scenarios/engine/scenario.h"

using namespace poolscope;
using namespace poolscope::scenario;
using Catch::Matchers::Contains;

namespace {

json base() {
  return json::parse(R"({
    "name": "t", "lesson": "a test",
    "task": {"duration": "10ms"},
    "phases": [{"duration": "1s", "arrival": {"kind": "constant", "rate": 10}}],
    "pools": [{"design": "spawn"}]
  })");
}

std::string error_of(const json& j) {
  try {
    parse_scenario(j, "s.json", ".");
  } catch (const ScenarioError& e) {
    return e.what();
  }
  return "no error";
}

json with(const std::string& pointer, json value) {
  json j = base();
  j[json::json_pointer(pointer)] = std::move(value);
  return j;
}

}  // namespace

TEST_CASE("scenario: a minimal scenario parses with its defaults") {
  Scenario s = parse_scenario(base(), "s.json", ".");
  CHECK(s.name == "t");
  CHECK(s.seed == 1);
  CHECK(s.time_scale == 1);
  CHECK(s.schedule == Schedule::side_by_side);
  CHECK_FALSE(s.watchdog.has_value());
  CHECK(s.drain == ShutdownMode::graceful);
  REQUIRE(s.phases.size() == 1);
  CHECK(s.phases[0].name == "phase 1");
  CHECK(s.phases[0].task.duration.mean() == std::chrono::milliseconds(10));
  CHECK(s.pools[0].name == "spawn");
  CHECK(s.duration() == std::chrono::seconds(1));
  // The normalized form parses back to the same thing.
  Scenario again = parse_scenario(s.to_json(), "s.json", ".");
  CHECK(again.to_json() == s.to_json());
}

TEST_CASE("scenario: every bad field is named with its path and what was expected") {
  CHECK(error_of(with("/phases/0/arrival/rate", "fast")) ==
        "s.json: /phases/0/arrival/rate: expected a number in (0, 1000000], got \"fast\"");
  CHECK(error_of(with("/phases/0/arrival/rate", 0)) ==
        "s.json: /phases/0/arrival/rate: expected a number in (0, 1000000], got 0");
  CHECK(error_of(with("/phases/0/arrival/kind", "steady")) ==
        "s.json: /phases/0/arrival/kind: expected one of \"constant\", \"poisson\", \"burst\", \"ramp\", \"idle\", "
        "\"closed_loop\", \"replay\", got \"steady\"");
  CHECK(error_of(with("/phases/0/duration", "1 second")) ==
        "s.json: /phases/0/duration: expected a duration string such as \"250ms\" or \"2s\" > 0s, got \"1 second\"");
  CHECK(error_of(with("/phases/0/duration", "0s")) ==
        "s.json: /phases/0/duration: expected a duration string such as \"250ms\" or \"2s\" > 0s, got \"0s\"");
  CHECK(
      error_of(with("/task/duration", 10)) ==
      "s.json: /task/duration: expected a duration such as \"10ms\" or a distribution object {\"dist\": ...}, got 10");
  CHECK(error_of(with("/task/duration", {{"dist", "gamma"}})) ==
        "s.json: /task/duration/dist: expected one of \"fixed\", \"uniform\", \"exponential\", \"normal\", "
        "\"lognormal\", \"pareto\", \"mix\", got \"gamma\"");
  CHECK(error_of(with("/task/duration", {{"dist", "uniform"}, {"min", "5ms"}, {"max", "1ms"}})) ==
        "s.json: /task/duration/max: expected a duration >= min (5ms), got \"1ms\"");
  CHECK(error_of(with("/task/duration", {{"dist", "exponential"}})) ==
        "s.json: /task/duration/mean: is required (a duration string such as \"250ms\" or \"2s\" > 0s)");
  CHECK(error_of(with("/task/duration", {{"dist", "mix"}, {"of", json::array()}})) ==
        "s.json: /task/duration/of: expected a non-empty array of {\"weight\": w, \"value\": distribution}, got []");
  CHECK(error_of(with("/task/throw_probability", 1.5)) ==
        "s.json: /task/throw_probability: expected a number in [0, 1], got 1.5");
  CHECK(error_of(with("/task/kind", "io")) == "s.json: /task/kind: expected one of \"sleep\", \"spin\", got \"io\"");
  CHECK(error_of(with("/phases", json::array())) == "s.json: /phases: expected a non-empty array of phases, got []");
  CHECK(error_of(with("/pools", json::object())) ==
        "s.json: /pools: expected a non-empty array of pools to compare, got {}");
  CHECK(error_of(with("/seed", -1)) == "s.json: /seed: expected an integer >= 0, got -1");
  CHECK(error_of(with("/time_scale", 0)) == "s.json: /time_scale: expected a number in [0.001, 1000], got 0");
  CHECK(error_of(with("/schedule", "parallel")) ==
        "s.json: /schedule: expected one of \"side_by_side\", \"sequential\", got \"parallel\"");
  CHECK(error_of(with("/format", "poolscope-scenario/9")) ==
        "s.json: /format: expected \"poolscope-scenario/1\", got \"poolscope-scenario/9\"");
  CHECK(error_of(with("/phases/0/arrival", {{"kind", "burst"}, {"count", 0}})) ==
        "s.json: /phases/0/arrival/count: expected an integer in [1, 1000000], got 0");
  CHECK(error_of(with("/phases/0/arrival", {{"kind", "closed_loop"}})) ==
        "s.json: /phases/0/arrival/clients: is required (an integer in [1, 10000])");
}

TEST_CASE("scenario: unknown keys are errors, with a suggestion for typos") {
  CHECK(error_of(with("/seeed", 3)) == "s.json: /seeed: unknown key 'seeed' (did you mean 'seed'?)");
  CHECK(error_of(with("/phases/0/arrival/rat", 3)) ==
        "s.json: /phases/0/arrival/rat: unknown key 'rat' (did you mean 'rate'?)");
  CHECK(error_of(with("/task/children", {{"count", 2}, {"task", {{"duration", "1ms"}}}, {"wiat", true}})) ==
        "s.json: /task/children/wiat: unknown key 'wiat' (did you mean 'wait'?)");
  CHECK(error_of(with("/colour", "blue")) == "s.json: /colour: unknown key 'colour'");
}

TEST_CASE("scenario: pools must exist, be named once and have valid configs") {
  CHECK_THAT(error_of(with("/pools/0/design", "fasthtp")),
             Contains("s.json: /pools/0/design: unknown pool design 'fasthtp' (known: ") && Contains("spawn"));
  json twice = base();
  twice["pools"].push_back({{"design", "spawn"}});
  CHECK(error_of(twice) == "s.json: /pools/1/name: pool name 'spawn' is used twice; give each pool a unique \"name\"");
  CHECK(error_of(with("/pools/0/config", {{"Workers", 3}})) ==
        "s.json: /pools/0/config/Workers: unknown parameter 'Workers' for pool design 'spawn'; known: none");
}

TEST_CASE("scenario: a phase without a task needs a scenario-wide one, unless it is idle") {
  json j = base();
  j.erase("task");
  CHECK(error_of(j) == "s.json: /phases/0/task: is required (or give a scenario-wide \"task\")");
  j["phases"][0]["arrival"] = {{"kind", "idle"}};
  CHECK(error_of(j) == "no error");
}

TEST_CASE("scenario: files that are missing or not JSON say so") {
  CHECK_THROWS_WITH(load_scenario("/nonexistent/x.json"), "/nonexistent/x.json: cannot read the file");
  std::string path = "/tmp/poolscope-bad-scenario.json";
  std::ofstream(path) << "{\"name\": \"x\",\n \"lesson\": }";
  CHECK_THROWS_WITH(load_scenario(path), Contains(path + ": not valid JSON: ") && Contains("line 2"));
}

TEST_CASE("scenario: replay reads arrival times from a CSV file") {
  std::string path = "/tmp/poolscope-replay.csv";
  std::ofstream(path) << "time\n0.5\n0.1\n# a comment\n2.0\n";
  Scenario s = parse_scenario(with("/phases/0/arrival", {{"kind", "replay"}, {"file", path}}), "s.json", "/tmp");
  // Sorted; the 2.0 s arrival is past the 1 s phase and is dropped.
  CHECK(s.phases[0].arrival.times ==
        std::vector<Nanos>{std::chrono::milliseconds(100), std::chrono::milliseconds(500)});

  std::ofstream(path) << "0.5\nsoon\n";
  CHECK(error_of(with("/phases/0/arrival", {{"kind", "replay"}, {"file", path}})) ==
        "s.json: /phases/0/arrival/file: replay file '" + path +
            "' line 2: expected a time in seconds >= 0 in the first column, got \"soon\"");
  CHECK_THAT(error_of(with("/phases/0/arrival", {{"kind", "replay"}, {"file", "missing.csv"}})),
             Contains("/phases/0/arrival/file: cannot read replay file"));
}

TEST_CASE("scenario: command-line overrides pick pools and set parameters") {
  Overrides o;
  o.seed = 99;
  o.pools = {"spawn"};
  json j = apply_overrides(base(), o);
  CHECK(j["seed"] == 99);
  o.pools = {"nope"};
  CHECK_THROWS_WITH(apply_overrides(base(), o), Contains("no pool 'nope' in the scenario (spawn)"));
  o.pools = {};
  o.settings = {{"spawn", 3}};
  CHECK_THROWS_WITH(apply_overrides(base(), o), "--set spawn: expected POOL.PARAM=VALUE");
  o.settings = {{"other.X", 3}};
  CHECK_THROWS_WITH(apply_overrides(base(), o), "--set other.X: no pool 'other' in this run");
  o.settings = {{"spawn.X", 3}};
  CHECK(error_of(apply_overrides(base(), o)) ==
        "s.json: /pools/0/config/X: unknown parameter 'X' for pool design 'spawn'; known: none");
}
