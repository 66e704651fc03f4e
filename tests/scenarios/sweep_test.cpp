// Sweeps (scenarios/engine/sweep*.h): --param parsing against the registry,
// the grid, shards that cover every point exactly once, metric names, and a
// simulated sweep that gives the same figures every time, however many
// processes run its points.
#include "scenarios/engine/sweep.h"

#include <set>

#include <catch2/catch.hpp>

#include "scenarios/engine/sweep_json.h"
#include "scenarios/engine/sweep_run.h"

using namespace poolscope;
using namespace poolscope::scenario;
using namespace poolscope::scenario::sweep;
using Catch::Matchers::Contains;

namespace {

// Two ants pools (one named, one by design) and a java pool, simulated,
// short: a point runs in a few milliseconds.
json scenario_json() {
  return {{"name", "sweep"},
          {"lesson", "sweep test"},
          {"seed", 7},
          {"task", {{"duration", "100ms"}}},
          {"simulation", {{"cpus", 2}}},
          {"phases", {{{"name", "bursts"}, {"duration", "6s"}, {"arrival", {{"kind", "burst"}, {"count", 8}, {"every", "2s"}}}}}},
          {"pools",
           {{{"design", "ants"}, {"config", {{"size", 16}, {"ExpiryDuration", "1s"}}}},
            {{"name", "ants-2"}, {"design", "ants"}, {"config", {{"size", 16}}}},
            {{"design", "java"}, {"config", {{"corePoolSize", 1}, {"maximumPoolSize", 16}, {"workQueue", "SynchronousQueue"}}}}}}};
}

std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "";
}

std::vector<std::pair<std::size_t, Scenario>> points_of(const std::vector<Param>& params, Shard shard = {}) {
  std::vector<std::pair<std::size_t, Scenario>> out;
  for (std::size_t i : shard_points(grid_size(params), shard))
    out.emplace_back(i, parse_scenario(apply_overrides(scenario_json(), point_overrides({}, params, i)), "sweep.json", "."));
  return out;
}

// A sweep's JSON without what the host measures (wall time, the environment).
json figures(json j) {
  j.erase("environment");
  for (json& p : j["points"]) p.erase("wall_s");
  return j;
}

}  // namespace

TEST_CASE("sweep: a param names a pool by name or by design, and keeps each value as written") {
  Param by_name = parse_param("ants-2.ExpiryDuration=100ms,2s", scenario_json());
  CHECK(by_name.pools == std::vector<std::string>{"ants-2"});
  CHECK(by_name.param == "ExpiryDuration");
  CHECK(by_name.shown == std::vector<std::string>{"100ms", "2s"});
  CHECK(by_name.values == std::vector<json>{"100ms", "2s"});
  REQUIRE(by_name.numeric.size() == 2);
  CHECK(*by_name.numeric[0] == Approx(0.1));
  CHECK(*by_name.numeric[1] == Approx(2.0));

  // "ants" is the first entry's name (its design, as it has none): that entry only.
  CHECK(parse_param("ants.size=4,8", scenario_json()).pools == std::vector<std::string>{"ants"});
  // A design no entry is named after sets every entry of it.
  json j = scenario_json();
  j["pools"][0]["name"] = "ants-1";
  CHECK(parse_param("ants.size=4", j).pools == std::vector<std::string>{"ants-1", "ants-2"});

  // Values are JSON when they parse as JSON, as --set reads them.
  Param b = parse_param("ants.Nonblocking=true,false", scenario_json());
  CHECK(b.values == std::vector<json>{true, false});
  CHECK(*b.numeric[0] == 1.0);
  Param c = parse_param("java.workQueue=SynchronousQueue,LinkedBlockingQueue", scenario_json());
  CHECK_FALSE(c.numeric[0].has_value());
}

TEST_CASE("sweep: a bad param names the flag, the field and what was expected") {
  const json s = scenario_json();
  CHECK_THAT(error_of([&] { parse_param("nope.size=1", s); }),
             Contains("--param nope.size=1: no pool 'nope' in this run (its pools: ants, ants-2, java)"));
  CHECK_THAT(error_of([&] { parse_param("ants.sise=1", s); }),
             Contains("unknown parameter 'sise' for pool design 'ants' (did you mean 'size'?)"));
  CHECK_THAT(error_of([&] { parse_param("ants.ExpiryDuration=1s,soon", s); }),
             Contains("--param ants.ExpiryDuration=1s,soon: value 'soon' of ants.ExpiryDuration: expected a duration"));
  CHECK_THAT(error_of([&] { parse_param("ants.size=-2", s); }), Contains("value '-2' of ants.size: expected an integer >= -1"));
  CHECK_THAT(error_of([&] { parse_param("ants.size", s); }), Contains("expected POOL.PARAM=V1,V2,...: no '='"));
  CHECK_THAT(error_of([&] { parse_param("size=1", s); }), Contains("'size' is not POOL.PARAM"));
  CHECK_THAT(error_of([&] { parse_param("ants.size=", s); }), Contains("no values"));
  CHECK_THAT(error_of([&] { parse_param("ants.size=1,,2", s); }), Contains("an empty value"));
  CHECK_THAT(error_of([&] { parse_params({"ants.size=1", "ants.size=2"}, s); }),
             Contains("sets ants.size, which --param ants.size sets too"));
  CHECK_THAT(error_of([&] { parse_params({}, s); }), Contains("expected at least one --param"));
  CHECK_THAT(error_of([&] {
               parse_params({"ants.size=1,2,3,4,5,6,7,8,9,10", "ants-2.size=1,2,3,4,5,6,7,8,9,10",
                             "java.maximumPoolSize=1,2,3,4,5,6,7,8,9,10", "ants.MaxBlockingTasks=1,2,3,4,5,6,7,8,9,10",
                             "ants-2.MaxBlockingTasks=1,2,3,4,5,6,7,8,9,10,11"},
                            s);
             }),
             Contains("expected a grid of at most 100,000 points; this one has 110,000 (10 x 10 x 10 x 10 x 11 values)"));
}

TEST_CASE("sweep: the grid is every combination, the last param fastest") {
  const json s = scenario_json();
  std::vector<Param> params = parse_params({"ants.size=4,8,16", "java.keepAliveTime=1s,5s"}, s);
  REQUIRE(grid_size(params) == 6);
  CHECK(grid_choice(params, 0) == std::vector<std::size_t>{0, 0});
  CHECK(grid_choice(params, 1) == std::vector<std::size_t>{0, 1});
  CHECK(grid_choice(params, 5) == std::vector<std::size_t>{2, 1});
  std::set<std::vector<std::size_t>> all;
  for (std::size_t i = 0; i < 6; ++i) all.insert(grid_choice(params, i));
  CHECK(all.size() == 6);
  CHECK(describe_point(params, 3) == "ants.size=8 java.keepAliveTime=5s");
  Overrides o = point_overrides({}, params, 3);
  REQUIRE(o.settings.size() == 2);
  CHECK(o.settings[0] == std::pair<std::string, json>{"ants.size", 8});
  CHECK(o.settings[1] == std::pair<std::string, json>{"java.keepAliveTime", "5s"});
}

TEST_CASE("sweep: N shards run every point exactly once") {
  for (std::size_t total : {1u, 5u, 12u, 13u})
    for (std::size_t n : {1u, 2u, 3u, 7u, 20u}) {
      std::vector<int> runs(total, 0);
      for (std::size_t k = 1; k <= n; ++k)
        for (std::size_t i : shard_points(total, Shard{k, n})) {
          CHECK(i % n == k - 1);
          ++runs.at(i);
        }
      CHECK(std::all_of(runs.begin(), runs.end(), [](int r) { return r == 1; }));
    }
  CHECK(parse_shard("2/3").k == 2);
  CHECK(parse_shard("2/3").n == 3);
  for (const char* bad : {"0/3", "4/3", "3", "a/b", "1/0", "-1/2", "1/2/3", "/2"})
    CHECK_THAT(error_of([&] { parse_shard(bad); }), Contains("--shard " + std::string(bad) + ": expected K/N"));
}

TEST_CASE("sweep: metrics are short names or summary keys, and an unknown one lists the valid names") {
  std::vector<Metric> def = parse_metrics({});
  REQUIRE(def.size() == 6);
  CHECK(def[0].name == "spawned");
  CHECK(def[0].pointer == "/workers/spawned");
  CHECK(def[2].pointer == "/queue_wait_s/p99");
  CHECK(def[2].seconds);
  CHECK(def[5].name == "cpu");
  CHECK(def[5].pointer.empty());
  // Every short name but cpu stands for a real summary key.
  const std::vector<std::string> names = metric_names();
  for (const Metric& m : def)
    if (!m.pointer.empty()) {
      std::string key = m.pointer.substr(1);
      std::replace(key.begin(), key.end(), '/', '.');
      CHECK(std::find(names.begin(), names.end(), key) != names.end());
    }
  std::vector<Metric> two = parse_metrics({"workers.peak,queue_wait_s.count", "spawned"});
  REQUIRE(two.size() == 3);
  CHECK_FALSE(two[0].seconds);
  CHECK_FALSE(two[1].seconds);  // a count, though under queue_wait_s
  std::string err = error_of([] { parse_metrics({"spawnd"}); });
  CHECK_THAT(err, Contains("--metric spawnd: unknown metric (did you mean 'spawned'?); expected one of: spawned, "));
  CHECK_THAT(err, Contains("workers.peak"));
}

TEST_CASE("sweep: a simulated sweep gives the same figures every time, with one process at a time or several") {
  std::vector<Param> params = parse_params({"ants.ExpiryDuration=500ms,3s", "java.keepAliveTime=500ms,3s"}, scenario_json());
  Sweep sweep;
  sweep.params = params;
  sweep.metrics = parse_metrics({});
  sweep.total = grid_size(params);
  auto points = points_of(params);
  RunSettings one;
  SweepOutcome a = run_points(points, sweep, one);
  RunSettings two;
  two.jobs = 3;
  SweepOutcome b = run_points(points, sweep, two);
  REQUIRE(a.points.size() == 4);
  REQUIRE_FALSE(a.stopped);
  for (const PointResult& p : a.points) {
    CHECK(p.status == "ok");
    CHECK(p.pools.size() == 3);
  }
  CHECK(figures(sweep_json(sweep, a.points)) == figures(sweep_json(sweep, b.points)));
  // The parameter is the one difference: ants with a 3 s expiry keeps its
  // workers across the 2 s gaps, with 500 ms it starts them at every burst.
  auto spawned = [&](std::size_t point, std::size_t pool) {
    return a.points[point].pools[pool]["metrics"]["spawned"].get<std::uint64_t>();
  };
  CHECK(spawned(0, 0) == 24);  // 3 bursts of 8, each on new workers
  CHECK(spawned(2, 0) == 8);
  // ants-2 is not swept, but it shares the schedule with the swept pools:
  // which of its two tickers' passes reaps a gap's workers is the schedule's
  // (docs/pools/ants.md), so its count may differ, never beyond 1 to 3 bursts.
  for (std::size_t point : {0, 2}) {
    CHECK(spawned(point, 1) >= 8);
    CHECK(spawned(point, 1) <= 24);
  }

  // Shards run the same points to the same figures.
  sweep.shard = {2, 2};
  SweepOutcome shard = run_points(points_of(params, sweep.shard), sweep, one);
  REQUIRE(shard.points.size() == 2);
  CHECK(shard.points[0].index == 1);
  CHECK(shard.points[0].pools == a.points[1].pools);
  CHECK(shard.points[1].pools == a.points[3].pools);
}

TEST_CASE("sweep: the CSV has a row per point and pool, and stopping early returns no half results") {
  std::vector<Param> params = parse_params({"ants.ExpiryDuration=500ms,3s"}, scenario_json());
  Sweep sweep;
  sweep.params = params;
  sweep.metrics = parse_metrics({"spawned,p99_queue_wait"});
  sweep.total = grid_size(params);
  SweepOutcome out = run_points(points_of(params), sweep, RunSettings{});
  std::ostringstream csv;
  write_csv(csv, sweep, out.points);
  std::string text = csv.str();
  CHECK(text.starts_with("point,ants.ExpiryDuration,pool,spawned,p99_queue_wait,status\n0,500ms,ants,24,"));
  CHECK(std::count(text.begin(), text.end(), '\n') == 1 + 2 * 3);
  CHECK(overall_status(out.points) == "ok");

  SweepOutcome stopped = run_points(points_of(params), sweep, RunSettings{}, [](std::size_t) { return false; });
  CHECK(stopped.stopped);
  CHECK(stopped.points.empty());
  CHECK(result_file_name(7, 12) == "point-007.json");
  CHECK(result_file_name(7, 10001) == "point-00007.json");
}
