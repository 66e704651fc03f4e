// SynchronousQueue: a queue with no room at all. offer() succeeds only if a
// worker is already waiting in take()/poll(), and then hands the task
// straight to it; otherwise it fails, and execute() starts a new thread (up
// to maximumPoolSize) or rejects. This is newCachedThreadPool's queue.
//
// Java's default (non-fair) SynchronousQueue matches a producer with the
// most recently arrived waiter (a Treiber stack of nodes, lock-free). Ours
// keeps that LIFO order with a stack of waiters under one lock; each waiter
// sleeps on its own condition, so a hand-off wakes exactly the receiver. A
// LIFO match keeps the same few threads busy and lets the others time out.
#pragma once

#include <mutex>

#include "pools/java/blocking_queue.h"

namespace poolscope::java {

class SynchronousQueue final : public BlockingQueue {
 public:
  bool offer(Runnable& r) override;
  Runnable take(InterruptFlag& self) override;
  Runnable poll(Time deadline, InterruptFlag& self) override;
  Runnable poll() override { return {}; }  // no producer ever waits here
  Runnable remove(TaskId) override { return {}; }
  bool contains(TaskId) const override { return false; }
  std::vector<Runnable> drain_to() override { return {}; }
  std::size_t size() const override { return 0; }
  int remaining_capacity() const override { return 0; }
  TaskId peek() const override { return 0; }
  void for_each(const std::function<void(const Runnable&)>&) const override {}
  void wake_takers() override;
  bool holds_tasks() const override { return false; }

 private:
  struct Waiter {
    CondVar cond;
    Runnable item;
    bool matched = false;
  };
  // transfer(): waits (until `deadline`, if given) for a producer to fill the node.
  Runnable transfer(InterruptFlag& self, const Time* deadline);

  Mutex lock_;
  std::vector<Waiter*> waiters_;  // a stack: back() arrived last and is matched first
};

}  // namespace poolscope::java
