// The simulation's two costs (docs/simulation.md, docs/performance.md):
//
//   primitive/*  what poolscope's primitives cost in a real run, beside the
//                standard ones they wrap (one thread-local read each: is a
//                World running here?). Read as ratios: poolscope ÷ std. The
//                hook's own cost is the bench's dispatch figures before and
//                after it (docs/performance.md).
//   sim/*        how fast the World runs: scheduling points a second for the
//                bare primitives, and for whole shipped scenarios the points,
//                tasks and virtual seconds per wall second.
#include <benchmark/benchmark.h>

#include <condition_variable>
#include <mutex>
#include <thread>

#include "bench/smoke.h"
#include "pools/core/clock.h"
#include "pools/core/go/chan.h"
#include "pools/core/sim/world.h"
#include "pools/core/sync.h"
#include "pools/core/thread.h"
#include "scenarios/engine/engine.h"
#include "scenarios/engine/library.h"
#include "scenarios/engine/scenario.h"

using namespace poolscope;

namespace {

// --- primitive/: real mode, poolscope against std, in the same run ---------

template <class M>
void lock_unlock(benchmark::State& state) {
  static M m;  // shared by the threads of a contended run
  for (auto _ : state) {
    m.lock();
    benchmark::ClobberMemory();
    m.unlock();
  }
}
void BM_StdMutex(benchmark::State& s) { lock_unlock<std::mutex>(s); }
void BM_Mutex(benchmark::State& s) { lock_unlock<Mutex>(s); }

// A notify with nobody waiting: what a pool pays on every submit that finds
// its workers busy.
template <class CV>
void notify_nobody(benchmark::State& state) {
  CV cv;
  for (auto _ : state) cv.notify_one();
}
// CondVar wraps std::condition_variable_any (it works with ants' spin lock).
void BM_StdCondVarNotify(benchmark::State& s) { notify_nobody<std::condition_variable_any>(s); }
void BM_CondVarNotify(benchmark::State& s) { notify_nobody<CondVar>(s); }

// A wake-up through a condition variable and back: two threads hand a flag
// to and fro under one lock (std::thread beside Thread, which also names the
// thread and counts it).
template <class M, class CV, class T>
void ping_pong(benchmark::State& state) {
  M m;
  CV cv;
  int turn = 0;  // 0: main's, 1: the other's, -1: stop
  T other([&] {
    std::unique_lock lock(m);
    for (;;) {
      cv.wait(lock, [&] { return turn != 0; });
      if (turn < 0) return;
      turn = 0;
      cv.notify_one();
    }
  });
  for (auto _ : state) {
    std::unique_lock lock(m);
    turn = 1;
    cv.notify_one();
    cv.wait(lock, [&] { return turn == 0; });
  }
  {
    std::lock_guard lock(m);
    turn = -1;
  }
  cv.notify_one();
  other.join();
}
struct NamedThread : Thread {
  explicit NamedThread(std::move_only_function<void()> body) : Thread("bench", std::move(body)) {}
};
void BM_StdPingPong(benchmark::State& s) { ping_pong<std::mutex, std::condition_variable_any, std::thread>(s); }
void BM_PingPong(benchmark::State& s) { ping_pong<Mutex, CondVar, NamedThread>(s); }

void BM_StdThreadStartJoin(benchmark::State& state) {
  for (auto _ : state) std::thread([] {}).join();
}
void BM_ThreadStartJoin(benchmark::State& state) {
  for (auto _ : state) Thread("bench", [] {}).join();
}

// --- sim/: the World's speed -------------------------------------------------

// Runs `threads` simulated threads, each making `points` scheduling points
// through `body`, in a fresh World per iteration; reports points a second.
template <class Body>
void in_world(benchmark::State& state, int threads, int points, Body body) {
  std::uint64_t steps = 0;
  for (auto _ : state) {
    sim::World world;
    world.run([&] {
      std::vector<Thread> ts;
      for (int i = 0; i < threads; ++i) ts.emplace_back("t", [&] { body(points); });
      for (auto& t : ts) t.join();
    });
    steps += world.steps();
  }
  state.counters["points/s"] = benchmark::Counter(static_cast<double>(steps), benchmark::Counter::kIsRate);
}

void BM_SimYield(benchmark::State& state) {
  in_world(state, 2, 10000, [](int n) {
    for (int i = 0; i < n; ++i) this_thread::yield();
  });
}

void BM_SimMutex(benchmark::State& state) {
  Mutex m;
  long sum = 0;
  in_world(state, 4, 5000, [&](int n) {
    for (int i = 0; i < n; ++i) {
      std::lock_guard g(m);
      ++sum;
    }
  });
  benchmark::DoNotOptimize(sum);
}

// An unbuffered Go channel: each value is a park and a wake-up.
void BM_SimChannel(benchmark::State& state) {
  std::uint64_t steps = 0;
  for (auto _ : state) {
    sim::World world;
    world.run([&] {
      go::Chan<int> ch;
      Thread receiver("recv", [&] {
        for (int v; ch.recv(v);) benchmark::DoNotOptimize(v);
      });
      for (int i = 0; i < 5000; ++i) ch.send(i);
      ch.close();
      receiver.join();
    });
    steps += world.steps();
  }
  state.counters["points/s"] = benchmark::Counter(static_cast<double>(steps), benchmark::Counter::kIsRate);
}

// A shipped scenario, simulated with its default settings, as the runner's
// --sim runs it (no events kept).
void BM_SimScenario(benchmark::State& state, const std::string& name) {
  const scenario::Scenario s = scenario::load_scenario(scenario::resolve_scenario(name));
  double steps = 0, virtual_s = 0, tasks = 0;
  const auto arrivals = static_cast<double>(scenario::count_workload(s, scenario::Limits{}).arrivals);
  for (auto _ : state) {
    scenario::RunOptions options;
    options.simulation = scenario::simulation_settings(s);
    scenario::Run run(s, options);
    run.start();
    run.wait();
    const auto& sim = *run.outcome().simulation;
    steps += static_cast<double>(sim.steps);
    virtual_s += std::chrono::duration<double>(sim.virtual_end).count();
    tasks += arrivals;
  }
  state.counters["points/s"] = benchmark::Counter(steps, benchmark::Counter::kIsRate);
  state.counters["arrivals/s"] = benchmark::Counter(tasks, benchmark::Counter::kIsRate);
  state.counters["speed-up"] = benchmark::Counter(virtual_s, benchmark::Counter::kIsRate);  // virtual s per wall s
}

}  // namespace

BENCHMARK(BM_StdMutex)->Name("primitive/mutex/std");
BENCHMARK(BM_Mutex)->Name("primitive/mutex/poolscope");
BENCHMARK(BM_StdMutex)->Name("primitive/mutex_contended/std")->Threads(2)->UseRealTime();
BENCHMARK(BM_Mutex)->Name("primitive/mutex_contended/poolscope")->Threads(2)->UseRealTime();
BENCHMARK(BM_StdCondVarNotify)->Name("primitive/notify_nobody/std");
BENCHMARK(BM_CondVarNotify)->Name("primitive/notify_nobody/poolscope");
BENCHMARK(BM_StdPingPong)->Name("primitive/ping_pong/std")->UseRealTime();
BENCHMARK(BM_PingPong)->Name("primitive/ping_pong/poolscope")->UseRealTime();
BENCHMARK(BM_StdThreadStartJoin)->Name("primitive/thread_start_join/std")->UseRealTime();
BENCHMARK(BM_ThreadStartJoin)->Name("primitive/thread_start_join/poolscope")->UseRealTime();

BENCHMARK(BM_SimYield)->Name("sim/yield")->UseRealTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_SimMutex)->Name("sim/mutex")->UseRealTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_SimChannel)->Name("sim/channel")->UseRealTime()->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_SimScenario, tour, std::string("tour"))->Name("sim/scenario/tour")->UseRealTime()->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_SimScenario, steady_poisson, std::string("steady-poisson"))
    ->Name("sim/scenario/steady-poisson")->UseRealTime()
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_SimScenario, survey, std::string("survey"))->Name("sim/scenario/survey")->UseRealTime()->Unit(benchmark::kMillisecond);

int main(int argc, char** argv) {
  poolscope::bench::take_smoke_flag(argc, argv);  // about a second already: the same run
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
