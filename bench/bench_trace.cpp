// What recording costs, against one clock read (SteadyClock::now, what every
// event cost before: the reference of every ratio here):
//   BM_ClockRead, BM_Tick*, BM_CoarseClock   the clocks a time stamp could come from
//   BM_TickOrder/*                            whether a clock is ordered across cores (a hand-off's
//                                             receiver must never stamp before its sender)
//   BM_RecordEvent                            one event, from 1 and from 2 threads into one stream
//   BM_EngineClockRead, BM_RecordEventEngineClock  the same on the scenario engine's clock
//                                             (AdjustableClock), and one read of it, from 1 and 2 threads
//   BM_RecordTask                             a task's five events (submitted, queued, handoff,
//                                             started, finished) through a pool's PoolTrace
//   BM_RecordEventUntraced                    an untraced pool
//   BM_Drain                                  the consumer's cost of one event (merge, counters, time)
//   BM_Sustained                              1,000,000 tasks a second (5 events each) from 2 threads
//                                             for 1 s, drained every 2 ms as the engine does: drops
#include <benchmark/benchmark.h>
#include <time.h>

#include <atomic>
#include <chrono>
#include <thread>
#include <vector>

#include "bench/smoke.h"
#include "pools/core/pool_trace.h"

using namespace poolscope;

namespace {

// --smoke (bench/smoke.h): the two long benchmarks on a small part of their
// work. The token passing spins on both sides: on a loaded machine a pass
// can wait a whole time slice, so its smoke run is 200 passes.
bool smoke = false;

// A stream drained by nobody would fill and measure the drop path; this one
// is drained by the benchmark's own threads between batches, outside timing
// (each thread drains after each of its batches, one at a time: a thread that
// waits for a CPU does not leave the other's events to pile up).
TraceStream& stream() {
  static TraceStream s(std::size_t{1} << 20);
  return s;
}

void drain_if_needed(benchmark::State&) {
  thread_local std::vector<Event> sink;
  sink.clear();
  stream().drain(sink);
}

void BM_ClockRead(benchmark::State& state) {
  SteadyClock clock;
  for (auto _ : state) benchmark::DoNotOptimize(clock.now());
}

// The stream's tick: lfence + rdtsc where the kernel's clocksource is tsc.
void BM_TickOrdered(benchmark::State& state) {
  trace_tick::calibrate();
  for (auto _ : state) benchmark::DoNotOptimize(trace_tick::now());
  state.counters["tsc"] = trace_tick::is_tsc() ? 1 : 0;
}

#if defined(__x86_64__) || defined(__i386__)
std::uint64_t rdtsc_plain() { return __rdtsc(); }
std::uint64_t rdtscp() {
  unsigned aux;
  return __rdtscp(&aux);
}
std::uint64_t rdtsc_fenced() {
  _mm_lfence();
  return __rdtsc();
}
void BM_TickUnordered(benchmark::State& state) {
  for (auto _ : state) benchmark::DoNotOptimize(rdtsc_plain());
}
void BM_TickRdtscp(benchmark::State& state) {
  for (auto _ : state) benchmark::DoNotOptimize(rdtscp());
}
#endif

std::uint64_t coarse_ns() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC_COARSE, &ts);
  return static_cast<std::uint64_t>(ts.tv_sec) * 1'000'000'000u + static_cast<std::uint64_t>(ts.tv_nsec);
}
std::uint64_t steady_ns() { return static_cast<std::uint64_t>(std::chrono::steady_clock::now().time_since_epoch().count()); }

void BM_CoarseClock(benchmark::State& state) {
  for (auto _ : state) benchmark::DoNotOptimize(coarse_ns());
  timespec res;
  clock_getres(CLOCK_MONOTONIC_COARSE, &res);
  state.counters["resolution_ns"] = static_cast<double>(res.tv_nsec);
}

// Two threads pass a token back and forth 200,000 times (200 with
// --smoke; release/acquire, no lock); each stamps just after receiving it
// and sends its stamp along. A receiver's stamp below the sender's is an
// inversion: that clock would put an effect before its cause in a merged
// trace.
template <std::uint64_t (*Read)()>
void BM_TickOrder(benchmark::State& state) {
  const int kPasses = smoke ? 200 : 200'000;
  double inversions = 0, worst = 0;
  for (auto _ : state) {
    std::atomic<std::uint64_t> box{0};
    std::atomic<int> turn{0};
    std::uint64_t inv[2] = {0, 0};
    std::int64_t worst_ticks[2] = {0, 0};
    auto side = [&](int me) {
      for (int i = 0; i < kPasses / 2; ++i) {
        while (turn.load(std::memory_order_acquire) != me) {
        }
        std::uint64_t sent = box.load(std::memory_order_relaxed);
        std::uint64_t now = Read();
        if (i > 0 || me == 1) {
          auto d = static_cast<std::int64_t>(now - sent);
          if (d < 0) {
            ++inv[me];
            worst_ticks[me] = std::max(worst_ticks[me], -d);
          }
        }
        box.store(Read(), std::memory_order_relaxed);
        turn.store(1 - me, std::memory_order_release);
      }
    };
    std::thread other(side, 1);
    side(0);
    other.join();
    inversions += static_cast<double>(inv[0] + inv[1]);
    worst = std::max(worst, static_cast<double>(std::max(worst_ticks[0], worst_ticks[1])));
  }
  const double ns_per = Read == steady_ns || Read == coarse_ns ? 1.0 : trace_tick::ns_per_tick();
  state.counters["inversions_per_M"] = inversions * 1e6 / (kPasses * static_cast<double>(state.iterations()));
  state.counters["worst_inversion_ns"] = worst * ns_per;
}

void record_events(benchmark::State& state, PoolTrace& trace) {
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

void BM_RecordEvent(benchmark::State& state) {
  // One pool for every run and thread (made once, thread-safely, and freed at
  // exit): its events are all the benchmark needs of it.
  static PoolTrace trace({.stream = &stream(), .name = "bench"}, "bench");
  record_events(state, trace);
}

// The engine's clock: every pool of a scenario run lives on one
// AdjustableClock (pausable, speed adjustable from the GUI).
AdjustableClock& engine_clock() {
  static AdjustableClock clock;
  return clock;
}

void BM_EngineClockRead(benchmark::State& state) {
  for (auto _ : state) benchmark::DoNotOptimize(engine_clock().now());
}

void BM_RecordEventEngineClock(benchmark::State& state) {
  static PoolTrace trace({.clock = &engine_clock(), .stream = &stream(), .name = "bench-engine"}, "bench");
  record_events(state, trace);
}

// A queued task's five events, from one thread, through the pool's own
// operations (its gauges and accounting too); the hand-off and the start
// share one stamp. Compare with BM_TaskUntraced: the difference is tracing's.
void BM_RecordTask(benchmark::State& state) {
  static PoolTrace trace({.stream = &stream(), .name = "bench-task"}, "bench");
  int n = 0;
  for (auto _ : state) {
    TaskId t = trace.submitted();
    trace.queued(t, kNoLabel, 1);
    trace.handoff(t, 1, kNoLabel, true);
    trace.started(1, t);
    trace.finished(1, t);
    if (++n == 800) {
      state.PauseTiming();
      drain_if_needed(state);
      state.ResumeTiming();
      n = 0;
    }
  }
  state.counters["dropped"] = static_cast<double>(stream().dropped());
}

void BM_TaskUntraced(benchmark::State& state) {
  static PoolTrace trace({}, "bench");
  for (auto _ : state) {
    TaskId t = trace.submitted();
    trace.queued(t, kNoLabel, 1);
    trace.handoff(t, 1, kNoLabel, true);
    trace.started(1, t);
    trace.finished(1, t);
  }
}

void BM_RecordEventUntraced(benchmark::State& state) {
  static PoolTrace trace({}, "bench");
  for (auto _ : state) trace.emit(EventKind::task_started, kNoLabel, 1, 1);
}

// The consumer: 2 threads record 100,000 events each (outside timing), then
// one drain merges them; ns per event drained.
void BM_Drain(benchmark::State& state) {
  TraceStream s(std::size_t{1} << 18);
  PoolTrace trace({.stream = &s, .name = "drain"}, "bench");
  std::vector<Event> out;
  out.reserve(s.capacity());
  std::uint64_t events = 0;
  for (auto _ : state) {
    state.PauseTiming();
    out.clear();
    auto produce = [&] {
      for (int i = 0; i < 100'000; ++i) trace.emit(EventKind::task_started, kNoLabel, 1, static_cast<TaskId>(i));
    };
    std::thread a(produce), b(produce);
    a.join();
    b.join();
    state.ResumeTiming();
    events += s.drain(out);
  }
  state.counters["seconds_per_event"] = benchmark::Counter(static_cast<double>(events), benchmark::Counter::kIsRate |
                                                                                       benchmark::Counter::kInvert);
  state.counters["dropped"] = static_cast<double>(s.dropped());
}

// 1,000,000 tasks a second for 1 s (10 ms with --smoke): 2 threads, each 500,000 tasks a second
// (paced on the clock, 5 events a task), one consumer draining every 2 ms as
// the engine does, on a stream of the engine's size. Reports the drops.
void BM_Sustained(benchmark::State& state) {
  double dropped = 0, recorded = 0, consumed = 0;
  for (auto _ : state) {
    TraceStream s;  // the engine's default capacity
    PoolTrace trace({.stream = &s, .name = "sustained"}, "bench");
    std::atomic<bool> stop{false};
    std::vector<Event> sink;
    sink.reserve(s.capacity());
    std::uint64_t drained = 0;
    std::thread consumer([&] {
      while (!stop.load()) {
        std::this_thread::sleep_for(std::chrono::milliseconds(2));
        sink.clear();
        drained += s.drain(sink);
      }
      sink.clear();
      drained += s.drain(sink);
    });
    auto produce = [&] {
      const std::int64_t kTasks = smoke ? 5'000 : 500'000, kGapNs = 2'000;  // 500,000 a second
      const std::uint64_t t0 = steady_ns();
      for (std::int64_t i = 0; i < kTasks; ++i) {
        while (steady_ns() < t0 + static_cast<std::uint64_t>(i * kGapNs)) {
        }
        TaskId t = trace.submitted();
        trace.queued(t, kNoLabel, 1);
        trace.handoff(t, 1, kNoLabel, true);
        trace.started(1, t);
        trace.finished(1, t);
      }
    };
    std::thread a(produce), b(produce);
    a.join();
    b.join();
    stop = true;
    consumer.join();
    dropped += static_cast<double>(s.dropped());
    recorded += static_cast<double>(s.recorded());
    consumed += static_cast<double>(drained);
  }
  state.counters["dropped"] = dropped;
  state.counters["recorded"] = recorded;
  state.counters["drained"] = consumed;
}

}  // namespace

BENCHMARK(BM_ClockRead);
BENCHMARK(BM_TickOrdered);
#if defined(__x86_64__) || defined(__i386__)
BENCHMARK(BM_TickUnordered);
BENCHMARK(BM_TickRdtscp);
// One repetition whatever --benchmark_repetitions says: 200,000 hand-offs
// are their own sample, and on a loaded machine, where the two threads wait
// for a CPU, a run takes 1 to 15 s (52 s of the suite's 89 in bench_trace,
// 2026-11-29, at 3 repetitions).
BENCHMARK_TEMPLATE(BM_TickOrder, rdtsc_plain)
    ->Iterations(1)
    ->Repetitions(1)
    ->UseRealTime()
    ->Unit(benchmark::kMillisecond);
BENCHMARK_TEMPLATE(BM_TickOrder, rdtsc_fenced)
    ->Iterations(1)
    ->Repetitions(1)
    ->UseRealTime()
    ->Unit(benchmark::kMillisecond);
BENCHMARK_TEMPLATE(BM_TickOrder, rdtscp)->Iterations(1)->Repetitions(1)->UseRealTime()->Unit(benchmark::kMillisecond);
#endif
BENCHMARK_TEMPLATE(BM_TickOrder, steady_ns)
    ->Iterations(1)
    ->Repetitions(1)
    ->UseRealTime()
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_CoarseClock);
BENCHMARK(BM_RecordEventUntraced);
BENCHMARK(BM_RecordEvent)->Threads(1)->Threads(2)->UseRealTime();
BENCHMARK(BM_EngineClockRead)->Threads(1)->Threads(2)->UseRealTime();
BENCHMARK(BM_RecordEventEngineClock)->Threads(1)->Threads(2)->UseRealTime();
BENCHMARK(BM_TaskUntraced);
BENCHMARK(BM_RecordTask);
BENCHMARK(BM_Drain)->UseRealTime();
BENCHMARK(BM_Sustained)->Iterations(1)->UseRealTime()->Unit(benchmark::kMillisecond);

int main(int argc, char** argv) {
  smoke = poolscope::bench::take_smoke_flag(argc, argv);
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
