// The workload: a scenario turned into concrete tasks at concrete times by
// its seed. Every pool gets the same arrivals, so the same seed gives every
// pool (and every machine) the same tasks at the same scenario times. They
// are streamed, phase after phase in time order (ArrivalStream), never listed
// whole: a run holds only the arrivals its submitters have not yet taken.
// Closed-loop clients cannot be listed ahead (when a client submits depends
// on the pool), so each gets a seed of its own instead: the same sequence of
// tasks and think times, whichever pool it drives.
#pragma once

#include <deque>
#include <mutex>
#include <optional>
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

// What a run knows of its workload before it starts: the closed-loop
// clients and the end. The scheduled arrivals are streamed (ArrivalStream).
struct Workload {
  std::vector<ClientPlan> clients;
  Time end{0};  // the end of the last phase
};
Workload plan_workload(const Scenario& s);

// One phase's arrival times, relative to its start, in time order (each
// kind draws them in order; a replay file's are sorted when read), drawn
// from the phase's own stream one at a time.
class PhaseArrivals {
 public:
  PhaseArrivals(const ArrivalSpec& a, Nanos duration, std::uint64_t seed);
  std::optional<Nanos> next();  // nullopt once the phase has no more

 private:
  const ArrivalSpec& a_;
  Nanos duration_;
  double d_;  // duration_ in ns
  Rng rng_;
  double t_ = 0;    // constant, poisson: the next time; ramp: the next expected count
  double gap_ = 0;  // constant: 1 / rate; poisson: its mean
  double r0_ = 0, slope_ = 0, total_ = 0;  // ramp: rate(t) = r0 + slope t, and its integral
  Nanos burst_at_{0};
  int burst_sent_ = 0;
  std::size_t replayed_ = 0;
};

// Every scheduled arrival of a scenario in time order, phase after phase,
// each task drawn (from its phase's task stream) when its arrival is: the
// phases follow each other and each phase's times lie in its span, so this
// is the order of a list of them all sorted by time.
class ArrivalStream {
 public:
  explicit ArrivalStream(const Scenario& s);
  std::optional<ScheduledTask> next();  // nullopt after the last

 private:
  void open_phase();
  const Scenario& s_;
  std::uint32_t phase_ = 0;
  Time start_{0};  // of the phase
  std::optional<PhaseArrivals> times_;
  Rng tasks_{0};
};

// Every scheduled arrival at once, for tests and tools: the engine streams.
std::vector<ScheduledTask> list_arrivals(const Scenario& s);

// One pool's arrivals, shared by its n submitters as a list would be:
// submitter k takes arrivals k, k + n, k + 2n, ... Each is generated on
// first demand and kept only until its submitter takes it: the window runs
// from the oldest arrival not yet taken, so a submitter blocked in submit
// holds back its own share and an empty slot for each arrival taken since.
class SharedArrivals {
 public:
  explicit SharedArrivals(const Scenario& s) : stream_(s) {}
  // Arrival number `index` (each taken once), or nullopt past the last.
  std::optional<ScheduledTask> take(std::uint64_t index);

 private:
  std::mutex m_;  // a plain mutex: nothing blocks under it, so a simulation never switches here
  ArrivalStream stream_;
  std::deque<std::optional<ScheduledTask>> window_;  // generated, not all taken yet
  std::uint64_t first_ = 0;                          // the index of window_.front()
  bool ended_ = false;
};

// The bound on a workload, checked before anything is generated or run.
struct Limits {
  // Scheduled tasks (arrivals and every child they will submit) of the whole
  // scenario; `poolscope --max-tasks` changes it.
  std::uint64_t max_tasks = 10'000'000;
  // How the bound can be raised, for the message.
  std::string raise = "poolscope --max-tasks N raises the bound";
};

// What a scenario schedules, counted without building it: the same arrival
// times a run streams (PhaseArrivals), each only counted; no task is drawn.
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
