// Run's nested types, shared by the engine's files and private to them:
// Driver (one pool's submitters, clients and closer: engine_driver.cpp) and
// Simulation (a simulated run's World: engine_simulation.cpp). engine.cpp
// says which file holds what.
#pragma once

#include <atomic>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "pools/core/sim/world.h"
#include "pools/core/thread.h"
#include "scenarios/engine/engine.h"
#include "scenarios/engine/task_body.h"

namespace poolscope::scenario {

// One pool's side of a segment: the pool, its submitters and clients, its closer.
struct Run::Driver {
  Driver(Run& r, std::size_t idx, Clock& c)
      : run(r), index(idx), entry(r.scenario_.pools[idx]), clock(c), arrivals(r.scenario_) {}

  Run& run;
  std::size_t index;
  const PoolEntry& entry;
  Clock& clock;
  TaskContext ctx;
  SharedArrivals arrivals;  // this pool's, generated as its submitters take them
  std::vector<std::vector<std::int64_t>> lateness;     // one vector per submitter thread
  std::unique_ptr<Pool> pool;

  Mutex m;
  CondVar cv;
  bool stopping = false;
  std::atomic<int> active{0};  // submitter and client threads still going
  std::vector<Thread> threads;
  std::unique_ptr<Thread> closer;
  std::atomic<bool> closing{false};  // shutdown has begun
  std::atomic<bool> closed{false};   // and returned
  Time busy_since{-1};
  Time parents_blocked_since{-1};  // since when parents_block_workers() has held
  // Run::elapsed() when the watchdog's current no-progress window (from its
  // start in scenario time) and parents-blocked window began: a real run's
  // stall also needs RunOptions::stall_wall_floor of wall time.
  Time window_from{-1};
  Nanos window_wall{0}, parents_blocked_wall{0};
  Nanos stalled_at{0};  // Run::elapsed() when the stall was seen
  bool release_pending = false;  // stalled: release waiting parents once shutdown has dropped the queue

  // Sleeps on the scenario clock; false once the driver is stopping.
  bool sleep_until(Time t);
  void stop_submitting();
  // Shuts the pool down on a thread of its own (once).
  void start_closer(ShutdownMode mode);
  // Submitter k of n: every n-th scheduled arrival, from the k-th, at its time.
  void submitter(std::size_t k, std::size_t n);
  // Closed-loop client c: submits, waits for the task, thinks, again.
  void client(std::size_t c);
};

// A simulated run: the whole of control() runs as the World's main thread,
// so every thread the engine and the pools start is the World's. The World
// runs on whichever OS thread advances it: the controller's, or the caller's
// in a sliced run.
struct Run::Simulation {
  explicit Simulation(const sim::Settings& settings) : world(settings), out{.settings = world.settings()} {}
  sim::World world;
  RunOutcome::Simulation out;
  std::vector<Event> batch;  // drain_simulated's
  bool draining_when_full = false;
};

}  // namespace poolscope::scenario
