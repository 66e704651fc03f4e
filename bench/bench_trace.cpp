// What recording one trace event costs, against one clock read (the floor:
// every event reads the clock once), from one thread and from two threads
// recording into the same stream.
#include <benchmark/benchmark.h>

#include <atomic>
#include <chrono>
#include <vector>

#include "pools/core/pool_trace.h"

using namespace poolscope;

namespace {

// A stream drained by nobody would fill and measure the drop path; this one
// is drained by the benchmark's own threads between batches, outside timing.
TraceStream& stream() {
  static TraceStream s(std::size_t{1} << 20);
  return s;
}

void drain_if_needed(benchmark::State& state) {
  if (state.thread_index() != 0) return;
  static std::vector<Event> sink;
  sink.clear();
  stream().drain(sink);
}

void BM_ClockRead(benchmark::State& state) {
  SteadyClock clock;
  for (auto _ : state) benchmark::DoNotOptimize(clock.now());
}

void BM_RecordEvent(benchmark::State& state) {
  // One pool for every run and thread (made once, thread-safely, and freed at
  // exit): its events are all the benchmark needs of it.
  static PoolTrace trace({.stream = &stream(), .name = "bench"}, "bench");
  int n = 0;
  for (auto _ : state) {
    trace.emit(EventKind::task_started, kNoLabel, 1, static_cast<TaskId>(n));
    if (++n == 4096) {
      state.PauseTiming();
      drain_if_needed(state);
      state.ResumeTiming();
      n = 0;
    }
  }
  state.counters["dropped"] = static_cast<double>(stream().dropped());
}

void BM_RecordEventUntraced(benchmark::State& state) {
  static PoolTrace trace({}, "bench");
  for (auto _ : state) trace.emit(EventKind::task_started, kNoLabel, 1, 1);
}

}  // namespace

BENCHMARK(BM_ClockRead);
BENCHMARK(BM_RecordEventUntraced);
BENCHMARK(BM_RecordEvent)->Threads(1)->Threads(2)->UseRealTime();

BENCHMARK_MAIN();
