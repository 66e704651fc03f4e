// Challenges (docs/challenges.md, docs/schemas/challenge.schema.json): be the
// scheduler of a small simulated run, decision by decision (pools/core/sim/
// decision.h), until the pool breaks in a named way: the goal.
//
//   {"format": "poolscope-challenge/1", "name": "lab01-bound-before-lock",
//    "title": "...", "lab": "01", "pool": "lab01-bound-before-lock",
//    "scenario": { a scenario with one pool, few threads, few tasks },
//    "goal": {"kind": "queue-over-bound", "bound": 2},
//    "hint": "...", "explanation": "...",
//    "solution": {"seed": 1, "policy": "random", "picks": "3.5x2.4"}}
//
// The pool is a challenge pool (a lab mutant, registered under the
// challenge's name: labs/CMakeLists.txt), a lab reference or a design. A
// challenge on a correct pool says "correct": true; its explanation says
// what in the design prevents the failure, and no schedule should reach
// the goal (`poolscope challenge check` explores many to make sure).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "scenarios/engine/engine.h"
#include "scenarios/engine/metrics.h"
#include "scenarios/engine/schedule_file.h"

namespace poolscope::scenario {

struct Goal {
  enum class Kind {
    task_lost,              // a task accepted and never run (it waits for a worker that never comes)
    task_run_twice,         // more tasks ended than were accepted
    workers_over_limit,     // more workers alive at once than `limit`
    queue_over_bound,       // more tasks queued at once than `limit`
    worker_counted_twice,   // the pool's own count of workers drifts from its workers (`limit`: workers spawned beyond it)
    submitter_never_woken,  // a submitter blocked for ever
    below_core,             // fewer workers than `limit` (the core) while the pool still had work to keep them
    deadlock,               // every thread waits and nothing is due, or the pool stalls
    reaps_at_once,          // more than `limit` workers gone at one instant (before the workload ends)
  };
  Kind kind = Kind::task_lost;
  std::uint32_t limit = 0;  // every kind but task_lost, task_run_twice, submitter_never_woken, deadlock
  std::string describe() const;  // "more than 2 tasks queued at once"
};
std::string_view to_string(Goal::Kind k);

struct Challenge {
  std::string file;  // where it was read from
  std::string name, title;
  std::string lab;   // "01".."04", or "" for a design's challenge
  std::string pool;  // the design its scenario runs
  Scenario scenario;
  Goal goal;
  std::string hint;
  // Shown on a win: the mistake and its fix (the lab's own text). For a
  // correct pool: what in the design prevents the failure.
  std::string explanation;
  bool correct = false;
  std::optional<ScheduleSpec> solution;  // a schedule that wins (every challenge on a broken pool has one)
};

// The shipped challenges (scenarios/challenges/*.json), by name, sorted.
std::vector<std::string> shipped_challenges();
// A file, or a shipped challenge's name. Errors are ScenarioErrors naming
// the file and the JSON path.
Challenge load_challenge(const std::string& name_or_file);
Challenge parse_challenge(const json& j, const std::string& file);

// Whether the goal is reached by the run so far: after every decision, from
// the metrics so far (a peak, a count); at the end also from the outcome (a
// stall, a deadlock). Says how, or nullopt.
std::optional<std::string> goal_reached(const Challenge& c, const metrics::RunMetrics& m,
                                        const RunOutcome* ended = nullptr);

// The simulation a challenge runs under: its scenario's, with `seed` and
// `policy` when given (a solution's), else the scenario's.
sim::Settings challenge_settings(const Challenge& c, std::optional<std::uint64_t> seed = std::nullopt,
                                 std::optional<std::string> policy = std::nullopt);

// Runs the challenge to its end, replaying `picks` and then the policy;
// `replay_error` gets a pick that does not fit. Returns the result.
RunResult play_challenge(const Challenge& c, const ScheduleSpec& schedule, std::string* replay_error = nullptr);

}  // namespace poolscope::scenario
