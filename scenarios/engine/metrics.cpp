#include "scenarios/engine/metrics.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace poolscope::metrics {

namespace {

std::string code(Label l) {
  std::string_view c = label_code(l);
  return c.empty() ? std::string("unspecified") : std::string(c);
}

}  // namespace

bool is_marker(EventKind k) {
  switch (k) {
    case EventKind::worker_spawned:
    case EventKind::worker_reaped:
    case EventKind::worker_exited:
    case EventKind::task_refused:
    case EventKind::task_threw:
    case EventKind::task_dropped:
    case EventKind::cleaner_pass:
    case EventKind::param_tuned:
    case EventKind::pool_state:
    case EventKind::pool_stopped:
      return true;
    default:
      return false;
  }
}

void PoolMetrics::end_task(std::unordered_map<TaskId, Pending>::iterator it, std::int64_t t) {
  if (it->second.submitted >= 0) end_to_end_.push_back(t - it->second.submitted);
  pending_.erase(it);
}

WorkerLane& PoolMetrics::lane(WorkerId w) {
  auto [it, fresh] = lane_index_.try_emplace(w, lanes_.size());
  if (fresh) lanes_.push_back(WorkerLane{.id = w});
  return lanes_[it->second];
}

void PoolMetrics::add(const Event& e) {
  // Timestamps are read just after a slot is reserved, so two threads can
  // record a few ns out of order; keep each pool's timeline monotonic.
  std::int64_t t = std::max(e.time, last_t_);
  if (first_t_ < 0) first_t_ = t;
  if (!series_.empty()) {
    const Counters& prev = series_.back().c;
    workers_area_ += static_cast<double>(prev.workers) * static_cast<double>(t - last_t_);
    busy_area_ += static_cast<double>(prev.busy) * static_cast<double>(t - last_t_);
    occupied_area_ += static_cast<double>(std::min(prev.busy, prev.workers)) * static_cast<double>(t - last_t_);
  }
  last_t_ = t;
  if (series_.empty() || !(series_.back().c == e.counters)) series_.push_back({t, e.counters});

  Summary& s = totals_;
  s.peak_workers = std::max(s.peak_workers, e.counters.workers);
  s.peak_busy = std::max(s.peak_busy, e.counters.busy);
  s.peak_queued = std::max(s.peak_queued, e.counters.queued);
  s.peak_blocked = std::max(s.peak_blocked, e.counters.blocked);

  if (is_marker(e.kind)) markers_.push_back({t, e.kind, e.rule, e.worker, e.task, e.arg, e.arg2, e.counters});
  if (e.rule != kNoLabel) {
    if (std::find(rules_.begin(), rules_.end(), e.rule) == rules_.end()) rules_.push_back(e.rule);
    last_rule_ = {t, e.kind, e.rule, e.worker, e.task, e.arg, e.arg2};
    has_last_rule_ = true;
  }

  switch (e.kind) {
    case EventKind::task_submitted:
      ++s.submitted;
      pending_[e.task].submitted = t;
      pending_[e.task].arrival = arrivals_.size();
      arrivals_.push_back({.submitted = t, .busy = e.counters.busy});
      if (first_submit_ < 0) first_submit_ = t;
      break;
    case EventKind::submitter_blocked:
      pending_[e.task].blocked = t;
      break;
    case EventKind::submitter_unblocked:
      if (auto it = pending_.find(e.task); it != pending_.end() && it->second.blocked >= 0) {
        blocked_.push_back(t - it->second.blocked);
        s.blocked_total += t - it->second.blocked;
        blocked_waits_.push_back({it->second.blocked, t, e.task});
        it->second.blocked = -1;
      }
      break;
    case EventKind::task_started: {
      last_progress_ = t;
      Pending& p = pending_[e.task];
      p.started = t;
      if (p.submitted >= 0) queue_wait_.push_back(t - p.submitted);
      if (p.arrival < arrivals_.size() && p.submitted >= 0) arrivals_[p.arrival].wait = t - p.submitted;
      if (e.worker != 0)
        lane(e.worker).slices.push_back({t, -1, e.task, false});
      else
        ++s.ran_by_caller;
      break;
    }
    case EventKind::task_finished:
    case EventKind::task_threw: {
      last_progress_ = t;
      last_end_ = t;
      (e.kind == EventKind::task_finished ? s.completed : s.threw)++;
      if (auto it = pending_.find(e.task); it != pending_.end()) {
        if (it->second.started >= 0) service_.push_back(t - it->second.started);
        if (e.arg != 1) end_task(it, t);  // else its request ends at its task_completed
      }
      if (e.worker != 0) {
        WorkerLane& l = lane(e.worker);
        if (!l.slices.empty() && l.slices.back().task == e.task) {
          l.slices.back().end = t;
          l.slices.back().threw = e.kind == EventKind::task_threw;
        }
      }
      break;
    }
    case EventKind::task_completed:
      last_progress_ = t;
      last_end_ = t;
      if (auto it = pending_.find(e.task); it != pending_.end()) end_task(it, t);
      break;
    case EventKind::task_refused:
      ++s.refused;
      ++s.refused_by_reason[code(e.rule)];
      if (auto it = pending_.find(e.task); it != pending_.end() && it->second.arrival < arrivals_.size())
        arrivals_[it->second.arrival].refused = true;
      pending_.erase(e.task);
      break;
    case EventKind::task_dropped:
      ++s.dropped;
      ++s.dropped_by_rule[code(e.rule)];
      pending_.erase(e.task);
      break;
    case EventKind::worker_spawned: {
      ++s.workers_spawned;
      ++s.spawned_by_rule[code(e.rule)];
      WorkerLane& l = lane(e.worker);
      l.spawned = t;
      l.spawn_rule = e.rule;
      break;
    }
    case EventKind::worker_reaped: {
      ++s.workers_reaped;
      ++s.reaped_by_rule[code(e.rule)];
      WorkerLane& l = lane(e.worker);
      l.reaped = t;
      l.reap_rule = e.rule;
      l.idle_before_reap = e.arg;
      break;
    }
    case EventKind::worker_exited: {
      ++s.workers_exited;
      ++s.exited_by_rule[code(e.rule)];
      WorkerLane& l = lane(e.worker);
      l.exited = t;
      l.exit_rule = e.rule;
      break;
    }
    default:
      break;
  }
}

Percentiles percentiles_of(std::vector<std::int64_t> v) {
  // Summed before the partial sorts move them: in the order given (arrival
  // order), as the GUI sums them, so the mean is the same to the last bit.
  const double sum = std::accumulate(v.begin(), v.end(), 0.0);
  auto sorted_from = v.begin();  // the ranks come in increasing order: each sort leaves the larger ones after it
  return percentiles_by_rank(v.size(), sum, [&](std::size_t k) {
    const auto at = v.begin() + static_cast<std::ptrdiff_t>(k);
    std::nth_element(sorted_from, at, v.end());
    sorted_from = at;
    return *at;
  });
}

const std::vector<std::int64_t>& PoolMetrics::latencies(Latency k) const {
  switch (k) {
    case Latency::queue_wait:
      return queue_wait_;
    case Latency::service:
      return service_;
    case Latency::end_to_end:
      return end_to_end_;
    case Latency::blocked:
      break;
  }
  return blocked_;
}

Counters PoolMetrics::counters_at(std::int64_t t) const {
  auto it = std::upper_bound(series_.begin(), series_.end(), t,
                             [](std::int64_t v, const CounterPoint& p) { return v < p.t; });
  return it == series_.begin() ? Counters{} : std::prev(it)->c;
}

Summary PoolMetrics::summary(std::int64_t end_of_workload) const {
  Summary s = summary_without_percentiles(end_of_workload);
  for (Latency k : kLatencies) s.latency(k) = percentiles_of(latencies(k));
  return s;
}

Summary PoolMetrics::summary_without_percentiles(std::int64_t end_of_workload) const {
  Summary s = totals_;
  s.final_workers = end_of_workload >= 0 ? counters_at(end_of_workload).workers : counters().workers;
  s.first_time = std::max<std::int64_t>(first_t_, 0);
  s.last_time = last_t_;
  double span = static_cast<double>(last_t_ - s.first_time);
  if (span > 0) {
    s.mean_workers = workers_area_ / span;
    s.mean_busy = busy_area_ / span;
  }
  // A fraction for every design: where tasks outlive their worker's turn
  // (weedge's timed-out tasks, on goroutines of their own), busy can exceed
  // workers; that time counts every worker busy (result-format.md).
  if (workers_area_ > 0) s.utilisation = occupied_area_ / workers_area_;
  if (first_submit_ >= 0 && last_end_ > first_submit_)
    s.throughput = static_cast<double>(s.completed + s.threw) / (static_cast<double>(last_end_ - first_submit_) / 1e9);
  return s;
}

double WindowFigures::share_found_busy(std::uint64_t c) const {
  if (arrivals == 0) return 0;
  std::uint64_t n = 0;
  for (std::size_t k = c; k < arrivals_by_busy.size(); ++k) n += arrivals_by_busy[k];
  return static_cast<double>(n) / static_cast<double>(arrivals);
}

WindowFigures PoolMetrics::window(std::int64_t t0, std::int64_t t1) const {
  WindowFigures w{.t0 = t0, .t1 = t1};
  auto first = std::lower_bound(arrivals_.begin(), arrivals_.end(), t0,
                                [](const Arrival& a, std::int64_t v) { return a.submitted < v; });
  double wait_sum = 0;
  for (auto a = first; a != arrivals_.end() && a->submitted < t1; ++a) {
    ++w.arrivals;
    if (a->refused) ++w.refused;
    if (a->wait >= 0) {
      ++w.started;
      wait_sum += static_cast<double>(a->wait);
    }
    if (w.arrivals_by_busy.size() <= a->busy) w.arrivals_by_busy.resize(a->busy + 1);
    ++w.arrivals_by_busy[a->busy];
  }
  if (w.started) w.mean_wait = wait_sum / static_cast<double>(w.started);
  // Time-weighted means: each counter value times how long it held within the window.
  if (t1 <= t0) return w;
  double workers = 0, busy = 0, queued = 0, blocked = 0;
  Counters c = counters_at(t0);
  std::int64_t from = t0;
  auto add = [&](std::int64_t to) {
    const auto d = static_cast<double>(to - from);
    workers += c.workers * d;
    busy += c.busy * d;
    queued += c.queued * d;
    blocked += c.blocked * d;
  };
  auto it = std::upper_bound(series_.begin(), series_.end(), t0,
                             [](std::int64_t v, const CounterPoint& p) { return v < p.t; });
  for (; it != series_.end() && it->t < t1; ++it) {
    add(it->t);
    from = it->t;
    c = it->c;
  }
  add(t1);
  const auto span = static_cast<double>(t1 - t0);
  w.mean_workers = workers / span;
  w.mean_busy = busy / span;
  w.mean_queued = queued / span;
  w.mean_blocked = blocked / span;
  return w;
}

void RunMetrics::set_pools(const std::vector<PoolInfo>& pools) {
  for (const PoolInfo& info : pools) {
    while (pools_.size() <= info.id) pools_.emplace_back(PoolInfo{static_cast<PoolId>(pools_.size()), "?", "?"});
    pools_[info.id].set_info(info);
  }
}

PoolMetrics* RunMetrics::pool(PoolId id) { return id < pools_.size() ? &pools_[id] : nullptr; }
const PoolMetrics* RunMetrics::pool(PoolId id) const { return id < pools_.size() ? &pools_[id] : nullptr; }

void RunMetrics::copy_pool(const RunMetrics& other, std::size_t i) {
  if (i < pools_.size())
    pools_[i] = other.pools_[i];
  else
    pools_.push_back(other.pools_[i]);
  if (i + 1 < other.pools_.size()) return;
  pools_.erase(pools_.begin() + static_cast<std::ptrdiff_t>(other.pools_.size()), pools_.end());
  keep_events_ = other.keep_events_;
  events_ = other.events_;
  event_count_ = other.event_count_;
}

void RunMetrics::add(std::span<const Event> events) {
  for (const Event& e : events) {
    while (pools_.size() <= e.pool) pools_.emplace_back(PoolInfo{static_cast<PoolId>(pools_.size()), "?", "?"});
    pools_[e.pool].add(e);
  }
  event_count_ += events.size();
  if (keep_events_) events_.insert(events_.end(), events.begin(), events.end());
}

}  // namespace poolscope::metrics
