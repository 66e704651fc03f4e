// PriorityBlockingQueue: unbounded, and it hands out the highest priority
// first.
// C++: Java orders by compareTo or a comparator; this queue by
// SubmitOptions::priority, higher first. A binary heap in an array under one
// lock. Like Java's, it makes no promise about the order of equal priorities.
// Being unbounded, it never refuses a task: the pool stays at core size.
#pragma once

#include <mutex>

#include "pools/java/blocking_queue.h"

namespace poolscope::java {

class PriorityBlockingQueue final : public BlockingQueue {
 public:
  bool offer(Runnable& r) override;
  Runnable take(InterruptFlag& self) override;
  Runnable poll(Time deadline, InterruptFlag& self) override;
  Runnable poll() override;
  Runnable remove(TaskId task) override;
  bool contains(TaskId task) const override;
  std::vector<Runnable> drain_to() override;
  std::size_t size() const override;
  int remaining_capacity() const override;
  TaskId peek() const override;
  void for_each(const std::function<void(const Runnable&)>& f) const override;
  void wake_takers() override;

 private:
  Runnable dequeue();  // with lock held and the heap not empty

  std::vector<Runnable> queue;  // a max-heap on priority
  mutable Mutex lock;
  CondVar notEmpty;
};

}  // namespace poolscope::java
