// The machine a simulation models: how many CPUs, and what the operations
// that cost time on a real machine cost in virtual time. Everything else a
// thread does between two scheduling points takes no virtual time at all.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <string_view>

#include "pools/core/clock.h"

namespace poolscope::sim {

struct Costs {
  std::string name = "os-threads";
  // CPU time the creating thread spends to start a thread (pthread_create,
  // the new stack); the new thread is ready a wake-up later.
  Nanos start{std::chrono::microseconds(36)};
  // From the notify (unlock, channel send, ready) until the woken thread runs.
  Nanos wake{std::chrono::microseconds(20)};
  // CPU time the waking thread spends per thread it wakes (the futex call).
  Nanos handoff{std::chrono::microseconds(2)};
  // CPU time a woken thread spends getting back onto a CPU (the context
  // switch, the caches it refills): a thousand threads each woken every 10 ms
  // keep two CPUs busy with switching alone, as on a real machine.
  Nanos resume{std::chrono::microseconds(2)};
  // CPU time a submitter spends in one submit call's own code (the pool's
  // bookkeeping, the trace, the engine's), beyond the waits and wake-ups it
  // causes: a burst of 300 submissions takes 150 µs, time enough for the
  // workers it wakes to start taking them, as on a real machine.
  Nanos submit{std::chrono::nanoseconds(500)};
  // CPU time one yield of a spinning thread burns.
  Nanos yield{std::chrono::nanoseconds(100)};
  // A thread that computes longer than this is preempted, so that the others
  // waiting for a CPU get a turn (round robin).
  Nanos quantum{std::chrono::milliseconds(1)};
};

// The presets, by the name --costs takes:
//   os-threads  this machine's measured figures (docs/performance.md):
//               thread create + join about 36 µs, a cross-core wake-up 20 µs
//   goroutines  Go's: a goroutine starts in about 1 µs, wakes in 0.2 µs
//   jvm         OpenJDK 17's platform threads, measured on this machine: a
//               thread start costs its caller 44 µs and runs 74 µs later; a
//               parked pool thread spends 80 µs of CPU getting back to work
//               (the pool's code in a short-lived JVM is interpreted)
//   processes   php-fpm's children: a fork without exec, whose measured cost
//               (0.6 ms of the master's, 1-2 ms until the child accepts) the
//               phpfpm design charges itself (fork_time, child_start), so a
//               start costs nothing more here; a child blocked in accept()
//               wakes as an OS thread does (sources in machine.cpp)
//   free        nothing costs time: only tasks and timers move the clock
Costs costs_preset(std::string_view name);  // throws std::invalid_argument naming the choices
// `spec` is a preset name, optionally followed by overrides:
// "goroutines,wake=500ns,quantum=4ms". Throws std::invalid_argument with a
// message that names the key and what was expected.
Costs parse_costs(std::string_view spec);
inline constexpr std::string_view kCostPresets = "os-threads, goroutines, jvm, processes, free";
// What a scenario's "costs" says by default: each pool on the costs of the
// runtime its design's original runs on (Design::runtime), and the run's own
// threads (the engine's monitor, main) on os-threads. Any preset named
// instead applies to every pool. It takes no overrides.
inline constexpr std::string_view kRuntimeCosts = "runtime";
// The preset a runtime (one of Design::runtime's names) runs on: each is
// named as its runtime is.
Costs runtime_costs(std::string_view runtime);  // throws std::invalid_argument
// Checks a scenario's costs: kRuntimeCosts, or what parse_costs takes.
void check_costs(std::string_view spec);  // throws std::invalid_argument

// How the scheduler picks the next thread at a scheduling point.
enum class Policy {
  random,  // uniformly among the runnable threads, from the seed (the default)
  pct,     // probabilistic concurrency testing: random priorities, d-1 priority change points
  fifo,    // no preemption: the running thread goes on; then the one runnable longest
};
Policy parse_policy(std::string_view name);  // throws std::invalid_argument
std::string_view to_string(Policy p);

struct Settings {
  std::uint64_t seed = 1;
  int cpus = 2;
  Costs costs;  // every thread's, but those of a group in group_costs
  // A thread group's own costs (the engine names each pool's threads
  // "pool 'NAME'"): what its threads pay for what they do. The world reads
  // them through costs_of().
  std::map<std::string, Costs, std::less<>> group_costs;
  const Costs& costs_of(std::string_view group) const {
    if (group_costs.empty()) return costs;
    auto it = group_costs.find(group);
    return it == group_costs.end() ? costs : it->second;
  }
  Policy policy = Policy::random;
  int pct_depth = 3;                 // pct: bugs of this depth get a fair chance
  std::uint64_t pct_steps = 20000;   // pct: change points fall among this many steps
  // A run that makes this many scheduling points without virtual time moving
  // is livelocked (a busy-wait with points): it fails.
  std::uint64_t max_steps_per_instant = 5'000'000;
  // Wall time one thread may run without reaching a scheduling point before
  // the simulation is declared stuck (a raw busy-wait, std::mutex, sleep_for).
  std::chrono::milliseconds stuck_after{5000};
  std::size_t stack_bytes = 256 * 1024;
};

inline constexpr int kMaxCpus = 4096;

}  // namespace poolscope::sim
