#include "visualizer/model/task_flow.h"

#include <algorithm>

namespace poolscope::gui {

void TaskFlows::reset() {
  pools_.clear();
  seen_ = 0;
}

TaskFlow* TaskFlows::find(const Event& e) {
  if (e.pool >= pools_.size()) return nullptr;
  PoolFlows& p = pools_[e.pool];
  auto it = p.by_task.find(e.task);
  return it == p.by_task.end() ? nullptr : &p.flows[it->second];
}

void TaskFlows::sync(std::span<const Event> events) {
  for (; seen_ < events.size(); ++seen_) {
    const Event& e = events[seen_];
    if (e.pool >= pools_.size()) pools_.resize(e.pool + 1u);
    // A pool's times kept non-decreasing, as the metrics keep them (its
    // threads stamp events a little before they are ordered), so an arrow
    // ends exactly where the lane's slice begins, and a flow is found by
    // submission time with a binary search.
    PoolFlows& p = pools_[e.pool];
    const std::int64_t t = p.last_time = std::max(e.time, p.last_time);
    switch (e.kind) {
      case EventKind::task_submitted: {
        p.by_task[e.task] = static_cast<std::uint32_t>(p.flows.size());
        p.flows.push_back(TaskFlow{.task = e.task, .submitted = t});
        break;
      }
      case EventKind::task_handoff:
        if (TaskFlow* f = find(e)) {
          f->from_queue = e.arg == 1;
          f->handoff = e.rule;
          f->worker = e.worker;
        }
        break;
      case EventKind::task_started:
        if (TaskFlow* f = find(e); f && f->started < 0) {
          f->started = t;
          f->worker = e.worker;
        }
        break;
      default:
        break;
    }
  }
}

const TaskFlow* TaskFlows::find(std::size_t pool, TaskId task) const {
  if (pool >= pools_.size()) return nullptr;
  const PoolFlows& p = pools_[pool];
  auto it = p.by_task.find(task);
  return it == p.by_task.end() ? nullptr : &p.flows[it->second];
}

std::span<const TaskFlow> TaskFlows::of_pool(std::size_t pool) const {
  return pool < pools_.size() ? std::span<const TaskFlow>(pools_[pool].flows) : std::span<const TaskFlow>();
}

std::span<const TaskFlow> TaskFlows::submitted_within(std::size_t pool, std::int64_t t0, std::int64_t t1) const {
  std::span<const TaskFlow> all = of_pool(pool);
  auto first = std::partition_point(all.begin(), all.end(), [&](const TaskFlow& f) { return f.submitted < t0; });
  auto last = std::partition_point(first, all.end(), [&](const TaskFlow& f) { return f.submitted <= t1; });
  return all.subspan(static_cast<std::size_t>(first - all.begin()), static_cast<std::size_t>(last - first));
}

}  // namespace poolscope::gui
