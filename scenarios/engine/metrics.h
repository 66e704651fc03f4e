// Metrics: what a run's trace stream adds up to, per pool. The runner's JSON
// and table, the GUI's plots, lanes and comparison table, and the engine's
// watchdog all read the trace through this one module, so they cannot
// disagree. It is fed events in stream order, incrementally (the GUI reads it
// while a run is live), and never asks a pool anything.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <map>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

#include "pools/core/trace_stream.h"

namespace poolscope::metrics {

// Whether an event of kind `k` is a marker (a spawn, reap, refusal, ...):
// what the series keep as markers, and what a lesson's marker counts count.
bool is_marker(EventKind k);

// The counters from a given time on (a step line: one point per change).
struct CounterPoint {
  std::int64_t t;
  Counters c;
};

// An event worth a marker: spawns, reaps, exits, refusals, throws, drops,
// cleaner passes, tunes, state changes. Hover text comes from its rule.
struct Marker {
  std::int64_t t;
  EventKind kind;
  Label rule;
  WorkerId worker;
  TaskId task;
  std::int64_t arg;
  std::int32_t arg2;
  Counters counters{};  // the pool's gauges after the event, in stream order
};

// One task on a worker's lane.
struct TaskSlice {
  std::int64_t start;
  std::int64_t end;  // -1 while running
  TaskId task;
  bool threw;
};

// One worker's life: spawned, its tasks (idle in between), reaped, exited.
struct WorkerLane {
  WorkerId id = 0;
  std::int64_t spawned = -1, reaped = -1, exited = -1;  // -1: not (yet)
  Label spawn_rule = kNoLabel, reap_rule = kNoLabel, exit_rule = kNoLabel;
  std::int64_t idle_before_reap = 0;
  std::vector<TaskSlice> slices;
};

struct Percentiles {
  std::uint64_t count = 0;
  std::int64_t p50 = 0, p95 = 0, p99 = 0, max = 0;  // ns
  double mean = 0;                                  // ns
};

// Nearest rank: the index, in ascending order, of the smallest of n samples
// with at least q of them at or below it.
inline std::size_t nearest_rank(double q, std::size_t n) {
  auto k = static_cast<std::size_t>(std::ceil(q * static_cast<double>(n)));
  return std::clamp<std::size_t>(k, 1, n) - 1;
}

// The percentiles of n samples summed to `sum` (in the order they arrived),
// given `kth(k)`, the k-th smallest; k is asked in increasing order. The one
// definition behind the runner's sort and the GUI's incremental counts
// (visualizer/model/prefix_percentiles.h), so both pick the same samples.
template <class KthSmallest>
Percentiles percentiles_by_rank(std::size_t n, double sum, KthSmallest&& kth) {
  Percentiles p;
  p.count = n;
  if (n == 0) return p;
  p.p50 = kth(nearest_rank(0.50, n));
  p.p95 = kth(nearest_rank(0.95, n));
  p.p99 = kth(nearest_rank(0.99, n));
  p.max = kth(n - 1);
  p.mean = sum / static_cast<double>(n);
  return p;
}

// The percentiles of the samples `v` (summed in the order given).
Percentiles percentiles_of(std::vector<std::int64_t> v);

// The latencies a summary gives percentiles of.
enum class Latency : std::uint8_t { queue_wait, service, end_to_end, blocked };
inline constexpr std::size_t kLatencyKinds = 4;
inline constexpr Latency kLatencies[kLatencyKinds] = {Latency::queue_wait, Latency::service, Latency::end_to_end,
                                                      Latency::blocked};

struct Summary {
  std::uint64_t submitted = 0, completed = 0, threw = 0, refused = 0, dropped = 0;
  std::map<std::string, std::uint64_t> refused_by_reason;  // rule code -> tasks
  std::map<std::string, std::uint64_t> dropped_by_rule;
  std::map<std::string, std::uint64_t> spawned_by_rule;
  std::map<std::string, std::uint64_t> reaped_by_rule;  // by mechanism
  std::map<std::string, std::uint64_t> exited_by_rule;
  std::uint64_t workers_spawned = 0, workers_reaped = 0, workers_exited = 0;
  std::uint64_t ran_by_caller = 0;  // tasks started on the submitting thread (worker 0: CallerRunsPolicy)
  Percentiles queue_wait;  // submitted -> started
  Percentiles service;     // started -> ended
  Percentiles end_to_end;  // submitted -> ended, or -> its completion where one follows (nginx)
  // A submitter's waits inside submit (ants' cond.Wait, a blocking coremax):
  // one sample per wait, blocked -> unblocked; their sum is the time lost.
  Percentiles blocked;
  std::int64_t blocked_total = 0;  // ns
  double throughput = 0;   // tasks ended per scenario second, first submission to last end
  std::uint32_t peak_workers = 0, peak_busy = 0, peak_queued = 0, peak_blocked = 0;
  std::uint32_t final_workers = 0;  // when the workload ended (see PoolMetrics::summary)
  double mean_workers = 0;          // time-weighted over the pool's timeline
  double mean_busy = 0;
  double utilisation = 0;  // time-weighted busy / workers
  std::int64_t first_time = 0, last_time = 0;
  // One of the four above.
  Percentiles& latency(Latency k) {
    return k == Latency::queue_wait   ? queue_wait
           : k == Latency::service    ? service
           : k == Latency::end_to_end ? end_to_end
                                      : blocked;
  }
  const Percentiles& latency(Latency k) const {
    return k == Latency::queue_wait   ? queue_wait
           : k == Latency::service    ? service
           : k == Latency::end_to_end ? end_to_end
                                      : blocked;
  }
  bool invariant_holds() const { return submitted == completed + threw + refused + dropped; }
  // Never wraps: a trace that dropped events can show more ends than submissions.
  std::uint64_t in_flight() const {
    const std::uint64_t settled = completed + threw + refused + dropped;
    return settled >= submitted ? 0 : submitted - settled;
  }
};

// What a pool did within a window of time [t0, t1) (a phase): the figures
// queueing theory predicts, measured (scenarios/engine/theory.h sets them
// beside its prediction). Per-task figures are of the tasks submitted within
// the window, wherever they ended; the means are time-weighted over it.
struct WindowFigures {
  std::int64_t t0 = 0, t1 = 0;
  std::uint64_t arrivals = 0;  // submitted within the window
  std::uint64_t refused = 0;   // of those, refused
  std::uint64_t started = 0;   // of those, started, so their wait is known
  double mean_wait = 0;        // ns, submitted -> started, over `started`
  // [k]: arrivals that found k tasks running (busy = k) as they were
  // submitted; the share with k >= c is what Erlang C calls waiting.
  std::vector<std::uint64_t> arrivals_by_busy;
  double mean_workers = 0, mean_busy = 0, mean_queued = 0, mean_blocked = 0;
  // Arrivals that found at least c tasks running, as a share of all.
  double share_found_busy(std::uint64_t c) const;
};

// One submission, for window() and the findings: when, what it found, how it fared.
struct Arrival {
  std::int64_t submitted;
  std::int64_t wait = -1;  // ns until it started; -1: not started
  std::uint32_t busy;      // tasks running as it was submitted
  bool refused = false;
};

// One wait of a submitter inside submit, blocked -> unblocked (scenario ns).
struct BlockedWait {
  std::int64_t from, to;
  TaskId task;
};

class PoolMetrics {
 public:
  explicit PoolMetrics(PoolInfo info) : info_(std::move(info)) {}
  void add(const Event& e);

  const PoolInfo& info() const { return info_; }
  void set_info(PoolInfo info) { info_ = std::move(info); }
  // Counts and peaks so far (cheap); summary() adds percentiles and means.
  const Summary& totals() const { return totals_; }
  // `end_of_workload` (scenario ns), if given, is when final_workers is read:
  // the pool's size when the last phase ended, before it was shut down.
  Summary summary(std::int64_t end_of_workload = -1) const;
  // summary() without the percentiles (left empty), so without copying and
  // sorting every latency: for a caller that keeps them itself (a replay).
  Summary summary_without_percentiles(std::int64_t end_of_workload = -1) const;
  // Every sample of a latency so far, in the order they arrived.
  const std::vector<std::int64_t>& latencies(Latency k) const;
  // The counters in force at time t.
  Counters counters_at(std::int64_t t) const;
  const std::vector<CounterPoint>& series() const { return series_; }
  const std::vector<Marker>& markers() const { return markers_; }
  const std::vector<WorkerLane>& lanes() const { return lanes_; }
  Counters counters() const { return series_.empty() ? Counters{} : series_.back().c; }
  std::int64_t last_time() const { return last_t_; }
  // The last event that named a rule: "the last rule that fired".
  const Marker* last_rule() const { return has_last_rule_ ? &last_rule_ : nullptr; }
  // Scenario time of the last task start or end (the watchdog's progress mark).
  std::int64_t last_progress() const { return last_progress_; }
  // Every rule label this pool's events named, in order of first appearance.
  const std::vector<Label>& rules() const { return rules_; }
  // The pool within [t0, t1) of scenario time (see WindowFigures).
  WindowFigures window(std::int64_t t0, std::int64_t t1) const;
  // Every submission in time order, and every wait inside submit (the findings read them).
  const std::vector<Arrival>& arrivals() const { return arrivals_; }
  const std::vector<BlockedWait>& blocked_waits() const { return blocked_waits_; }

 private:
  struct Pending {
    std::int64_t submitted = -1, started = -1, blocked = -1;
    std::size_t arrival = SIZE_MAX;  // its entry in arrivals_
  };
  WorkerLane& lane(WorkerId w);
  // The task's request ended at t (its task_finished, or its task_completed
  // where a completion follows): its end-to-end latency, and it is forgotten.
  void end_task(std::unordered_map<TaskId, Pending>::iterator it, std::int64_t t);

  PoolInfo info_;
  std::vector<CounterPoint> series_;
  std::vector<Marker> markers_;
  std::vector<WorkerLane> lanes_;
  std::unordered_map<WorkerId, std::size_t> lane_index_;
  std::unordered_map<TaskId, Pending> pending_;
  std::vector<std::int64_t> queue_wait_, service_, end_to_end_, blocked_;
  std::vector<Arrival> arrivals_;  // in submission order, so in time order
  std::vector<BlockedWait> blocked_waits_;  // in the order they ended
  Summary totals_;  // counts, maps and peaks; percentiles and means are filled in by summary()
  std::int64_t first_t_ = -1, last_t_ = 0, first_submit_ = -1, last_end_ = -1, last_progress_ = 0;
  double workers_area_ = 0, busy_area_ = 0;  // integrals over time, in counter x ns
  double occupied_area_ = 0;                 // of min(busy, workers): utilisation's numerator
  std::vector<Label> rules_;
  Marker last_rule_{};
  bool has_last_rule_ = false;
};

// Every pool of a run. Feed it the stream's events in order.
class RunMetrics {
 public:
  explicit RunMetrics(bool keep_events = false) : keep_events_(keep_events) {}
  // Names the pools (from TraceStream::pools()); events of unnamed pools get a placeholder.
  void set_pools(const std::vector<PoolInfo>& pools);
  void add(std::span<const Event> events);
  // Copies `other`'s pool i over this one's, reusing its storage. Called for
  // i = 0, 1, ... in turn it makes this a copy of `other` a pool at a time
  // (the last pool brings the rest), so a large copy can be spread out.
  void copy_pool(const RunMetrics& other, std::size_t i);

  std::vector<PoolMetrics>& pools() { return pools_; }
  const std::vector<PoolMetrics>& pools() const { return pools_; }
  PoolMetrics* pool(PoolId id);
  const PoolMetrics* pool(PoolId id) const;
  const std::vector<Event>& events() const { return events_; }  // if kept
  std::uint64_t event_count() const { return event_count_; }

 private:
  bool keep_events_;
  std::vector<PoolMetrics> pools_;  // index = PoolId
  std::vector<Event> events_;
  std::uint64_t event_count_ = 0;
};

}  // namespace poolscope::metrics
