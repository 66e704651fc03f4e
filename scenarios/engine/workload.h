// The workload: a scenario turned into concrete tasks at concrete times by
// its seed. Generated once per run; every pool gets the same list, so the
// same seed gives every pool (and every machine) the same tasks at the same
// scenario times. Closed-loop clients cannot be listed ahead (when a client
// submits depends on the pool), so each gets a seed of its own instead: the
// same sequence of tasks and think times, whichever pool it drives.
#pragma once

#include <vector>

#include "scenarios/engine/scenario.h"

namespace poolscope::scenario {

struct TaskInstance {
  TaskSpec::Kind kind = TaskSpec::Kind::sleep;
  Nanos duration{0};
  bool throws = false;
  int priority = 0;
  bool wait_children = false;
  std::vector<TaskInstance> children;
};

struct ScheduledTask {
  Time at{0};  // scenario time of the submission
  std::uint32_t phase = 0;
  TaskInstance task;
};

struct ClientPlan {
  std::uint32_t phase = 0;
  Time start{0}, end{0};   // the client submits while start <= now < end
  std::uint64_t seed = 0;  // its own stream of tasks and think times
};

struct Workload {
  std::vector<ScheduledTask> arrivals;  // sorted by time
  std::vector<ClientPlan> clients;
  Time end{0};  // the end of the last phase
};

Workload generate(const Scenario& s);

// The bound on a workload, checked before anything is generated or run.
struct Limits {
  // Scheduled tasks (arrivals and every child they will submit) of the whole
  // scenario; `poolscope --max-tasks` changes it.
  std::uint64_t max_tasks = 10'000'000;
};

// What a scenario schedules, counted without building it: the same arrival
// times generate() would draw (the same streams), each only counted.
struct WorkloadCount {
  std::uint64_t arrivals = 0;  // scheduled submissions
  std::uint64_t tasks = 0;     // arrivals and all their children
  std::uint64_t clients = 0;   // closed-loop clients
};
// Counts `s`'s workload; throws ConfigError naming the phase, its count and
// the bound as soon as the running total passes `limits.max_tasks` (so even
// a phase of 10^15 arrivals is refused after at most max_tasks steps).
WorkloadCount count_workload(const Scenario& s, const Limits& limits);
TaskInstance make_task(const TaskSpec& spec, Rng& rng);

// A closed-loop client's next task and think time, drawn from its own stream.
class ClientStream {
 public:
  ClientStream(const Phase& phase, std::uint64_t seed) : phase_(phase), rng_(seed) {}
  TaskInstance next_task() { return make_task(phase_.task, rng_); }
  Nanos next_think() { return phase_.arrival.think.sample(rng_); }

 private:
  const Phase& phase_;
  Rng rng_;
};

}  // namespace poolscope::scenario
