// The sweep view's model: a `poolscope sweep --json` file read back (and
// refused, naming the file, the path and what was expected, when it is
// wrong), the axes its small multiples share, the value under the shared
// cursor, and the metric-against-parameter plot's lines.
#include <algorithm>
#include <numeric>

#include <catch2/catch.hpp>

#include "scenarios/engine/scenario.h"
#include "visualizer/model/sweep_file.h"
#include "visualizer/model/sweep_scales.h"

using namespace poolscope;
using namespace poolscope::gui;

namespace {

const std::string kShipped =
    std::string(POOLSCOPE_SOURCE_DIR) + "/scenarios/library/sweeps/periodic-bursts-expiry.json";

// A series of 4 buckets of 1 s with `workers` and zeros elsewhere.
json series(std::vector<int> workers) {
  json zeros = json::array();
  json t = json::array();
  for (std::size_t i = 0; i < workers.size(); ++i) {
    t.push_back(static_cast<double>(i));
    zeros.push_back(0);
  }
  return {{"bucket_s", 1.0}, {"t", t},           {"workers", workers}, {"busy", zeros},  {"idle", zeros},
          {"queued", zeros}, {"blocked", zeros}, {"spawned", zeros},   {"reaped", zeros}};
}

// Two params, size (8, 16) and a choice of queue (a, b, c), the last varying
// fastest; one pool whose workers peak at 2 * size, spawned = size + queue's index.
json two_param_sweep() {
  json points = json::array();
  for (std::size_t i = 0; i < 6; ++i) {
    const std::size_t s = i / 3, q = i % 3;
    const int size = s == 0 ? 8 : 16;
    points.push_back({{"index", i},
                      {"choice", {s, q}},
                      {"values", {{"p.size", std::to_string(size)}, {"p.queue", std::string(1, char('a' + q))}}},
                      {"status", "ok"},
                      {"problem", ""},
                      {"wall_s", 0.01},
                      {"result", nullptr},
                      {"pools",
                       {{{"name", "p"},
                         {"design", "ants"},
                         {"metrics", {{"spawned", size + static_cast<int>(q)}, {"cpu", nullptr}}},
                         {"series", series({1, 2 * size, 3, 0})}}}}});
  }
  return {{"format", "poolscope-sweep/1"},
          {"status", "ok"},
          {"scenario", {{"file", "s.json"}, {"name", "s"}}},
          {"mode", "simulated"},
          {"simulation", json::object()},
          {"params",
           {{{"spec", "p.size"},
             {"param", "size"},
             {"pools", {"p"}},
             {"values", {8, 16}},
             {"shown", {"8", "16"}},
             {"numeric", {8, 16}}},
            {{"spec", "p.queue"},
             {"param", "queue"},
             {"pools", {"p"}},
             {"values", {"a", "b", "c"}},
             {"shown", {"a", "b", "c"}},
             {"numeric", {nullptr, nullptr, nullptr}}}}},
          {"metrics",
           {{{"name", "spawned"}, {"key", "/workers/spawned"}, {"seconds", false}},
            {{"name", "cpu"}, {"key", nullptr}, {"seconds", true}}}},
          {"shard", {{"k", 1}, {"n", 1}}},
          {"points_total", 6},
          {"environment", json::object()},
          {"points", points}};
}

std::string error_of(const json& doc) {
  try {
    read_sweep(doc, "bad.sweep.json");
  } catch (const scenario::ScenarioError& e) {
    return e.what();
  }
  return "(no error)";
}

}  // namespace

TEST_CASE("sweep file: the shipped lesson sweep reads as nine points of ants' ExpiryDuration with their series") {
  const SweepFile s = load_sweep(kShipped);
  CHECK(s.scenario == "periodic-bursts");
  CHECK(s.mode == "simulated");
  REQUIRE(s.params.size() == 1);
  CHECK(s.params[0].spec == "ants.ExpiryDuration");
  CHECK(s.params[0].is_numeric());
  REQUIRE(s.points.size() == 9);
  CHECK(s.pools == std::vector<std::string>{"ants"});
  CHECK(s.designs == std::vector<std::string>{"ants"});
  CHECK(s.label(s.points[0]) == "ants.ExpiryDuration=100ms");
  CHECK(s.label(s.points[5]) == "ants.ExpiryDuration=4500ms");
  REQUIRE(s.metrics[0].name == "spawned");
  // docs/sweeps.md's table: every burst starts its 40 workers again up to 3 s, none are reaped from 6 s.
  CHECK(s.points[0].pools[0].metrics[0] == 240);
  CHECK(s.points[7].pools[0].metrics[0] == 40);
  for (const SweepPoint& p : s.points) {
    REQUIRE(p.pools[0].series);
    const SweepSeries& series = *p.pools[0].series;
    CHECK(series.t.size() > 100);
    // The spawned series counts every start once: it sums to the point's spawned metric.
    const auto& spawned = series.counters[static_cast<std::size_t>(SweepCounter::spawned)];
    CHECK(std::accumulate(spawned.begin(), spawned.end(), 0.0) == p.pools[0].metrics[0]);
  }
  // At 3 s some bursts find their workers (the purge's grid runs ahead of
  // ticktock's in this schedule: docs/sweeps.md); at 5 s, the period, a purge
  // tick and a burst meet on one instant; from 6 s the first burst's 40
  // workers stay and serve all six.
  CHECK(s.points[3].pools[0].metrics[0] == 191);
  CHECK(s.points[6].pools[0].metrics[0] == 71);
  const SweepSeries& six = *s.points[7].pools[0].series;
  const auto& workers = six.counters[static_cast<std::size_t>(SweepCounter::workers)];
  CHECK(s.label(s.points[7]) == "ants.ExpiryDuration=6s");
  CHECK(*std::min_element(workers.begin() + 1, workers.end() - 1) == 40);
  CHECK(s.points[7].pools[0].metrics[0] == 40);
}

TEST_CASE("sweep file: a line per value of the second param, x the first's numbers, points in x order") {
  const SweepFile s = read_sweep(two_param_sweep(), "two.json");
  REQUIRE(s.points.size() == 6);
  CHECK(s.label(s.points[4]) == "p.size=16, p.queue=b");

  const MetricPlot by_size = metric_plot(s, "p", 0, 0);
  CHECK_FALSE(by_size.categorical);
  CHECK(by_size.x_min == 8);
  CHECK(by_size.x_max == 16);
  REQUIRE(by_size.lines.size() == 3);  // queue a, b, c
  CHECK(by_size.lines[1].label == "p.queue=b");
  REQUIRE(by_size.lines[1].points.size() == 2);
  CHECK(by_size.lines[1].points[0].x == 8);
  CHECK(by_size.lines[1].points[0].y == 9);
  CHECK(by_size.lines[1].points[0].point == 1);
  CHECK(by_size.lines[1].points[1].point == 4);
  CHECK(by_size.y_top >= 18);

  // A choice on x: its values' positions, a line per size.
  const MetricPlot by_queue = metric_plot(s, "p", 0, 1);
  CHECK(by_queue.categorical);
  CHECK(by_queue.x_min == 0);
  CHECK(by_queue.x_max == 2);
  REQUIRE(by_queue.lines.size() == 2);
  CHECK(by_queue.lines[0].label == "p.size=8");
  CHECK(by_queue.lines[0].points.size() == 3);

  // A metric no point measured (cpu: null) draws nothing.
  CHECK(metric_plot(s, "p", 1, 0).lines.empty());
}

TEST_CASE("sweep scales: every multiple shares the time axis and each counter's y-scale") {
  json doc = two_param_sweep();
  doc["points"][5]["pools"][0]["series"] = series({0, 0, 0, 0, 0, 0, 5});  // a longer run
  const SweepFile s = read_sweep(doc, "two.json");
  CHECK(shared_time_end(s, "p") == 7);
  // The highest peak is 32 (size 16): the ceiling every multiple shares is above it, whichever point.
  const double top = shared_ceiling(s, "p", SweepCounter::workers);
  CHECK(top >= 32);
  CHECK(top < 40);
  CHECK(shared_ceiling(s, "p", SweepCounter::queued) == 1);  // all zero: a scale of 1, not of 0

  const SweepSeries& first = *s.points[0].pools[0].series;
  CHECK(value_at(first, SweepCounter::workers, 0.0) == 1);
  CHECK(value_at(first, SweepCounter::workers, 1.5) == 16);
  CHECK(value_at(first, SweepCounter::workers, 3.99) == 0);
  CHECK_FALSE(value_at(first, SweepCounter::workers, 4.0));  // past its end
  CHECK_FALSE(value_at(first, SweepCounter::workers, -0.1));
}

TEST_CASE("sweep scales: the multiples' columns bring each cell nearest the aspect asked") {
  CHECK(multiple_columns(1, 1600, 600, 2.5) == 1);
  CHECK(multiple_columns(9, 1600, 600, 2.5) == 3);   // 533 x 200 px cells
  CHECK(multiple_columns(9, 1600, 1600, 2.5) == 2);  // tall: fewer columns
  CHECK(multiple_columns(4, 2000, 200, 2.5) == 4);   // a strip: one row
}

TEST_CASE("sweep scales: metric values and ticks read as durations or counts") {
  CHECK(format_metric({"queue_wait_s.p50", true}, 5.6e-05) == "56.0 µs");
  CHECK(format_metric({"spawned", false}, 240) == "240");
  CHECK(format_metric({"mean_workers", false}, 37.333333) == "37.33");
  CHECK(nice_top(5.6e-05) == Approx(6e-05));
  CHECK(nice_top(240) == 300);  // a multiple of the nice step (100) above 240 and its margin
  CHECK(nice_top(0) == 1);
  CHECK(nice_ticks(300, 6) == std::vector<double>{0, 50, 100, 150, 200, 250, 300});
}

TEST_CASE("sweep file: a wrong file is refused naming the file, the JSON path and what was expected") {
  json doc = two_param_sweep();
  doc["format"] = "poolscope-result/1";
  CHECK_THAT(error_of(doc), Catch::Contains("bad.sweep.json: /format") && Catch::Contains("poolscope-sweep/1"));

  doc = two_param_sweep();
  doc["points"][2]["pools"][0]["series"]["busy"].push_back(1);
  CHECK_THAT(error_of(doc),
             Catch::Contains("/points/2/pools/0/series/busy") && Catch::Contains("one value per bucket of \"t\" (4)"));

  doc = two_param_sweep();
  doc["points"][1]["choice"][1] = 3;
  CHECK_THAT(error_of(doc), Catch::Contains("/points/1/choice/1") && Catch::Contains("p.queue's 3 values"));

  doc = two_param_sweep();
  doc["points"][0]["pools"][0]["metrics"]["spawned"] = "many";
  CHECK_THAT(error_of(doc),
             Catch::Contains("/points/0/pools/0/metrics/spawned") && Catch::Contains("a number or null"));

  doc = two_param_sweep();
  doc["points"][0]["pools"][0]["series"]["workers"][1] = -2;
  CHECK_THAT(error_of(doc), Catch::Contains("/points/0/pools/0/series/workers/1") && Catch::Contains("a count"));

  doc = two_param_sweep();
  doc["params"] = json::array();
  CHECK_THAT(error_of(doc), Catch::Contains("/params") && Catch::Contains("at least 1"));

  doc = two_param_sweep();
  doc["points"][0]["index"] = 6;
  CHECK_THAT(error_of(doc), Catch::Contains("/points/0/index"));
}

// Issue 53: every integer field of the format (points_total, a point's index,
// its choices) read as what it is, at 2^63, 2^64-1 and -2^63: refused, never
// wrapped into range (18446744073709551615 used to be read as -1 where an
// int64 was asked for).
TEST_CASE("sweep file: integer fields at 2^63, 2^64-1 and -2^63 are refused, not wrapped") {
  for (const char* edge : {"9223372036854775808", "18446744073709551615", "-9223372036854775808"}) {
    INFO(edge);
    const json n = json::parse(edge);
    json doc = two_param_sweep();
    doc["points_total"] = n;
    CHECK_THAT(error_of(doc), Catch::Contains("/points_total: expected an integer >= 1, got " + std::string(edge)));
    doc = two_param_sweep();
    doc["points"][0]["index"] = n;
    CHECK_THAT(error_of(doc), Catch::Contains("/points/0/index: expected an integer in [0, 5], got " + std::string(edge)));
    doc = two_param_sweep();
    doc["points"][0]["choice"][0] = n;
    CHECK_THAT(error_of(doc), Catch::Contains("/points/0/choice/0: expected an index of one of") &&
                                  Catch::Contains("got " + std::string(edge)));
  }
}
