// Every way a scenario file can be wrong gets a message naming the file, the
// JSON path and what was expected.
#include <unistd.h>

#include <fstream>
#include <limits>

#include <catch2/catch.hpp>

#include "scenarios/engine/json_reader.h"
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

// A scratch file of this process: parallel test runs must not share it.
std::string temp_path(const std::string& name) { return "/tmp/poolscope-" + std::to_string(::getpid()) + "-" + name; }

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
  CHECK(error_of(with("/seed", -1)) == "s.json: /seed: expected an integer in [0, 18446744073709551615], got -1");
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
  CHECK_THROWS_WITH(load_scenario("/nonexistent/x.json"), "/nonexistent/x.json: cannot read the file: No such file or directory");
  std::string path = temp_path("bad-scenario.json");
  std::ofstream(path) << "{\"name\": \"x\",\n \"lesson\": }";
  CHECK_THROWS_WITH(load_scenario(path), Contains(path + ": not valid JSON: ") && Contains("line 2"));
}

TEST_CASE("scenario: replay reads arrival times from a CSV file") {
  std::string path = temp_path("replay.csv");
  std::ofstream(path) << "time\n0.5\n0.1\n# a comment\n0.9, extra columns\n";
  Scenario s = parse_scenario(with("/phases/0/arrival", {{"kind", "replay"}, {"file", path}}), "s.json", "/tmp");
  CHECK(s.phases[0].arrival.times == std::vector<Nanos>{std::chrono::milliseconds(100), std::chrono::milliseconds(500),
                                                        std::chrono::milliseconds(900)});  // sorted
  // A header may follow comments; a file without one starts with data.
  std::ofstream(path) << "# recorded\nt_s,who\n0.25\n";
  CHECK(parse_scenario(with("/phases/0/arrival", {{"kind", "replay"}, {"file", path}}), "s.json", "/tmp")
            .phases[0]
            .arrival.times == std::vector<Nanos>{std::chrono::milliseconds(250)});
  auto error_for = [&](const std::string& text) {
    std::ofstream(path) << text;
    return error_of(with("/phases/0/arrival", {{"kind", "replay"}, {"file", path}}));
  };
  const std::string where = "s.json: /phases/0/arrival/file: replay file '" + path + "' line ";
  CHECK(error_for("0.5\nsoon\n") == where + "2: expected a time in seconds >= 0 in the first column, got \"soon\"");
  // A number on the first line is data, not a header: a negative one is an error.
  CHECK(error_for("-0.5\n0.2\n") == where + "1: expected a time in seconds >= 0 in the first column, got \"-0.5\"");
  CHECK(error_for("time\n0.2\nsecond header\n") ==
        where + "3: expected a time in seconds >= 0 in the first column, got \"second header\"");
  // A time past the phase is an error, not silently dropped; the phase lasts 1 s.
  CHECK(error_for("0.5\n2.0\n") ==
        where + "2: 2.0 s is past the end of the phase: its times must be < its duration (1s)");
  CHECK(error_for("1\n") == where + "1: 1 s is past the end of the phase: its times must be < its duration (1s)");
  CHECK_THAT(error_of(with("/phases/0/arrival", {{"kind", "replay"}, {"file", "missing.csv"}})),
             Contains("/phases/0/arrival/file: cannot read replay file"));
  std::remove(path.c_str());
}

TEST_CASE("scenario: the rest of the error paths, each with its exact message") {
  // Arrivals.
  CHECK(error_of(with("/phases/0/arrival", {{"kind", "ramp"}, {"from", 0}, {"to", 0}})) ==
        "s.json: /phases/0/arrival/to: expected a rate > 0 at one end of the ramp, got 0");
  CHECK(error_of(with("/phases/0/arrival", {{"kind", "ramp"}, {"from", -1}, {"to", 5}})) ==
        "s.json: /phases/0/arrival/from: expected a number in [0, 1000000], got -1");
  CHECK(error_of(with("/phases/0/arrival", {{"kind", "burst"}, {"count", 5}, {"every", "500us"}})) ==
        "s.json: /phases/0/arrival/every: expected a duration >= 1ms (or 0 for a single burst), got \"500us\"");
  CHECK(error_of(with("/phases/0/arrival", {{"kind", "burst"}, {"count", 5}, {"every", "1ms"}})) == "no error");
  CHECK(error_of(with("/phases/0/arrival", {{"kind", "closed_loop"}, {"clients", 2}, {"think", "-1s"}})) ==
        "s.json: /phases/0/arrival/think: expected a duration >= 0, got \"-1s\"");

  // Children nest at most 4 deep: the 5th level is refused.
  json task = {{"duration", "1ms"}};
  for (int depth = 0; depth < 5; ++depth) task = {{"duration", "1ms"}, {"children", {{"count", 1}, {"task", task}}}};
  CHECK(error_of(with("/task", task)) ==
        "s.json: /task/children/task/children/task/children/task/children/task/children: expected children nested at "
        "most 4 deep, got {\"count\":1,\"task\":{\"duration\":\"1ms\"}}");
  task = task["children"]["task"];  // 4 levels: fine
  CHECK(error_of(with("/task", task)) == "no error");
  CHECK(error_of(with("/task/children", {{"count", 0}, {"task", {{"duration", "1ms"}}}})) ==
        "s.json: /task/children/count: expected an integer in [1, 1000], got 0");

  // Priority: an integer or a range, both within +-1000000.
  CHECK(error_of(with("/task/priority", {{"min", 5}, {"max", 2}})) ==
        "s.json: /task/priority/max: expected an integer in [5, 1000000], got 2");
  CHECK(error_of(with("/task/priority", {{"min", -2000000}, {"max", 2}})) ==
        "s.json: /task/priority/min: expected an integer in [-1000000, 1000000], got -2000000");
  CHECK(error_of(with("/task/priority", {{"min", 1}})) ==
        "s.json: /task/priority/max: is required (an integer in [1, 1000000])");
  CHECK(error_of(with("/task/priority", 2000000)) ==
        "s.json: /task/priority: expected an integer in [-1000000, 1000000], got 2000000");
  CHECK(error_of(with("/task/priority", -2000000)) ==
        "s.json: /task/priority: expected an integer in [-1000000, 1000000], got -2000000");
  CHECK(error_of(with("/task/priority", json::parse("99999999999999999999"))) ==
        "s.json: /task/priority: expected an integer in [-1000000, 1000000] or {\"min\": a, \"max\": b}, got "
        "1e+20");
  CHECK(error_of(with("/task/priority", json::parse("-9223372036854775808"))) ==
        "s.json: /task/priority: expected an integer in [-1000000, 1000000], got -9223372036854775808");
  CHECK(error_of(with("/task/priority", json::parse("18446744073709551615"))) ==
        "s.json: /task/priority: expected an integer in [-1000000, 1000000], got 18446744073709551615");
  CHECK(error_of(with("/task/priority", "high")) ==
        "s.json: /task/priority: expected an integer in [-1000000, 1000000] or {\"min\": a, \"max\": b}, got \"high\"");
  CHECK(parse_scenario(with("/task/priority", -1000000), "s.json", ".").phases[0].task.priority_min == -1000000);

  // Distributions.
  CHECK(error_of(with("/task/duration", {{"dist", "lognormal"}, {"median", "10ms"}, {"sigma", 11}})) ==
        "s.json: /task/duration/sigma: expected a number in [0, 10], got 11");
  CHECK(error_of(with("/task/duration", {{"dist", "lognormal"}, {"median", "10ms"}, {"sigma", -0.5}})) ==
        "s.json: /task/duration/sigma: expected a number in [0, 10], got -0.5");
  CHECK(error_of(with("/task/duration", {{"dist", "pareto"}, {"scale", "5ms"}, {"shape", 0}})) ==
        "s.json: /task/duration/shape: expected a number in (0, 100], got 0");
  CHECK(error_of(with("/task/duration", {{"dist", "pareto"}, {"scale", "5ms"}, {"shape", 101}})) ==
        "s.json: /task/duration/shape: expected a number in (0, 100], got 101");
  CHECK(error_of(with("/task/duration", {{"dist", "pareto"}, {"scale", "5ms"}, {"shape", 1.5}, {"max", "1ms"}})) ==
        "s.json: /task/duration/max: expected a duration >= scale (5ms), got \"1ms\"");
  CHECK(error_of(with("/task/duration", {{"dist", "mix"}, {"of", {{{"weight", 0}, {"value", "1ms"}}}}})) ==
        "s.json: /task/duration/of/0/weight: expected a number > 0, got 0");
  CHECK(error_of(with("/task/duration", {{"dist", "mix"}, {"of", {{{"weight", 1}, {"value", "1ms"}}, 3}}})) ==
        "s.json: /task/duration/of/1: expected an object, got 3");
  CHECK(error_of(with("/task/duration", {{"dist", "mix"}, {"of", {{{"weight", 1}}}}})) ==
        "s.json: /task/duration/of/0/value: is required");

  // Top level.
  CHECK(error_of(with("/submitters", 0)) == "s.json: /submitters: expected an integer in [1, 64], got 0");
  CHECK(error_of(with("/submitters", 65)) == "s.json: /submitters: expected an integer in [1, 64], got 65");
  CHECK(error_of(with("/drain", "later")) == "s.json: /drain: expected one of \"graceful\", \"now\", got \"later\"");
  CHECK(error_of(with("/watchdog", "0s")) ==
        "s.json: /watchdog: expected a duration string such as \"250ms\" or \"2s\" > 0s, got \"0s\"");
  CHECK(error_of(with("/watchdog", 5)) ==
        "s.json: /watchdog: expected a duration string such as \"250ms\" or \"2s\" > 0s, got 5");
  CHECK(error_of(with("/seed", 1.5)) == "s.json: /seed: expected an integer in [0, 18446744073709551615], got 1.5");
  CHECK(error_of(with("/name", 7)) == "s.json: /name: expected a string, got 7");
  json no_lesson = base();
  no_lesson.erase("lesson");
  CHECK(error_of(no_lesson) == "s.json: /lesson: is required (a string)");

  // Not objects where objects belong.
  CHECK(error_of(with("/phases/0", 3)) == "s.json: /phases/0: expected an object, got 3");
  CHECK(error_of(with("/phases/0/arrival", "burst")) == "s.json: /phases/0/arrival: expected an object, got \"burst\"");
  CHECK(error_of(with("/pools/0", "spawn")) == "s.json: /pools/0: expected an object, got \"spawn\"");
  CHECK(error_of(json::array({1, 2})) == "s.json: expected an object, got [1,2]");
  CHECK(error_of(json("scenario")) == "s.json: expected an object, got \"scenario\"");
}

TEST_CASE("scenario: the seed is any unsigned 64-bit integer") {
  CHECK(parse_scenario(with("/seed", json::parse("18446744073709551615")), "s.json", ".").seed ==
        18446744073709551615ull);
  CHECK(parse_scenario(with("/seed", json::parse("9223372036854775808")), "s.json", ".").seed ==
        9223372036854775808ull);
  Scenario s = parse_scenario(with("/seed", json::parse("18446744073709551615")), "s.json", ".");
  CHECK(parse_scenario(s.to_json(), "s.json", ".").seed == 18446744073709551615ull);  // and survives a round trip
  CHECK(error_of(with("/seed", json::parse("18446744073709551616"))) ==
        "s.json: /seed: expected an integer in [0, 18446744073709551615], got 1.8446744073709552e+19");
}

TEST_CASE("scenario: an optional pool whose design is not registered is skipped, not an error") {
  json j = base();
  j["pools"].push_back(
      {{"name", "mine"}, {"design", "lab99-student"}, {"optional", true}, {"config", {{"threads", 4}}}});
  Scenario s = parse_scenario(j, "s.json", ".");
  REQUIRE(s.pools.size() == 1);
  CHECK(s.pools[0].name == "spawn");
  REQUIRE(s.skipped.size() == 1);
  CHECK(s.skipped[0].name == "mine");
  CHECK(s.skipped[0].design == "lab99-student");
  CHECK(s.skipped[0].config == json{{"threads", 4}});
  CHECK(skip_reason(s.skipped[0]) == "design 'lab99-student' is not registered in this build");
  CHECK(s.to_json()["pools"].size() == 1);  // the normalized scenario is what ran

  // Registered, an optional pool runs like any other, and says it is optional.
  json reg = with("/pools/0/optional", true);
  Scenario r = parse_scenario(reg, "s.json", ".");
  CHECK(r.pools.size() == 1);
  CHECK(r.pools[0].optional);
  CHECK(r.skipped.empty());
  CHECK(r.to_json()["pools"][0]["optional"] == true);
  CHECK(parse_scenario(r.to_json(), "s.json", ".").to_json() == r.to_json());

  // Only a missing design is forgiven.
  CHECK(error_of(with("/pools/0", {{"design", "spawn"}, {"optional", true}, {"config", {{"X", 1}}}})) ==
        "s.json: /pools/0/config/X: unknown parameter 'X' for pool design 'spawn'; known: none");
  CHECK(error_of(with("/pools/0/optional", "yes")) == "s.json: /pools/0/optional: expected true or false, got \"yes\"");
  json typo = base();
  typo["pools"].push_back({{"design", "lab99-student"}, {"optional", true}, {"confg", json::object()}});
  CHECK(error_of(typo) == "s.json: /pools/1/confg: unknown key 'confg' (did you mean 'config'?)");
  json bad_config = base();
  bad_config["pools"].push_back({{"design", "lab99-student"}, {"optional", true}, {"config", 3}});
  CHECK(error_of(bad_config) == "s.json: /pools/1/config: expected an object, got 3");
  json twice = base();
  twice["pools"].push_back({{"name", "spawn"}, {"design", "lab99-student"}, {"optional", true}});
  CHECK(error_of(twice) == "s.json: /pools/1/name: pool name 'spawn' is used twice; give each pool a unique \"name\"");
  // Not optional: the usual error.
  CHECK_THAT(error_of(with("/pools/0/design", "lab99-student")),
             Contains("s.json: /pools/0/design: unknown pool design 'lab99-student'"));
  // Something must run.
  CHECK(error_of(with("/pools", {{{"design", "lab98-student"}, {"optional", true}},
                                 {{"design", "lab99-student"}, {"optional", true}}})) ==
        "s.json: /pools: nothing to run: every pool is optional and no design of theirs is registered in this build "
        "(lab98-student, lab99-student)");
}

TEST_CASE("scenario: --set names a pool, else every pool of that design") {
  json j = base();
  j["pools"] = json::parse(R"([{"name": "small", "design": "ants", "config": {"size": 4}},
                               {"name": "big", "design": "ants", "config": {"size": 64}},
                               {"design": "java"}])");
  Overrides o;
  o.settings = {{"ants.ExpiryDuration", "2s"}};
  json by_design = apply_overrides(j, o);
  CHECK(by_design["pools"][0]["config"] == json{{"size", 4}, {"ExpiryDuration", "2s"}});
  CHECK(by_design["pools"][1]["config"] == json{{"size", 64}, {"ExpiryDuration", "2s"}});
  CHECK_FALSE(by_design["pools"][2].contains("config"));
  o.settings = {{"big.size", 8}};  // a name picks that pool only
  json by_name = apply_overrides(j, o);
  CHECK(by_name["pools"][0]["config"]["size"] == 4);
  CHECK(by_name["pools"][1]["config"]["size"] == 8);
  o.settings = {{"java.corePoolSize", 2}};  // a pool named after its design (no "name")
  CHECK(apply_overrides(j, o)["pools"][2]["config"]["corePoolSize"] == 2);
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
  CHECK_THROWS_WITH(apply_overrides(base(), o),
                    "--set other.X: no pool 'other' in this run (its pools: spawn), by name or by design");
  o.settings = {{"spawn.X", 3}};
  CHECK(error_of(apply_overrides(base(), o)) ==
        "s.json: /pools/0/config/X: unknown parameter 'X' for pool design 'spawn'; known: none");
  o = {};
  o.seed = 18446744073709551615ull;
  CHECK(parse_scenario(apply_overrides(base(), o), "s.json", ".").seed == 18446744073709551615ull);
  o = {};
  o.time_scale = 20;
  CHECK(parse_scenario(apply_overrides(base(), o), "s.json", ".").time_scale == 20);
  CHECK(apply_overrides(base(), o)["time_scale"].is_number_integer());
  o.time_scale = 2.5;
  CHECK(apply_overrides(base(), o)["time_scale"] == 2.5);
  o.time_scale = 5000;
  CHECK_THROWS_WITH(apply_overrides(base(), o), "--time-scale 5000: expected a number in [0.001, 1000]");
  o.time_scale = 0.0005;
  CHECK_THROWS_WITH(apply_overrides(base(), o), "--time-scale 0.0005: expected a number in [0.001, 1000]");
}

TEST_CASE("scenario: --pool picks the scenario's entries, configured as the scenario says") {
  json j = base();
  j["pools"] = {{{"name", "four"}, {"design", "test-fixed"}, {"config", {{"Workers", 4}}}},
                {{"name", "six"}, {"design", "test-fixed"}, {"config", {{"Workers", 6}}}},
                {{"design", "spawn"}},
                {{"name", "student"}, {"design", "lab99-student"}, {"optional", true}, {"config", {{"threads", 2}}}},
                {{"name", "opt"}, {"design", "spawn"}, {"optional", true}}};
  auto picked = [&](std::vector<std::string> names) {
    Overrides o;
    o.pools = std::move(names);
    return parse_scenario(apply_overrides(j, o), "s.json", ".");
  };
  // By entry name, with its parameters (not a default-configured design).
  Scenario s = picked({"six"});
  REQUIRE(s.pools.size() == 1);
  CHECK(s.pools[0].name == "six");
  CHECK(s.pools[0].config == json{{"Workers", 6}});
  // By design when no entry has that name: every entry of the design, each configured.
  s = picked({"test-fixed"});
  REQUIRE(s.pools.size() == 2);
  CHECK(s.pools[0].name == "four");
  CHECK(s.pools[1].name == "six");
  // In the order asked for, each once.
  s = picked({"spawn", "six", "test-fixed"});
  REQUIRE(s.pools.size() == 3);
  CHECK(s.pools[0].name == "spawn");
  CHECK(s.pools[1].name == "six");
  CHECK(s.pools[2].name == "four");
  // A registered design the scenario does not name runs with its defaults.
  json only_spawn = base();
  Overrides o;
  o.pools = {"test-fixed"};
  s = parse_scenario(apply_overrides(only_spawn, o), "s.json", ".");
  REQUIRE(s.pools.size() == 1);
  CHECK(s.pools[0].config == json::object());
  // Picked by name, an optional pool is required: it runs, or the run is refused.
  s = picked({"opt"});
  REQUIRE(s.pools.size() == 1);
  CHECK_FALSE(s.pools[0].optional);
  o.pools = {"student"};
  CHECK_THROWS_WITH(apply_overrides(j, o),
                    "--pool student: the scenario's pool 'student' is optional and its design "
                    "'lab99-student' is not registered in this build");
  // Unpicked, it is skipped as usual; --set may still address it.
  o.pools = {};
  o.settings = {{"student.threads", 3}};
  s = parse_scenario(apply_overrides(j, o), "s.json", ".");
  REQUIRE(s.skipped.size() == 1);
  CHECK(s.skipped[0].config == json{{"threads", 3}});
}

// Issue 53: one integer reader, exact before any narrowing.
TEST_CASE("scenario: a priority's min of 18446744073709551615 is refused, not read as -1 under a max of 5") {
  CHECK(error_of(with("/task/priority", json::parse(R"({"min": 18446744073709551615, "max": 5})"))) ==
        "s.json: /task/priority/min: expected an integer in [-1000000, 1000000], got 18446744073709551615");
  CHECK(error_of(with("/task/priority", json::parse(R"({"min": 6, "max": 5})"))) ==
        "s.json: /task/priority/max: expected an integer in [6, 1000000], got 5");
  CHECK(error_of(with("/task/priority", json::parse("-9223372036854775808"))) ==
        "s.json: /task/priority: expected an integer in [-1000000, 1000000], got -9223372036854775808");
}

TEST_CASE("integer_in: each edge of int64 and uint64 in or out of the field's own range, exactly") {
  const json u64max = json::parse("18446744073709551615"), p63 = json::parse("9223372036854775808"),
             m63 = json::parse("-9223372036854775808");
  CHECK(integer_in<std::uint64_t>(u64max) == 18446744073709551615ull);
  CHECK_FALSE(integer_in<std::int64_t>(u64max));
  CHECK_FALSE(integer_in<std::int64_t>(p63));
  CHECK(integer_in<std::int64_t>(m63) == std::numeric_limits<std::int64_t>::min());
  CHECK_FALSE(integer_in<std::uint64_t>(m63));
  CHECK_FALSE(integer_in<int>(json(2147483648LL)));
  CHECK(integer_in<int>(json(-2147483648LL)) == std::numeric_limits<int>::min());
  CHECK_FALSE(integer_in<int>(json(1.0)));  // a number with a fraction part is not an integer field's
  CHECK_FALSE(integer_in<std::int64_t>(json("7")));
  CHECK_THROWS_WITH(integer_at<std::uint32_t>(m63, "/x"),
                    "/x: expected an integer in [0, 4294967295], got -9223372036854775808");
}
