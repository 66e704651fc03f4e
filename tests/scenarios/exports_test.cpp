// The Chrome trace opens in Perfetto: well-formed events, named tracks,
// slices that never overlap on one thread. The result document carries
// every event when asked.
#include "scenarios/engine/exports.h"

#include <map>
#include <sstream>

#include <catch2/catch.hpp>

#include "scenarios/engine/result_json.h"

using namespace poolscope;
using namespace poolscope::scenario;

namespace {
RunResult small_run(bool keep_events) {
  json j = {{"name", "exports"},
            {"lesson", "exports"},
            {"time_scale", 50},
            {"watchdog", "10m"},  // healthy pools: never stalled by a slow machine (12 s of wall time)
            {"task", {{"duration", {{"dist", "exponential"}, {"mean", "20ms"}}}, {"throw_probability", 0.1}}},
            {"phases", {{{"duration", "2s"}, {"arrival", {{"kind", "poisson"}, {"rate", 100}}}}}},
            {"pools", {{{"design", "test-fixed"}, {"config", {{"Workers", 3}}}}, {{"design", "spawn"}}}}};
  RunOptions o;
  o.keep_events = keep_events;
  return run_scenario(parse_scenario(j, "exports.json", "."), o);
}
}  // namespace

TEST_CASE("chrome trace: well-formed, every track named, no overlapping slices on a thread") {
  RunResult r = small_run(false);
  std::ostringstream out;
  write_chrome_trace(out,
                     parse_scenario(json{{"name", "x"},
                                         {"lesson", "y"},
                                         {"phases", {{{"duration", "1s"}, {"arrival", {{"kind", "idle"}}}}}},
                                         {"pools", {{{"design", "spawn"}}}}},
                                    "x.json", "."),
                     r.metrics);
  json trace = json::parse(out.str());
  REQUIRE(trace.contains("traceEvents"));
  std::map<int, bool> process_named;
  std::map<std::pair<int, int>, bool> thread_named;
  std::map<std::pair<int, int>, std::vector<std::pair<double, double>>> slices;
  std::size_t counters = 0, instants = 0;
  for (const json& e : trace["traceEvents"]) {
    REQUIRE(e.contains("ph"));
    REQUIRE(e["pid"].is_number_integer());
    std::string ph = e["ph"];
    int pid = e["pid"];
    if (ph == "M") {
      std::string name = e["name"];
      if (name == "process_name") process_named[pid] = true;
      if (name == "thread_name") thread_named[{pid, e["tid"].get<int>()}] = true;
      CHECK(e["args"].is_object());
      continue;
    }
    REQUIRE(e["ts"].is_number());
    CHECK(e["ts"].get<double>() >= 0);
    if (ph == "X") {
      CHECK(e["dur"].get<double>() >= 0);
      slices[{pid, e["tid"].get<int>()}].emplace_back(e["ts"].get<double>(),
                                                      e["ts"].get<double>() + e["dur"].get<double>());
    } else if (ph == "C") {
      ++counters;
      for (const auto& [k, v] : e["args"].items()) CHECK(v.is_number());
    } else if (ph == "i") {
      ++instants;
      CHECK(e["args"].contains("rule"));
    } else {
      FAIL("unexpected phase " << ph);
    }
    CHECK(process_named[pid]);
  }
  CHECK(counters > 0);
  CHECK(instants > 0);
  CHECK(slices.size() > 3);
  for (auto& [track, list] : slices) {
    CHECK(thread_named[track]);
    std::sort(list.begin(), list.end());
    // Times are printed to the ns (3 decimals of µs); ts + dur in a double can
    // land an ulp past the next ts, a real overlap is at least 1 ns.
    for (std::size_t i = 1; i < list.size(); ++i) CHECK(list[i].first >= list[i - 1].second - 0.0005);
  }
}

TEST_CASE("result json: every event is there when asked, one per line, matching the summary") {
  RunResult r = small_run(true);
  Scenario s = parse_scenario(json{{"name", "x"},
                                   {"lesson", "y"},
                                   {"phases", {{{"duration", "1s"}, {"arrival", {{"kind", "idle"}}}}}},
                                   {"pools", {{{"design", "spawn"}}}}},
                              "x.json", ".");
  std::ostringstream out;
  write_result(out, s, r.outcome, r.metrics, ResultOptions{.include_events = true});
  json doc = json::parse(out.str());
  CHECK(doc["status"] == "ok");
  std::size_t events = 0;
  for (const json& p : doc["pools"]) {
    events += p["events"].size();
    std::size_t submitted = 0;
    for (const json& e : p["events"]) submitted += e["kind"] == "task_submitted";
    CHECK(submitted == p["summary"]["tasks"]["submitted"]);
    for (const json& e : p["events"])
      if (e.contains("rule")) CHECK(p["rules"].contains(e["rule"].get<std::string>()));
  }
  CHECK(events == r.metrics.event_count());
  // Without events the document holds none.
  std::ostringstream lean;
  write_result(lean, s, r.outcome, r.metrics, ResultOptions{});
  CHECK_FALSE(json::parse(lean.str())["pools"][0].contains("events"));
}
