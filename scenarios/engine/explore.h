// Schedule exploration: run one scenario under many seeded schedules of the
// simulation (uniform random and PCT in turn) and stop at the first that goes
// wrong, with the seed that replays it. A pass proves nothing (the schedules
// are a sample, as shuttle says of its own); a failure replays exactly.
#pragma once

#include <functional>
#include <optional>
#include <string>

#include "scenarios/engine/engine.h"

namespace poolscope::scenario {

// What is wrong with one finished run, or "" if nothing: the simulation could
// not go on (a deadlock or livelock of the whole run), the accounting
// invariant broke (a task lost, run twice or refused without a reason), a
// pool stalled (the watchdog, in virtual time: a deadlock of its own, a task
// stranded in a queue), the trace is incomplete, or threads outlived the run.
std::string run_problem(const RunOutcome& outcome, const metrics::RunMetrics& m);

// When the problem of a failed run showed, on the trace's time axis, and
// since when it had been building: for a stall, the watchdog firing and the
// pool's last progress before it; otherwise (a failed simulation, a broken
// invariant, a thread left over) where the trace ends, for both. The GUI
// opens a failing schedule there.
struct ProblemMoment {
  Time at{0}, since{0};
};
ProblemMoment problem_moment(const RunOutcome& outcome, const metrics::RunMetrics& m);

struct ExploreOptions {
  int schedules = 1000;
  std::uint64_t first_seed = 1;
  // Unset: even schedules uniform random, odd ones PCT (depth 3).
  std::optional<sim::Policy> policy;
  // Bounds the pool's own parameters set (a lab's worker limit, its queue's
  // bound): a schedule in which a pool's trace shows more workers alive, or
  // more tasks queued, than these fails like a broken invariant. Unset: none.
  std::optional<std::uint32_t> max_workers, max_queued;
};

// What bound of `o` one finished run broke, or "" if none (or none is set).
std::string bound_problem(const RunOutcome& outcome, const metrics::RunMetrics& m, const ExploreOptions& o);

struct ExploreFailure {
  int schedule = 0;       // 0-based
  sim::Settings settings; // replays it
  std::string problem;
};

struct ExploreResult {
  int ran = 0;
  std::optional<ExploreFailure> failure;
};

// The settings of schedule `i`.
sim::Settings schedule_settings(const Scenario& s, const ExploreOptions& o, int i);

// Runs the schedules until one fails or all pass. `progress(i)` is called
// before each; returning false stops early.
ExploreResult explore(const Scenario& s, const ExploreOptions& o, const std::function<bool(int)>& progress = {});

}  // namespace poolscope::scenario
