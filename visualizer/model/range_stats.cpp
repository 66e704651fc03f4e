#include "visualizer/model/range_stats.h"

#include <algorithm>
#include <cmath>
#include <unordered_map>

namespace poolscope::gui {

std::int64_t quantile(const std::vector<std::int64_t>& sorted, double q) {
  if (sorted.empty()) return 0;
  auto k = static_cast<std::size_t>(std::ceil(q * static_cast<double>(sorted.size())));
  return sorted[std::clamp<std::size_t>(k, 1, sorted.size()) - 1];
}

std::vector<PoolRange> range_stats(std::span<const Event> events, std::size_t pools, std::int64_t t0,
                                   std::int64_t t1) {
  std::vector<PoolRange> out(pools);
  if (t1 < t0) std::swap(t0, t1);
  // Submission times of the tasks still to start or end, per pool.
  std::vector<std::unordered_map<TaskId, std::int64_t>> submitted(pools);
  for (const Event& e : events) {
    if (e.time > t1) break;
    if (e.pool >= pools) continue;
    PoolRange& r = out[e.pool];
    const bool in = e.time >= t0;
    auto since_submit = [&]() -> std::int64_t {
      auto it = submitted[e.pool].find(e.task);
      return it == submitted[e.pool].end() ? -1 : e.time - it->second;
    };
    switch (e.kind) {
      case EventKind::task_submitted:
        submitted[e.pool][e.task] = e.time;
        if (in) ++r.submitted;
        break;
      case EventKind::task_started:
      case EventKind::task_handoff:
        // The caller (worker 0) runs the task it was handed: that is its start.
        if (e.kind == EventKind::task_handoff && e.worker != 0) break;
        if (in)
          if (auto w = since_submit(); w >= 0) r.waits.push_back(w);
        break;
      case EventKind::task_finished:
      case EventKind::task_threw:
        if (in) {
          ++r.ended;
          if (e.kind == EventKind::task_threw) ++r.threw;
        }
        if (e.arg == 1) break;  // its request ends at its task_completed
        [[fallthrough]];
      case EventKind::task_completed:
        if (in)
          if (auto w = since_submit(); w >= 0) r.end_to_end.push_back(w);
        submitted[e.pool].erase(e.task);
        break;
      case EventKind::task_refused:
      case EventKind::task_dropped:
        if (in) ++(e.kind == EventKind::task_refused ? r.refused : r.dropped);
        submitted[e.pool].erase(e.task);
        break;
      case EventKind::worker_spawned:
        if (in) ++r.spawned;
        break;
      case EventKind::worker_reaped:
        if (in) ++r.reaped;
        break;
      default:
        break;
    }
  }
  for (PoolRange& r : out) {
    std::sort(r.waits.begin(), r.waits.end());
    std::sort(r.end_to_end.begin(), r.end_to_end.end());
  }
  return out;
}

std::vector<std::uint32_t> log_histogram(const std::vector<std::int64_t>& sorted, std::int64_t lo, std::int64_t hi,
                                         int bins) {
  std::vector<std::uint32_t> out(static_cast<std::size_t>(std::max(bins, 1)), 0);
  const double l = std::log10(static_cast<double>(std::max<std::int64_t>(lo, 1)));
  const double h = std::max(l + 1e-9, std::log10(static_cast<double>(std::max<std::int64_t>(hi, 1))));
  for (std::int64_t v : sorted) {
    const double x = (std::log10(static_cast<double>(std::max<std::int64_t>(v, 1))) - l) / (h - l);
    const auto b = std::clamp(static_cast<long>(x * static_cast<double>(out.size())), 0L,
                              static_cast<long>(out.size()) - 1);
    ++out[static_cast<std::size_t>(b)];
  }
  return out;
}

}  // namespace poolscope::gui
