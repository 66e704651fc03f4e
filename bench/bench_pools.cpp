// Every registered design beside the references, under the issue's
// workloads (docs/performance.md reads the results as ratios):
//   dispatch/  1,000,000 no-op tasks, 1 or 2 workers, 1 or 2 submitters, untraced
//   trace_cost/ the same, 1 submitter, tracing off and on in alternating rounds: on ÷ off
//              (clock:engine: both on the scenario engine's AdjustableClock, as in a run)
//   wakeup/    an idle pool, one task at a time: submit -> start, p50 and p99
//   sleep/     100,000 tasks of 10 ms on at most 5,000 workers: time over the 200 ms floor, peak RSS and threads
//   churn/     bursts and idle gaps that make a pool grow and reap: threads created per 1,000 tasks,
//              and what each costs the burst (against a warm burst of the same design)
//   machine/   the machine's limits: a clock read, a cross-core futex hand-off, thread create + join
// Run it through scripts/bench, which prints the ratios. With --runtime
// goroutines, every dispatch/ row runs on Go's runtime (pools/core/goroutines/):
// the benchmark's thread is goroutine 1, the pool's threads and the other
// submitters goroutines; the references run as they do without it.
#include <benchmark/benchmark.h>
#include <sys/resource.h>

#include <latch>
#include <thread>

#include "bench/measure.h"
#include "bench/smoke.h"
#include "bench/targets.h"
#include "pools/core/goroutines/runtime.h"
#include "pools/core/thread.h"
#include "scenarios/engine/process_stats.h"

namespace poolscope::bench {
namespace {

using namespace std::chrono_literals;

// How much work each benchmark does: the suite's sizes, or with --smoke the
// test suite's (bench/CMakeLists.txt): every benchmark once on a few tasks,
// to show that it runs to the end; figures that mean nothing.
struct Sizes {
  // dispatch/: 1,000,000 tasks, unless a warm probe of 2,000 (after a warm-up
  // that starts lazily started workers) says that takes more than the budget,
  // i.e. the design is slower than 150 ns a task: one paying futex wake-ups on
  // every task (10-60 us here) would need a minute a run. The row says how
  // many tasks it ran. A probe is short (under a millisecond for a fast
  // design), so one preemption can inflate it: a probe that misses the
  // threshold but took less than kDispatchReprobe (a design clearly slower
  // takes longer) is repeated, up to kDispatchProbes times, and the fastest
  // counts.
  std::int64_t dispatch_tasks, dispatch_warmup, dispatch_probe, dispatch_min;
  std::chrono::nanoseconds dispatch_budget;
  // trace_cost/: rounds of (off, on) (on first in odd rounds, so a drift of
  // the machine hits both alike), each run a fresh pool given the budget's
  // worth of tasks (dispatch_tasks at most), after a warm-up.
  int trace_rounds;
  std::chrono::nanoseconds trace_budget;
  int wake_samples;          // wakeup/, machine/handoff
  std::int64_t sleep_tasks;  // sleep/, of 10 ms each, on kSleepWorkers
  int churn_cycles;          // churn/: cold and warm bursts; the first cycle is not measured
};
constexpr Sizes kSuite{.dispatch_tasks = 1'000'000,
                       .dispatch_warmup = 1'000,
                       .dispatch_probe = 2'000,
                       .dispatch_min = 5'000,
                       .dispatch_budget = 150ms,
                       .trace_rounds = 3,
                       .trace_budget = 100ms,
                       .wake_samples = 1000,
                       .sleep_tasks = 100'000,
                       .churn_cycles = 5};
// A few dozen tasks a run: on a loaded machine a design whose threads spin
// for a CPU can take milliseconds a task, and the smoke run must still end.
constexpr Sizes kSmoke{.dispatch_tasks = 500,
                       .dispatch_warmup = 20,
                       .dispatch_probe = 50,
                       .dispatch_min = 50,
                       .dispatch_budget = 1ms,
                       .trace_rounds = 1,
                       .trace_budget = 1ms,
                       .wake_samples = 20,
                       .sleep_tasks = 500,
                       .churn_cycles = 2};
Sizes sizes = kSuite;  // main() picks

constexpr int kDispatchProbes = 3;
constexpr auto kDispatchReprobe = 20ms;

constexpr auto kWakeGap = 100us;  // long enough for the worker to park again

constexpr int kSleepWorkers = 5'000;
constexpr auto kSleepTask = 10ms;

constexpr int kChurnWorkers = 8;
constexpr int kChurnBurst = 64;       // tasks of 1 ms: enough to grow to kChurnWorkers
constexpr double kChurnScale = 1000;  // pool time runs 1000x: java's 60 s keep-alive passes in 60 ms
constexpr auto kChurnIdle = 100ms;    // wall time between bursts: every design's idle limit passes

// Context switches of the whole process so far (every thread's, voluntary or not).
double context_switches() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return static_cast<double>(u.ru_nvcsw + u.ru_nivcsw);
}

void fail(benchmark::State& state, const std::exception& e) {
  state.SkipWithError(e.what());
  for (auto _ : state) {
  }
}

// How a refused submitter tries again (bench/executor.h): yielding first, as
// the fasthttp benchmark's does, or at once (trace_cost's `/retry:spin`).
enum class Retry { yield, spin };

// N submitters share `tasks` no-op tasks (each ticks the countdown); the
// benchmark thread is submitter 0 and then waits for the last tick.
std::uint64_t run_tasks(Executor& ex, std::int64_t tasks, int submitters, Retry retry = Retry::yield) {
  Countdown done(tasks);
  auto task = [&done] { done.tick(); };
  // The submitters start together (a latch on poolscope's futex: under the
  // goroutine runtime, a goroutine's wait).
  std::atomic<int> waiting{submitters};
  std::atomic<std::uint64_t> refused{0};
  auto submit_share = [&](int i) {
    std::uint64_t r = 0;
    if (waiting.fetch_sub(1) == 1)
      atomic_notify_all(waiting);
    else
      for (int n = waiting.load(); n != 0; n = waiting.load()) atomic_wait(waiting, n);
    for (std::int64_t n = tasks * i / submitters; n < tasks * (i + 1) / submitters; ++n)
      r += retry == Retry::spin ? execute_spinning(ex, task) : execute(ex, task);
    refused += r;
  };
  std::vector<Thread> helpers;  // goroutines under the goroutine runtime
  for (int i = 1; i < submitters; ++i) helpers.emplace_back("submitter", [&submit_share, i] { submit_share(i); });
  submit_share(0);
  done.wait();
  for (Thread& h : helpers) h.join();
  return refused;
}

// How many tasks fit in `budget` for this design (sizes.dispatch_tasks at
// most, sizes.dispatch_min at least), from warm probes of sizes.dispatch_probe
// tasks; also the probe's ns a task and how many tasks the probes ran.
struct Sizing {
  std::int64_t tasks;
  double probe_ns;
  std::int64_t probed;
};
Sizing tasks_for(Executor& ex, int submitters, std::chrono::nanoseconds budget, Retry retry = Retry::yield) {
  const double threshold_ns = static_cast<double>(budget.count()) / static_cast<double>(sizes.dispatch_tasks);
  double probe_ns = 0;
  std::int64_t probed = 0;
  for (int i = 0; i < kDispatchProbes; ++i) {
    auto t0 = now_ns();
    run_tasks(ex, sizes.dispatch_probe, submitters, retry);
    probed += sizes.dispatch_probe;
    const auto took = now_ns() - t0;
    const double ns = static_cast<double>(took) / sizes.dispatch_probe;
    probe_ns = i == 0 ? ns : std::min(probe_ns, ns);
    if (probe_ns <= threshold_ns || took > Nanos(kDispatchReprobe).count()) break;
  }
  const auto tasks = probe_ns <= threshold_ns
                         ? sizes.dispatch_tasks
                         : std::clamp(static_cast<std::int64_t>(static_cast<double>(budget.count()) / probe_ns),
                                      sizes.dispatch_min, sizes.dispatch_tasks);
  return {tasks, probe_ns, probed};
}

// --runtime goroutines (main): the dispatch/ rows on Go's runtime.
bool g_goroutines = false;

void dispatch_here(benchmark::State& state, const Target& target, int workers, int submitters, bool traced);

void dispatch(benchmark::State& state, const Target& target, int workers, int submitters, bool traced) {
  // A reference's own threads are the OS's: its completions could not wake
  // a goroutine (a notify from outside the runtime does not reach it).
  if (!g_goroutines || target.reference) return dispatch_here(state, target, workers, submitters, traced);
  goroutines::Runtime rt;
  rt.run([&] { dispatch_here(state, target, workers, submitters, traced); });
  state.counters["goroutine_switches"] = static_cast<double>(rt.stats().switches);
  state.counters["runnext"] = static_cast<double>(rt.stats().runnext);
  state.counters["stolen"] = static_cast<double>(rt.stats().stolen);
  state.counters["m_parks"] = static_cast<double>(rt.stats().m_parks);
}

void dispatch_here(benchmark::State& state, const Target& target, int workers, int submitters, bool traced) {
  Tracing tracing(traced);
  std::unique_ptr<Executor> ex;
  try {
    ex = target.make(workers, Purpose::fixed, tracing.target());
  } catch (const std::exception& e) {
    return fail(state, e);
  }
  run_tasks(*ex, sizes.dispatch_warmup, submitters);  // starts lazily started workers; warms caches and allocators
  const auto [tasks, probe_ns, probed] = tasks_for(*ex, submitters, sizes.dispatch_budget);
  std::uint64_t refused = 0;
  std::int64_t elapsed = 0;
  const double switches_before = context_switches();
  for (auto _ : state) {
    auto start = now_ns();
    refused += run_tasks(*ex, tasks, submitters);
    elapsed += now_ns() - start;
  }
  const double switches = context_switches() - switches_before;
  ex->shutdown();
  state.counters["tasks"] = static_cast<double>(tasks);
  state.counters["probe_ns_per_task"] = probe_ns;
  state.counters["switches_per_task"] = switches / static_cast<double>(tasks * state.iterations());
  state.counters["ns_per_task"] = static_cast<double>(elapsed) / static_cast<double>(tasks * state.iterations());
  state.counters["refused_per_task"] = static_cast<double>(refused) / static_cast<double>(tasks * state.iterations());
  if (traced) state.counters["events_dropped"] = static_cast<double>(tracing.dropped());
}

// Tracing on ÷ off, as throughput: time off ÷ time on, one ratio per round;
// reports their median and range, the events dropped in all the "on" runs,
// and the refusals a task off and on. A design that refuses while its
// workers are busy (fasthttp) measures its refusals here as much as its
// dispatch: tracing slows the submitter, which is then refused less often,
// so its ratio can pass 1 (issue 40); the two refusal counts show when.
//
// Retry::spin (the `/retry:spin` row of a design that refuses_when_busy): a
// refused submitter tries again at once (a pause between tries, a yield
// every 32), so it takes the worker back the moment it is back, traced or
// not: both runs make the same turns of the design's loop, and their
// refusals a task stay alike (they differ a lot when the submitter yields,
// and then rule the time: issue 40). The ratio is tracing's cost to that
// loop, each refusal's two events (submitted, refused) included, as a
// saturated server records them. One task in flight at a time (offered when
// the last has ended) was tried instead: hundreds of µs a task on a loaded
// machine, whose spinning threads are preempted (docs/performance.md).
void trace_cost(benchmark::State& state, const Target& target, int workers, Retry retry, bool engine_clock) {
  std::vector<double> ratios;
  double dropped = 0, recorded = 0, tasks_run = 0, on_ns = 0, refused[2] = {0, 0}, measured[2] = {0, 0};
  for (auto _ : state) {
    for (int round = 0; round < sizes.trace_rounds; ++round) {
      double ns[2] = {0, 0};
      for (int k = 0; k < 2; ++k) {
        const bool traced = (k == 1) != (round % 2 == 1);
        Tracing tracing(traced);
        // On the engine's clock, as in a scenario run, both runs read it.
        AdjustableClock clock;
        TraceTarget to = tracing.target();
        if (engine_clock) to.clock = &clock;
        std::unique_ptr<Executor> ex;
        try {
          ex = target.make(workers, Purpose::fixed, to);
        } catch (const std::exception& e) {
          return fail(state, e);
        }
        run_tasks(*ex, sizes.dispatch_warmup, 1, retry);
        const auto [tasks, probe_ns, probed] = tasks_for(*ex, 1, sizes.trace_budget, retry);
        const auto t0 = now_ns();
        refused[traced] += static_cast<double>(run_tasks(*ex, tasks, 1, retry));
        ns[traced] = static_cast<double>(now_ns() - t0) / static_cast<double>(tasks);
        measured[traced] += static_cast<double>(tasks);
        ex->shutdown();
        if (traced) {
          dropped += static_cast<double>(tracing.dropped());
          recorded += static_cast<double>(tracing.recorded());
          tasks_run += static_cast<double>(tasks + sizes.dispatch_warmup + probed);
          on_ns += ns[1];
        }
      }
      ratios.push_back(ns[0] / ns[1]);
    }
  }
  std::sort(ratios.begin(), ratios.end());
  state.counters["ratio"] = ratios[ratios.size() / 2];
  state.counters["ratio_min"] = ratios.front();
  state.counters["ratio_max"] = ratios.back();
  state.counters["events_dropped"] = dropped;
  state.counters["events_per_task"] = tasks_run > 0 ? recorded / tasks_run : 0;
  state.counters["on_tasks_per_s"] = on_ns > 0 ? 1e9 / (on_ns / sizes.trace_rounds) : 0;
  state.counters["refused_per_task_off"] = measured[0] > 0 ? refused[0] / measured[0] : 0;
  state.counters["refused_per_task_on"] = measured[1] > 0 ? refused[1] / measured[1] : 0;
}

// One task at a time into an idle pool of one worker; the task stamps its
// start. The submitter spins meanwhile (it keeps its core, as in the
// originals' runs), and between samples, so the worker parks again.
void wakeup(benchmark::State& state, const Target& target) {
  std::unique_ptr<Executor> ex;
  try {
    ex = target.make(1, Purpose::fixed, {});
  } catch (const std::exception& e) {
    return fail(state, e);
  }
  std::vector<std::int64_t> latency;
  auto sample = [&] {
    std::atomic<std::int64_t> started{0};
    spin_for(kWakeGap);
    auto t0 = now_ns();
    execute(*ex, [&started] { started.store(now_ns(), std::memory_order_release); });
    std::int64_t t1;
    while ((t1 = started.load(std::memory_order_acquire)) == 0) {
    }
    return t1 - t0;
  };
  for (int i = 0; i < 10; ++i) sample();  // lazily started workers start here
  for (auto _ : state) {
    latency.clear();
    for (int i = 0; i < sizes.wake_samples; ++i) latency.push_back(sample());
  }
  ex->shutdown();
  state.counters["p50_us"] = quantile(latency, 0.50) / 1e3;
  state.counters["p99_us"] = quantile(latency, 0.99) / 1e3;
}

// The ants README benchmark on this machine: the time from the first submit
// to the last task's end, over the floor (tasks x 10 ms / workers = 200 ms,
// with the workers the design really got). A design that gets fewer than
// kSleepWorkers (redis-io's 128 I/O threads) runs as many tasks per worker,
// so its floor is the same 200 ms, not 8 s.
void sleep_bound(benchmark::State& state, const Target& target) {
  const int workers = target.granted(kSleepWorkers, Purpose::fixed);
  const std::int64_t tasks = std::min(sizes.sleep_tasks, sizes.sleep_tasks * workers / kSleepWorkers);
  const auto threads_before = threads_created();
  const double cpu_before = scenario::sample_process().cpu_seconds;
  PeakUsage peak;
  for (auto _ : state) {
    std::unique_ptr<Executor> ex;
    try {
      ex = target.make(kSleepWorkers, Purpose::fixed, {});
    } catch (const std::exception& e) {
      return fail(state, e);
    }
    Countdown done(tasks);
    for (std::int64_t i = 0; i < tasks; ++i)
      execute(*ex, [&done] {
        std::this_thread::sleep_for(kSleepTask);
        done.tick();
      });
    done.wait();
    state.PauseTiming();
    ex->shutdown();  // joining 5,000 threads is not the workload's time
    ex.reset();
    state.ResumeTiming();
  }
  const double floor_s = static_cast<double>(tasks) * 0.010 / workers;
  state.counters["tasks"] = static_cast<double>(tasks);
  state.counters["workers"] = workers;
  state.counters["floor_ms"] = floor_s * 1e3;
  state.counters["peak_rss_mb"] = peak.peak_mb_above_start();
  // Every thread of the process at its peak, whoever started it (asio and
  // TBB start theirs themselves), and the threads poolscope::Thread started.
  state.counters["peak_threads"] = static_cast<double>(peak.peak_threads_above_start());
  // Every thread's CPU time, shutdowns included: two cores give 2 s a second.
  state.counters["cpu_s"] =
      (scenario::sample_process().cpu_seconds - cpu_before) / static_cast<double>(state.iterations());
  state.counters["threads_created"] =
      static_cast<double>(threads_created() - threads_before) / static_cast<double>(state.iterations());
}

// Bursts of kChurnBurst tasks of 1 ms, each followed by an idle gap longer
// than the design's idle limit on a clock running kChurnScale times faster.
// Threads created per 1,000 tasks says how much of the pool is rebuilt.
// Each such cold burst is followed at once by a warm one (no idle gap: the
// workers are still there), the same design's floor; what a thread start
// costs the burst is measured from the two: (cold - warm) time over the
// threads the cold burst started beyond the warm one. The first cycle starts
// the pool from nothing (and the process's first allocations): it counts in
// the threads per 1,000 tasks, not in the burst times.
void churn(benchmark::State& state, const Target& target) {
  SteadyClock clock(kChurnScale);
  std::unique_ptr<Executor> ex;
  try {
    ex = target.make(kChurnWorkers, Purpose::churn, TraceTarget{.clock = &clock});
  } catch (const std::exception& e) {
    return fail(state, e);
  }
  struct Burst {
    std::int64_t ns = 0;
    std::size_t threads = 0;
  };
  auto burst = [&ex] {
    const auto threads0 = threads_created();
    auto t0 = now_ns();
    Countdown done(kChurnBurst);
    for (int i = 0; i < kChurnBurst; ++i)
      execute(*ex, [&done] {
        std::this_thread::sleep_for(1ms);
        done.tick();
      });
    done.wait();
    return Burst{now_ns() - t0, threads_created() - threads0};
  };
  const auto threads_before = threads_created();
  Burst cold, warm;           // cycles 2.. of every iteration
  std::size_t warm_all = 0;   // threads of every warm burst, the first cycle's too
  std::int64_t measured = 0;  // cycles in cold and warm
  for (auto _ : state) {
    for (int c = 0; c < sizes.churn_cycles; ++c) {
      Burst b = burst(), w = burst();
      warm_all += w.threads;
      if (c > 0) {
        cold.ns += b.ns;
        cold.threads += b.threads;
        warm.ns += w.ns;
        warm.threads += w.threads;
        measured++;
      }
      std::this_thread::sleep_for(kChurnIdle);
    }
  }
  ex->shutdown();
  const double tasks = static_cast<double>(kChurnBurst) * sizes.churn_cycles * static_cast<double>(state.iterations());
  // The cycles' threads (the warm bursts' left out: they are not part of them).
  state.counters["threads_per_1k_tasks"] =
      static_cast<double>(threads_created() - threads_before - warm_all) * 1000 / tasks;
  // The floor is 8 ms a burst (64 tasks of 1 ms on 8 workers).
  const auto bursts = static_cast<double>(measured);
  state.counters["burst_ms"] = static_cast<double>(cold.ns) / 1e6 / bursts;
  state.counters["warm_burst_ms"] = static_cast<double>(warm.ns) / 1e6 / bursts;
  state.counters["threads_per_burst"] = static_cast<double>(cold.threads) / bursts;
  state.counters["threads_per_warm_burst"] = static_cast<double>(warm.threads) / bursts;
  // Per thread started beyond the warm burst's; left out when there are none
  // (a pool that never reaps, or spawn, which starts 64 either way).
  if (cold.threads >= warm.threads + static_cast<std::size_t>(measured))
    state.counters["us_per_spawn"] =
        static_cast<double>(cold.ns - warm.ns) / 1e3 / static_cast<double>(cold.threads - warm.threads);
}

// A cross-core futex hand-off: the benchmark thread stores and notifies, a
// parked thread wakes and stamps the time. The floor for any pool's wake-up.
void handoff(benchmark::State& state) {
  std::atomic<std::int64_t> go{0}, woke{0};
  std::jthread waiter([&] {
    for (std::int64_t seen = 0;;) {
      go.wait(seen, std::memory_order_acquire);
      seen = go.load(std::memory_order_acquire);
      if (seen < 0) return;
      woke.store(now_ns(), std::memory_order_release);
    }
  });
  std::vector<std::int64_t> latency;
  for (auto _ : state) {
    latency.clear();
    for (int i = 1; i <= sizes.wake_samples; ++i) {
      spin_for(kWakeGap);
      woke.store(0, std::memory_order_relaxed);
      auto t0 = now_ns();
      go.store(i, std::memory_order_release);
      go.notify_one();
      std::int64_t t1;
      while ((t1 = woke.load(std::memory_order_acquire)) == 0) {
      }
      latency.push_back(t1 - t0);
    }
  }
  go.store(-1, std::memory_order_release);
  go.notify_one();
  state.counters["p50_us"] = quantile(latency, 0.50) / 1e3;
  state.counters["p99_us"] = quantile(latency, 0.99) / 1e3;
}

void thread_create_join(benchmark::State& state) {
  for (auto _ : state) Thread("bench", [] {}).join();
}

void clock_read(benchmark::State& state) {
  for (auto _ : state) benchmark::DoNotOptimize(std::chrono::steady_clock::now());
}

void register_all() {
  using benchmark::RegisterBenchmark;
  RegisterBenchmark("machine/clock_read", clock_read);
  RegisterBenchmark("machine/thread_create_join", thread_create_join)->UseRealTime();
  // The wake-up samples (here and in wakeup/) are one repetition whatever
  // --benchmark_repetitions says: p50 and p99 of 1,000 samples are their own
  // statistic, and on a loaded machine a sample can wait 10 ms for a CPU
  // (146 s of the suite's wakeup/ rows at 3 repetitions, 2026-11-29).
  RegisterBenchmark("machine/handoff", handoff)
      ->Iterations(1)
      ->Repetitions(1)
      ->UseRealTime()
      ->Unit(benchmark::kMillisecond);

  static const std::vector<Target> all = targets();
  for (const Target& t : all) {
    for (int submitters : {1, 2}) {
      for (int workers : {1, 2}) {
        std::string name = "dispatch/" + t.name + "/w:" + std::to_string(workers) + "/s:" + std::to_string(submitters) +
                           "/trace:off";
        RegisterBenchmark(name.c_str(), [&t, workers, submitters](benchmark::State& s) {
          dispatch(s, t, workers, submitters, false);
        })
            ->Iterations(1)
            ->UseRealTime()
            ->Unit(benchmark::kMillisecond);
      }
    }
  }
  for (const Target& t : all) {
    if (t.reference) continue;  // never traced
    for (int workers : {1, 2})
      for (bool engine_clock : {false, true}) {
        if (engine_clock && workers == 2) continue;  // one row is enough to see the clock's part
        RegisterBenchmark(
            ("trace_cost/" + t.name + "/w:" + std::to_string(workers) + (engine_clock ? "/clock:engine" : "")).c_str(),
            [&t, workers, engine_clock](benchmark::State& s) { trace_cost(s, t, workers, Retry::yield, engine_clock); })
            ->Iterations(1)
            ->UseRealTime()
            ->Unit(benchmark::kMillisecond);
      }
    if (t.refuses_when_busy)
      RegisterBenchmark(("trace_cost/" + t.name + "/w:1/retry:spin").c_str(),
                        [&t](benchmark::State& s) { trace_cost(s, t, 1, Retry::spin, false); })
          ->Iterations(1)
          ->UseRealTime()
          ->Unit(benchmark::kMillisecond);
  }
  for (const Target& t : all)
    RegisterBenchmark(("wakeup/" + t.name).c_str(), [&t](benchmark::State& s) { wakeup(s, t); })
        ->Iterations(1)
        ->Repetitions(1)
        ->UseRealTime()
        ->Unit(benchmark::kMillisecond);
  for (const Target& t : all) {
    if (t.name == "tbb") continue;  // TBB caps its workers at the core count: 500 s, not 200 ms
    // A design with a fixed handful of threads (redis-bio's three) would take
    // minutes: 100,000 x 10 ms over its workers.
    if (t.granted(kSleepWorkers, Purpose::fixed) < 64) continue;
    RegisterBenchmark(("sleep/" + t.name).c_str(), [&t](benchmark::State& s) { sleep_bound(s, t); })
        ->Iterations(1)
        ->UseRealTime()
        ->Unit(benchmark::kMillisecond);
  }
  for (const Target& t : all) {
    if (t.reference) continue;
    RegisterBenchmark(("churn/" + t.name).c_str(), [&t](benchmark::State& s) { churn(s, t); })
        ->Iterations(1)
        ->UseRealTime()
        ->Unit(benchmark::kMillisecond);
  }
}

}  // namespace
}  // namespace poolscope::bench

int main(int argc, char** argv) {
  if (poolscope::bench::take_smoke_flag(argc, argv)) poolscope::bench::sizes = poolscope::bench::kSmoke;
  // --runtime threads|goroutines, taken before Google Benchmark reads the rest.
  int kept = 1;
  for (int i = 1; i < argc; ++i) {
    std::string_view a(argv[i]);
    if (a == "--runtime=goroutines" || (a == "--runtime" && i + 1 < argc && std::string_view(argv[i + 1]) == "goroutines")) {
      poolscope::bench::g_goroutines = true;
      if (a == "--runtime") ++i;
    } else if (a == "--runtime=threads" || (a == "--runtime" && i + 1 < argc && std::string_view(argv[i + 1]) == "threads")) {
      if (a == "--runtime") ++i;
    } else {
      argv[kept++] = argv[i];
    }
  }
  argc = kept;
  argv[argc] = nullptr;
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  poolscope::bench::register_all();
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
