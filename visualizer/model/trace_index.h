// What the views need from a run's metrics in a form they can draw from in
// time proportional to the screen: per pool, the counter series as times and
// min/max indexes, the markers sorted into the rows they are drawn in, and
// the pool's own events by time (for hover). It is brought up to date with
// what the metrics gained since the last frame, never rebuilt.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string_view>
#include <utility>
#include <vector>

#include "scenarios/engine/metrics.h"
#include "visualizer/model/task_flow.h"
#include "visualizer/plot/minmax_index.h"

namespace poolscope::gui {

// The counters plotted, one plot each.
enum class Counter { workers, busy, idle, queued, blocked };
inline constexpr int kCounterCount = 5;
inline constexpr std::array<Counter, kCounterCount> kCounters = {Counter::workers, Counter::busy, Counter::idle,
                                                                 Counter::queued, Counter::blocked};
std::string_view counter_name(Counter c);  // "workers", "busy", ...
std::string_view counter_help(Counter c);  // one line for the plot's tooltip
std::uint32_t counter_value(const Counters& c, Counter which);

// The rows markers are drawn in, under the plots.
enum class MarkerRow { workers, tasks, pool };  // spawn/reap/exit; refused/threw/dropped; cleaner/tune/state/stop
inline constexpr int kMarkerRowCount = 3;
MarkerRow marker_row(EventKind kind);
std::string_view marker_row_name(MarkerRow row);

struct PoolIndex {
  std::vector<std::int64_t> times;  // of the series points
  std::array<plot::MinMaxIndex, kCounterCount> values;
  std::array<std::vector<std::int64_t>, kMarkerRowCount> marker_times;
  std::array<std::vector<std::uint32_t>, kMarkerRowCount> markers;  // into PoolMetrics::markers()
  std::vector<Label> reap_rules;          // the reaping mechanisms seen, in order of first appearance
  std::vector<std::int64_t> event_times;  // this pool's events, in order (times kept non-decreasing)
  std::vector<std::uint32_t> events;      // into the run's event list
  // Tasks the submitting thread ran itself (worker 0: Java's CallerRunsPolicy),
  // which the metrics leave off the worker lanes: one lane per submitter busy
  // at once (closed-loop clients can be several), each slice on the first
  // lane free when it started. Their ids count from 1 ("caller 1", ...).
  std::vector<metrics::WorkerLane> callers;
  Label caller_rule = kNoLabel;                                 // the rule that handed the last such task to its caller
  std::vector<std::pair<TaskId, std::size_t>> callers_running;  // task -> lane, until it ends
  std::size_t series_seen = 0, markers_seen = 0;
};

class TraceIndex {
 public:
  void reset();
  // Takes in what `metrics` and `events` (the run's events, in stream order)
  // gained since the last call.
  void sync(const metrics::RunMetrics& metrics, std::span<const Event> events);

  // Another number when the index starts again (reset, or another index):
  // what a view kept from an earlier frame is of another run then.
  std::uint64_t generation() const { return generation_; }
  std::size_t pools() const { return pools_.size(); }
  const PoolIndex& pool(std::size_t i) const { return pools_[i]; }
  std::int64_t last_time() const { return last_time_; }  // the newest time in any pool
  const TaskFlows& flows() const { return flows_; }        // each task's submission to its start

  // The event that made pool `p`'s series point `point` (the first of the
  // pool's events at that time carrying those counters), or nullptr.
  const Event* event_for_point(const metrics::PoolMetrics& pool, std::size_t point,
                               std::span<const Event> events) const;

 private:
  static void add_caller_event(PoolIndex& ix, const Event& e, std::int64_t t);
  static std::uint64_t next_generation();

  std::vector<PoolIndex> pools_;
  TaskFlows flows_;
  std::size_t events_seen_ = 0;
  std::int64_t last_time_ = 0;
  std::uint64_t generation_ = next_generation();
};

}  // namespace poolscope::gui
