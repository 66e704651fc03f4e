// A task's flow, as Perfetto draws flow events: from the moment it was
// submitted to the moment a worker started it, with the queue wait between
// and the design's hand-off rule (fasthttp's ready stack gives it to the
// worker released last, gammazero's workers take the queue's head). The GUI
// draws it as an arrow from the submission to the task on its worker's lane,
// so LIFO against FIFO hand-off is seen, not inferred.
#pragma once

#include <cstdint>
#include <span>
#include <unordered_map>
#include <vector>

#include "pools/core/event.h"

namespace poolscope::gui {

struct TaskFlow {
  TaskId task = 0;
  std::int64_t submitted = -1;  // scenario ns
  std::int64_t started = -1;    // -1: not (yet) started
  WorkerId worker = 0;          // the worker that started it (0: the submitting thread)
  bool from_queue = false;      // handed over from the pool's queue (else straight to a worker)
  Label handoff = kNoLabel;     // the rule that chose the worker
  std::int64_t wait() const { return started >= 0 ? started - submitted : -1; }
};

// Every pool's flows, paired by task id; brought up to date with what the
// event list gained since the last call, never rebuilt.
class TaskFlows {
 public:
  void reset();
  void sync(std::span<const Event> events);

  // Pool `pool`'s task `task`, if it was submitted.
  const TaskFlow* find(std::size_t pool, TaskId task) const;
  // Pool `pool`'s flows, in submission order (so by submission time).
  std::span<const TaskFlow> of_pool(std::size_t pool) const;
  // Of those, the ones submitted within [t0, t1].
  std::span<const TaskFlow> submitted_within(std::size_t pool, std::int64_t t0, std::int64_t t1) const;

 private:
  struct PoolFlows {
    std::vector<TaskFlow> flows;
    std::unordered_map<TaskId, std::uint32_t> by_task;  // into flows
    std::int64_t last_time = 0;                          // the pool's newest event time
  };
  TaskFlow* find(const Event& e);
  std::vector<PoolFlows> pools_;
  std::size_t seen_ = 0;
};

}  // namespace poolscope::gui
