// ants with many workers (issue 53, item 5): the shape of ants'
// TestRestCodeCoverage (many workers, a burst of short sleeps, Tune down and
// up again, then release) on 10,000 workers beside the same run on 100, in
// the same process. The figure is the ratio: CPU (all threads) of the
// 10,000-worker run ÷ the 100-worker run's, and the same for wall time; the
// seconds themselves mean little on a shared machine (docs/performance.md).
// Before spin_until's cap on spinners (pools/core/spin.h) every idle worker
// spun and yielded at once and the CPU ratio was 8.1×. GOMAXPROCS=20000 in
// the environment lifts the cap (max(1, gomaxprocs() / 2) spinners) for a
// same-session comparison.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <thread>

#include "bench/measure.h"
#include "bench/smoke.h"
#include "pools/core/registry.h"
#include "scenarios/engine/process_stats.h"

namespace poolscope::bench {
namespace {

using namespace std::chrono_literals;

std::int64_t tasks_per_phase = 10'000;  // --smoke: 100
constexpr auto kTask = 1ms;

struct Run {
  double cpu_s = 0, wall_s = 0;
};

// Three phases of tasks_per_phase sleeps of kTask: at `size`, after
// Tune(size / 10), after Tune(size) again; then a graceful shutdown (every
// worker joined). Measured from the pool's creation to the last join.
Run tune_run(int size) {
  const double cpu0 = scenario::sample_process().cpu_seconds;
  const auto t0 = now_ns();
  const Registry& r = Registry::global();
  auto pool = r.create("ants", {{"size", size}}, {});
  const ParamSpec& spec = *std::find_if(r.get("ants").params.begin(), r.get("ants").params.end(),
                                        [](const ParamSpec& p) { return p.name == "size"; });
  for (int phase = 0; phase < 3; ++phase) {
    if (phase > 0) pool->set_param("size", parse_param(spec, phase == 1 ? std::max(1, size / 10) : size, "/size"));
    Countdown done(tasks_per_phase);
    for (std::int64_t i = 0; i < tasks_per_phase; ++i)
      while (!pool->submit([&done] {
                     std::this_thread::sleep_for(kTask);
                     done.tick();
                   }).accepted())
        std::this_thread::yield();
    done.wait();
  }
  pool->shutdown(ShutdownMode::graceful);
  pool.reset();
  return {scenario::sample_process().cpu_seconds - cpu0, static_cast<double>(now_ns() - t0) / 1e9};
}

void ants_tune(benchmark::State& state) {
  Run small, big;
  for (auto _ : state) {
    small = tune_run(100);
    big = tune_run(10'000);
  }
  state.counters["tasks"] = static_cast<double>(3 * tasks_per_phase);
  state.counters["cpu_s_w100"] = small.cpu_s;
  state.counters["cpu_s_w10000"] = big.cpu_s;
  state.counters["wall_s_w100"] = small.wall_s;
  state.counters["wall_s_w10000"] = big.wall_s;
  state.counters["cpu_ratio"] = small.cpu_s > 0 ? big.cpu_s / small.cpu_s : 0;
  state.counters["wall_ratio"] = small.wall_s > 0 ? big.wall_s / small.wall_s : 0;
}

}  // namespace
}  // namespace poolscope::bench

int main(int argc, char** argv) {
  if (poolscope::bench::take_smoke_flag(argc, argv)) poolscope::bench::tasks_per_phase = 100;
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RegisterBenchmark("ants_tune/w:10000_vs_w:100", poolscope::bench::ants_tune)
      ->Iterations(1)
      ->UseRealTime()
      ->Unit(benchmark::kMillisecond);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
