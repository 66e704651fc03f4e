#include "visualizer/model/trace_index.h"

#include <algorithm>

namespace poolscope::gui {

std::string_view counter_name(Counter c) {
  switch (c) {
    case Counter::workers:
      return "workers";
    case Counter::busy:
      return "busy";
    case Counter::idle:
      return "idle";
    case Counter::queued:
      return "queued";
    case Counter::blocked:
      return "blocked";
  }
  return "?";
}

std::string_view counter_help(Counter c) {
  switch (c) {
    case Counter::workers:
      return "workers alive: threads the pool started and that have not ended (busy + idle)";
    case Counter::busy:
      return "busy workers: running a task";
    case Counter::idle:
      return "idle workers: alive and waiting for a task";
    case Counter::queued:
      return "queued tasks: accepted and waiting for a worker";
    case Counter::blocked:
      return "blocked submitters: waiting inside submit for room (ants without Nonblocking, a full Java queue with "
             "CallerRuns ...)";
  }
  return "";
}

std::uint32_t counter_value(const Counters& c, Counter which) {
  switch (which) {
    case Counter::workers:
      return c.workers;
    case Counter::busy:
      return c.busy;
    case Counter::idle:
      return c.idle();
    case Counter::queued:
      return c.queued;
    case Counter::blocked:
      return c.blocked;
  }
  return 0;
}

MarkerRow marker_row(EventKind kind) {
  switch (kind) {
    case EventKind::worker_spawned:
    case EventKind::worker_reaped:
    case EventKind::worker_exited:
      return MarkerRow::workers;
    case EventKind::task_refused:
    case EventKind::task_threw:
    case EventKind::task_dropped:
      return MarkerRow::tasks;
    default:
      return MarkerRow::pool;
  }
}

std::string_view marker_row_name(MarkerRow row) {
  switch (row) {
    case MarkerRow::workers:
      return "workers: spawned, reaped, exited";
    case MarkerRow::tasks:
      return "tasks: refused, threw, dropped";
    case MarkerRow::pool:
      return "pool: cleaner passes, tuning, state";
  }
  return "";
}

std::uint64_t TraceIndex::next_generation() {
  static std::uint64_t last = 0;  // the GUI thread's only
  return ++last;
}

void TraceIndex::reset() {
  generation_ = next_generation();
  pools_.clear();
  flows_.reset();
  events_seen_ = 0;
  last_time_ = 0;
}

void TraceIndex::sync(const metrics::RunMetrics& metrics, std::span<const Event> events) {
  const auto& pools = metrics.pools();
  if (pools_.size() < pools.size()) pools_.resize(pools.size());
  for (std::size_t p = 0; p < pools.size(); ++p) {
    const metrics::PoolMetrics& pm = pools[p];
    PoolIndex& ix = pools_[p];
    const auto& series = pm.series();
    for (; ix.series_seen < series.size(); ++ix.series_seen) {
      const metrics::CounterPoint& point = series[ix.series_seen];
      ix.times.push_back(point.t);
      for (Counter c : kCounters) ix.values[static_cast<int>(c)].push(counter_value(point.c, c));
    }
    const auto& markers = pm.markers();
    for (; ix.markers_seen < markers.size(); ++ix.markers_seen) {
      const metrics::Marker& m = markers[ix.markers_seen];
      auto row = static_cast<int>(marker_row(m.kind));
      ix.marker_times[row].push_back(m.t);
      ix.markers[row].push_back(static_cast<std::uint32_t>(ix.markers_seen));
      if (m.kind == EventKind::worker_reaped &&
          std::find(ix.reap_rules.begin(), ix.reap_rules.end(), m.rule) == ix.reap_rules.end())
        ix.reap_rules.push_back(m.rule);
    }
    last_time_ = std::max(last_time_, pm.last_time());
  }
  for (; events_seen_ < events.size(); ++events_seen_) {
    const Event& e = events[events_seen_];
    if (e.pool >= pools_.size()) pools_.resize(e.pool + 1u);
    PoolIndex& ix = pools_[e.pool];
    const std::int64_t t = ix.event_times.empty() ? e.time : std::max(e.time, ix.event_times.back());
    ix.event_times.push_back(t);
    ix.events.push_back(static_cast<std::uint32_t>(events_seen_));
    if (e.worker == 0) add_caller_event(ix, e, t);
  }
  flows_.sync(events);
}

void TraceIndex::add_caller_event(PoolIndex& ix, const Event& e, std::int64_t t) {
  switch (e.kind) {
    case EventKind::task_handoff:
      if (e.rule != kNoLabel) ix.caller_rule = e.rule;
      break;
    case EventKind::task_started: {
      auto free = std::find_if(ix.callers.begin(), ix.callers.end(), [](const metrics::WorkerLane& l) {
        return l.slices.empty() || l.slices.back().end >= 0;
      });
      if (free == ix.callers.end()) {
        ix.callers.push_back(metrics::WorkerLane{.id = static_cast<WorkerId>(ix.callers.size() + 1)});
        free = ix.callers.end() - 1;
      }
      if (free->slices.empty()) free->spawned = t;
      free->slices.push_back({t, -1, e.task, false});
      ix.callers_running.emplace_back(e.task, static_cast<std::size_t>(free - ix.callers.begin()));
      break;
    }
    case EventKind::task_finished:
    case EventKind::task_threw: {
      auto running = std::find_if(ix.callers_running.begin(), ix.callers_running.end(),
                                  [&](const auto& r) { return r.first == e.task; });
      if (running == ix.callers_running.end()) break;
      metrics::TaskSlice& slice = ix.callers[running->second].slices.back();
      slice.end = t;
      slice.threw = e.kind == EventKind::task_threw;
      ix.callers_running.erase(running);
      break;
    }
    default:
      break;
  }
}

const Event* TraceIndex::event_for_point(const metrics::PoolMetrics& pool, std::size_t point,
                                         std::span<const Event> events) const {
  PoolId id = pool.info().id;
  if (id >= pools_.size() || point >= pool.series().size()) return nullptr;
  const PoolIndex& ix = pools_[id];
  const metrics::CounterPoint& p = pool.series()[point];
  auto it = std::lower_bound(ix.event_times.begin(), ix.event_times.end(), p.t);
  for (auto i = static_cast<std::size_t>(it - ix.event_times.begin());
       i < ix.event_times.size() && ix.event_times[i] == p.t; ++i) {
    const Event& e = events[ix.events[i]];
    if (e.counters == p.c) return &e;
  }
  return nullptr;
}

}  // namespace poolscope::gui
