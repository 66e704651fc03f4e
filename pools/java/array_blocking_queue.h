// ArrayBlockingQueue: a bounded FIFO in a fixed array (a ring: takeIndex,
// putIndex, count) under one lock, with one condition for takers. Nothing is
// allocated after construction.
#pragma once

#include <mutex>

#include "pools/java/blocking_queue.h"

namespace poolscope::java {

class ArrayBlockingQueue final : public BlockingQueue {
 public:
  // Throws IllegalArgumentException if capacity < 1.
  explicit ArrayBlockingQueue(int capacity);

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
  void enqueue(Runnable& r);  // with lock held and room left
  Runnable dequeue();         // with lock held and count > 0

  std::vector<Runnable> items;
  std::size_t takeIndex = 0;
  std::size_t putIndex = 0;
  std::size_t count = 0;
  mutable Mutex lock;
  CondVar notEmpty;
};

}  // namespace poolscope::java
