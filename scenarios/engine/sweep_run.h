// Running a sweep's points. Each point runs in a process of its own, forked
// from this one, a few at a time (`jobs`).
//
// Why processes and not threads: a simulated run's World is per OS thread
// (sim::active() is thread_local), but a design may keep state for the whole
// process behind poolscope's primitives, and inside a simulation a Mutex is
// the running World's: gopool's package-level sync.Pools of workers and tasks
// (pools/gopool) are shared by every gopool in the process, so two Worlds on
// two threads would race on one Mutex's owner and wait list, and one World
// could wake the other's fiber. Freed fibers of a failed World also go to one
// unlocked process-wide list. A process per point has none of that, and
// gives a point the same figures whichever shard, job or order runs it.
#pragma once

#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "scenarios/engine/engine.h"
#include "scenarios/engine/sweep.h"

namespace poolscope::scenario::sweep {

// One point's measurements.
struct PointResult {
  std::size_t index = 0;  // in the whole grid
  // A run status (ok, stalled, invariant-breach, ...), or "failed": the
  // simulation could not go on, or the point's process died.
  std::string status;
  std::string problem;  // what went wrong, "" if nothing (explore's run_problem)
  double wall_s = 0;
  // Per pool, in scenario order: name, design, metrics {name: value}, and
  // series (its counters over time, few buckets: for small multiples).
  json pools = json::array();
  std::string result_file;  // its full result in the out dir, "" without one
};

struct RunSettings {
  unsigned jobs = 1;              // points at once (real points: 1, so they do not disturb each other)
  std::filesystem::path out_dir;  // each point's full result (with events) here, if set
  std::size_t series_points = 200;
};

// The file name of point i's full result in the out dir: "point-007.json".
std::string result_file_name(std::size_t index, std::size_t total);

// What the point measured, from its finished run.
PointResult measure_point(std::size_t index, const RunResult& r, const std::vector<Metric>& metrics,
                          std::size_t series_points);

struct SweepOutcome {
  std::vector<PointResult> points;  // in grid order
  bool stopped = false;             // `keep_going` said no before every point ran
};

// Runs each (index, scenario) in a forked process, `settings.jobs` at once.
// `keep_going(done)` is asked between points (and while they run); false
// stops the run: the points under way are killed, and their results dropped.
SweepOutcome run_points(const std::vector<std::pair<std::size_t, Scenario>>& points, const Sweep& sweep,
                        const RunSettings& settings, const std::function<bool(std::size_t done)>& keep_going = {});

}  // namespace poolscope::scenario::sweep
