// taskQueue (seed 001, §6): a bounded circular queue of tasks, entered at
// the tail and left at the head. The seed gives it a lock of its own; here
// the pool's lock guards it (see pool.h).
#pragma once

#include <vector>

#include "pools/core/task.h"

namespace poolscope::lab03::solution {

class TaskQueue {
 public:
  explicit TaskQueue(int cap) : tasks(static_cast<std::size_t>(cap)) {}

  // C++: the seed lists no methods for it ("implemented much as workers");
  // add is workers' Offer, poll its Poll. False if full.
  bool add(Job& task) {
    if (len_ == cap()) return false;
    tasks[tail] = std::move(task);
    tail = (tail + 1) % cap();
    len_++;
    return true;
  }
  // The oldest task, or nil if empty.
  Job poll() {
    if (len_ == 0) return {};
    Job task = std::move(tasks[head]);
    head = (head + 1) % cap();
    len_--;
    return task;
  }
  int len() const { return static_cast<int>(len_); }  // C++: for the trace and the Pool adapter's state()

 private:
  std::size_t cap() const { return tasks.size(); }

  std::vector<Job> tasks;
  std::size_t head = 0;
  std::size_t tail = 0;
  std::size_t len_ = 0;  // Go's `len` (len() has the name)
};

}  // namespace poolscope::lab03::solution
