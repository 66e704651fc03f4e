// Each finding's rule fires on a shipped scenario that shows its behaviour
// and stays quiet on a pool of a run that does not. Every run is simulated
// (--sim): the same figures on every machine, no waiting on real time.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "scenarios/engine/findings.h"
#include "scenarios/engine/library.h"
#include "scenarios/engine/result_json.h"
#include "scenarios/engine/result_reader.h"

using namespace poolscope;
using namespace poolscope::scenario;

namespace {

struct Found {
  RunResult run;
  std::vector<findings::Finding> all;
  std::vector<findings::Finding> of(const std::string& rule, const std::string& pool) const {
    std::vector<findings::Finding> out;
    for (const auto& f : all)
      if (f.rule == rule && f.pool == pool) out.push_back(f);
    return out;
  }
  const PoolOutcome& outcome(const std::string& pool) const {
    for (const auto& p : run.outcome.pools)
      if (p.name == pool) return p;
    FAIL("no pool " << pool);
    throw;
  }
};

// A shipped scenario, simulated; `edit` may change its JSON first.
Found simulate(const std::string& name, void (*edit)(json&) = nullptr) {
  json j = read_scenario_json(resolve_scenario(name));
  if (edit) edit(j);
  Scenario s = parse_scenario(j, name, ".");
  RunOptions o;
  o.simulation = simulation_settings(s);
  Found f{run_scenario(s, o), {}};
  f.all = findings::find(f.run.outcome, f.run.metrics);
  return f;
}

// What every finding promises: a range within the run, one-line texts, and
// a parameter that names the design's own parameters.
void check_well_formed(const Found& found) {
  for (const auto& f : found.all) {
    INFO(f.pool << " " << f.rule << ": " << f.summary);
    CHECK(f.from >= 0);
    CHECK(f.to >= f.from);
    CHECK(f.to <= found.run.metrics.pool(found.outcome(f.pool).trace_id)->last_time());
    for (const std::string* text : {&f.summary, &f.why}) {
      CHECK_FALSE(text->empty());
      CHECK(text->find('\n') == std::string::npos);
    }
    CHECK_FALSE(f.evidence.empty());
    const json& config = found.outcome(f.pool).config;
    bool names_one = false;
    for (const auto& [key, value] : config.items()) names_one = names_one || f.parameter.find(key) != std::string::npos;
    CHECK(names_one);
  }
}

double evidence(const findings::Finding& f, const std::string& key) {
  for (const auto& [k, v] : f.evidence)
    if (k == key) return v;
  FAIL("no evidence " << key << " in " << f.rule);
  return 0;
}

}  // namespace

TEST_CASE("nested-submit's deadlock is a stall with the parents that hold the workers", "[findings]") {
  Found f = simulate("nested-submit");
  check_well_formed(f);
  auto stall = f.of("stall", "gammazero");
  REQUIRE(stall.size() == 1);
  CHECK(evidence(stall[0], "running") == 4);  // the four parents, one per worker
  CHECK(evidence(stall[0], "queued") > 0);    // their children, queued behind them
  CHECK(stall[0].summary.find("(1,2,3,4)") != std::string::npos);
  CHECK(stall[0].parameter == "maxWorkers");
  // ants without a limit starts a worker per child: no stall, no finding.
  CHECK(f.of("stall", "ants-unlimited").empty());
}

TEST_CASE("busy-wait's redis I/O threads idle while tasks wait for the next loop", "[findings]") {
  Found f = simulate("busy-wait");
  check_well_formed(f);
  auto idle = f.of("idle-while-queued", "redis-io-4");
  REQUIRE(idle.size() == 1);
  CHECK(evidence(idle[0], "max_idle_while_queued") >= 1);
  CHECK(evidence(idle[0], "longest_s") >= evidence(idle[0], "threshold_s"));
  // nginx's threads take from its one queue as soon as they are free.
  CHECK(f.of("idle-while-queued", "nginx-4").empty());
}

TEST_CASE("java-queues' unbounded queue keeps the pool at its core", "[findings]") {
  Found f = simulate("java-queues");
  check_well_formed(f);
  auto stuck = f.of("stuck-at-core", "linked-unbounded");
  REQUIRE(stuck.size() == 1);
  CHECK(evidence(stuck[0], "peak_workers") == 4);
  CHECK(evidence(stuck[0], "max") == 32);
  CHECK(stuck[0].parameter.find("workQueue") != std::string::npos);
  // A bounded queue fills and the pool grows past core.
  CHECK(f.of("stuck-at-core", "array-16").empty());
  CHECK(f.of("stuck-at-core", "synchronous").empty());
}

TEST_CASE("periodic-bursts' ants reaps in every gap and starts its workers again", "[findings]") {
  Found f = simulate("periodic-bursts");
  check_well_formed(f);
  auto churn = f.of("spawn-reap-churn", "ants");
  REQUIRE(churn.size() == 1);
  CHECK(evidence(churn[0], "respawns") >= evidence(churn[0], "peak_workers"));
  CHECK(churn[0].parameter == "ExpiryDuration");
  // fasthttp's cleaner (10 s) keeps them all through the gaps.
  CHECK(f.of("spawn-reap-churn", "fasthttp").empty());
}

TEST_CASE("burst-then-idle's coremax never lets a worker go", "[findings]") {
  Found f = simulate("burst-then-idle");
  check_well_formed(f);
  auto never = f.of("never-expire", "coremax");
  REQUIRE(never.size() == 1);
  CHECK(evidence(never[0], "floor") == 4);  // coreSize: kept by design
  CHECK(evidence(never[0], "idle_above_floor") > 0);
  CHECK(never[0].parameter.find("coreSize") != std::string::npos);
  // Every other design shrinks after the burst.
  for (const char* pool : {"fasthttp", "ants", "gammazero", "java"}) {
    INFO(pool);
    CHECK(f.of("never-expire", pool).empty());
  }
}

TEST_CASE("multipool's LeastTasks refuses in one sub-pool while the others idle", "[findings]") {
  Found f = simulate("multipool");
  check_well_formed(f);
  auto refused = f.of("refused-below-max", "multi-leasttasks");
  REQUIRE(refused.size() == 1);
  CHECK(evidence(refused[0], "with_idle_workers") > 100);
  CHECK(refused[0].parameter.find("lbs") != std::string::npos);
  // One ants pool of the same 16 workers refuses only when all are busy.
  CHECK(f.of("refused-below-max", "ants-16").empty());
}

TEST_CASE("php-fpm's refusals with room say what makes its master fork, by process manager", "[findings]") {
  // phpfpm-backlog's non-blocking clients against an ondemand pool: the
  // backlog fills while the master forks one child per wake-up.
  Found f = simulate("phpfpm-backlog", [](json& j) {
    j["pools"][0]["config"]["pm"] = "ondemand";
    j["pools"][0]["config"]["pm.max_children"] = 40;
  });
  check_well_formed(f);
  auto refused = f.of("refused-below-max", "nonblocking-unix");
  REQUIRE(refused.size() == 1);
  CHECK(refused[0].why.find("one child per wake-up of the master") != std::string::npos);
  CHECK(refused[0].why.find("once a second") == std::string::npos);
}

TEST_CASE("overload's refusals all come at the maximum", "[findings]") {
  Found f = simulate("overload");
  check_well_formed(f);
  for (const char* pool : {"fasthttp", "ants-nonblocking", "java-abort"}) {
    INFO(pool);
    REQUIRE(f.outcome(pool).accounting.refused > 0);
    CHECK(f.of("refused-below-max", pool).empty());
  }
}

TEST_CASE("mm-c's ants blocks its submitter longer than a task", "[findings]") {
  Found f = simulate("mm-c");
  check_well_formed(f);
  auto blocked = f.of("blocked-submitters", "ants");
  REQUIRE(blocked.size() == 1);
  CHECK(evidence(blocked[0], "longest_s") > evidence(blocked[0], "median_task_s"));
  CHECK(blocked[0].parameter.find("Nonblocking") != std::string::npos);
}

TEST_CASE("overload's ants blocks, but never as long as a task: no finding", "[findings]") {
  Found f = simulate("overload");
  REQUIRE(f.run.metrics.pool(f.outcome("ants").trace_id)->totals().peak_blocked > 0);
  CHECK(f.of("blocked-submitters", "ants").empty());
}

// heavy-tail as shipped gives each pool 16 workers, which its seed's tail
// never fills when simulated (7 at most): with 4 each, the huge tasks hold
// the workers and the queueing designs make the short tasks behind them wait.
TEST_CASE("heavy-tail with 4 workers a pool makes short tasks wait behind long ones", "[findings]") {
  Found f = simulate("heavy-tail", [](json& j) {
    for (json& p : j["pools"]) {
      json& c = p["config"];
      for (const char* key : {"MaxWorkersCount", "size", "maxWorkers", "corePoolSize", "maximumPoolSize"})
        if (c.contains(key)) c[key] = 4;
    }
  });
  check_well_formed(f);
  for (const char* pool : {"gammazero", "java"}) {
    INFO(pool);
    auto hol = f.of("head-of-line", pool);
    REQUIRE(hol.size() == 1);
    CHECK(evidence(hol[0], "held_up") >= 3);
    CHECK(evidence(hol[0], "longest_wait_s") >= evidence(hol[0], "long_wait_s"));
  }
  // fasthttp has no queue: it refuses instead, and nobody waits.
  CHECK(f.of("head-of-line", "fasthttp").empty());
}

TEST_CASE("a pool that keeps up finds nothing", "[findings]") {
  // steady-poisson's fasthttp and java follow the load; what the others show is each one's lesson.
  Found f = simulate("steady-poisson");
  check_well_formed(f);
  for (const char* pool : {"fasthttp", "java"}) {
    INFO(pool);
    for (const auto& x : f.all) CHECK_FALSE(x.pool == pool);
  }
}

// A PoolOutcome made by hand has a null config (bench_pipeline's did, and
// the result writer threw type_error.306 from stuck-at-core's json::value()
// on it): the rules then read no parameter, find nothing that needs one,
// and the result is written all the same.
TEST_CASE("a pool without a config: the rules read no parameter, and the result is still written", "[findings]") {
  const Found with = simulate("java-queues");
  REQUIRE(with.of("stuck-at-core", "linked-unbounded").size() == 1);
  Found f = simulate("java-queues");
  for (PoolOutcome& p : f.run.outcome.pools) p.config = nullptr;
  f.run.outcome.pools.back().config = "not an object";
  REQUIRE_NOTHROW(f.all = findings::find(f.run.outcome, f.run.metrics));
  CHECK(f.of("stuck-at-core", "linked-unbounded").empty());  // its core is unknown
  const Scenario s = parse_scenario(read_scenario_json(resolve_scenario("java-queues")), "java-queues", ".");
  std::ostringstream out;
  REQUIRE_NOTHROW(write_result(out, s, f.run.outcome, f.run.metrics, ResultOptions{.include_events = true}));
  const json doc = json::parse(out.str());
  REQUIRE(doc["pools"].size() == f.run.outcome.pools.size());
  CHECK(doc["pools"][0]["config"].is_null());
  CHECK(doc["pools"][0]["summary"]["tasks"]["submitted"].get<std::uint64_t>() > 0);
  CHECK(doc["pools"][0].contains("events"));
}

// The runner writes the findings it prints, and a replay reads them back as
// they were found (the GUI's Findings tab on a result file).
TEST_CASE("the runner's result carries the findings, and they read back as found", "[findings]") {
  const std::string out = "findings-java-queues.json", table = "findings-java-queues.txt";
  const std::string cmd = std::string(POOLSCOPE_RUNNER) + " run java-queues --sim --out " + out + " > " + table;
  REQUIRE(std::system(cmd.c_str()) == 0);
  std::ifstream printed(table);
  std::stringstream text;
  text << printed.rdbuf();
  CHECK(text.str().find("linked-unbounded: stuck-at-core, 0.531-13.177 s") != std::string::npos);
  CHECK(text.str().find("parameter: workQueue, queueCapacity, corePoolSize") != std::string::npos);

  const ResultFile file = load_result(out);
  const auto read = findings::findings_from_json(file.findings);
  const Found here = simulate("java-queues");
  REQUIRE(read.size() == here.all.size());
  for (std::size_t i = 0; i < read.size(); ++i) {
    INFO(i);
    CHECK(read[i].rule == here.all[i].rule);
    CHECK(read[i].pool == here.all[i].pool);
    CHECK(std::abs(read[i].from - here.all[i].from) <= 1);  // seconds in the file: rounding only
    CHECK(std::abs(read[i].to - here.all[i].to) <= 1);
    CHECK(read[i].summary == here.all[i].summary);
    CHECK(read[i].parameter == here.all[i].parameter);
    CHECK(read[i].evidence.size() == here.all[i].evidence.size());
  }
}
