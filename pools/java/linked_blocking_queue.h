// LinkedBlockingQueue: a FIFO of linked nodes, unbounded (Integer.MAX_VALUE)
// unless given a capacity. Java's "two lock queue": offer() takes only
// putLock and appends at `last`, take() takes only takeLock and advances
// `head` (a dummy node whose next is the first task); the atomic `count` is
// all they share, so a submitter and a worker never wait for each other.
#pragma once

#include <atomic>
#include <climits>
#include <memory>
#include <mutex>

#include "pools/java/blocking_queue.h"

namespace poolscope::java {

class LinkedBlockingQueue final : public BlockingQueue {
 public:
  // Throws IllegalArgumentException if capacity < 1.
  explicit LinkedBlockingQueue(int capacity = INT_MAX);
  ~LinkedBlockingQueue() override;

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
  struct Node {
    Runnable item;
    std::unique_ptr<Node> next;
  };
  Runnable dequeue();     // with takeLock held and count > 0
  Runnable takeFirst();   // with takeLock held and count > 0: dequeue, then signal the next taker
  void signalNotEmpty();  // from a putter: wake a taker

  const int capacity;
  std::atomic<int> count{0};
  std::unique_ptr<Node> head;  // the dummy; head->next is the first task
  Node* last;                  // the last node (the dummy when empty)
  mutable Mutex takeLock;
  CondVar notEmpty;
  mutable Mutex putLock;
};

}  // namespace poolscope::java
