// What the consumers of the trace cost: events per second through the
// metrics (what the GUI and the runner read), and the time to write a result
// JSON holding 1,000,000 events (the runner's --events).
#include <benchmark/benchmark.h>

#include <cstdio>
#include <fstream>

#include "bench/measure.h"
#include "bench/smoke.h"
#include "pools/core/registry.h"
#include "scenarios/engine/result_json.h"

namespace poolscope::bench {
namespace {

constexpr std::size_t kEvents = 1'000'000;

// A real trace: a java pool of 2 workers running no-op tasks until it has
// recorded kEvents events, every one kept (the ring holds them all).
struct Recording {
  TraceStream stream{std::size_t{1} << 21};
  std::vector<Event> events;
  json config;  // the pool's params(), as the runner records them
  Recording() {
    {
      auto pool = Registry::global().create(
          "java",
          {{"corePoolSize", 2}, {"maximumPoolSize", 2}, {"workQueue", "LinkedBlockingQueue"}, {"queueCapacity", 0}},
          TraceTarget{.stream = &stream, .name = "java"});
      Countdown done(kEvents / 4);
      for (std::size_t i = 0; i < kEvents / 4; ++i) pool->submit([&done] { done.tick(); });
      done.wait();
      config = pool->params();
    }
    stream.drain(events);
    events.resize(std::min(events.size(), kEvents));
  }
};
const Recording& recording() {
  static const Recording r;
  return r;
}

metrics::RunMetrics fed_metrics(bool keep_events) {
  metrics::RunMetrics m(keep_events);
  m.set_pools(recording().stream.pools());
  m.add(recording().events);
  return m;
}

void BM_Metrics(benchmark::State& state) {
  const auto& events = recording().events;
  for (auto _ : state) {
    auto m = fed_metrics(false);
    for (const auto& pool : m.pools()) benchmark::DoNotOptimize(pool.summary());
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(events.size()) * state.iterations());
  state.counters["events"] = static_cast<double>(events.size());
}

void BM_ResultJson(benchmark::State& state) {
  const auto m = fed_metrics(true);
  scenario::Scenario s;
  s.name = "bench";
  scenario::RunOutcome outcome;
  outcome.events_recorded = m.event_count();
  outcome.pools.push_back(
      {.name = "java", .design = "java", .trace_id = m.pools().back().info().id, .config = recording().config});
  const std::string path = "/tmp/poolscope-bench-result.json";
  std::size_t bytes = 0;
  for (auto _ : state) {
    std::ofstream out(path);
    scenario::write_result(out, s, outcome, m, {.include_events = true});
    bytes = static_cast<std::size_t>(out.tellp());
  }
  std::remove(path.c_str());
  state.counters["events"] = static_cast<double>(m.event_count());
  state.counters["mb"] = static_cast<double>(bytes) / (1 << 20);
}

BENCHMARK(BM_Metrics)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_ResultJson)->Unit(benchmark::kMillisecond)->UseRealTime()->Iterations(1);

}  // namespace
}  // namespace poolscope::bench

int main(int argc, char** argv) {
  poolscope::bench::take_smoke_flag(argc, argv);  // a few seconds already: the same run
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
