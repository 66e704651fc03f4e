#include "pools/java/priority_blocking_queue.h"

#include <algorithm>
#include <climits>

namespace poolscope::java {

namespace {
const Label kPriorityQueue = intern_label("priority-blocking-queue",
                                          "PriorityBlockingQueue: waits in an unbounded heap, highest priority first");

bool lower_priority(const Runnable& a, const Runnable& b) { return a.priority < b.priority; }
}  // namespace

bool PriorityBlockingQueue::offer(Runnable& r) {
  std::lock_guard lock(lock_);
  queue_.push_back(std::move(r));
  enqueued(queue_.back(), kPriorityQueue, queue_.size());
  std::push_heap(queue_.begin(), queue_.end(), lower_priority);  // siftUp
  notEmpty_.notify_one();
  return true;
}

Runnable PriorityBlockingQueue::dequeue() {
  std::pop_heap(queue_.begin(), queue_.end(), lower_priority);  // siftDown
  Runnable x = std::move(queue_.back());
  queue_.pop_back();
  return x;
}

Runnable PriorityBlockingQueue::take(InterruptFlag& self) {
  std::unique_lock lock(lock_);
  throw_if_interrupted(self);  // lockInterruptibly()
  while (queue_.empty()) await(notEmpty_, lock, self);
  return dequeue();
}

Runnable PriorityBlockingQueue::poll(Time deadline, InterruptFlag& self) {
  std::unique_lock lock(lock_);
  throw_if_interrupted(self);
  while (queue_.empty()) {
    if (clock().now() >= deadline) return {};
    await_until(notEmpty_, lock, clock(), deadline, self);
  }
  return dequeue();
}

Runnable PriorityBlockingQueue::poll() {
  std::lock_guard lock(lock_);
  return queue_.empty() ? Runnable{} : dequeue();
}

Runnable PriorityBlockingQueue::remove(TaskId task) {
  std::lock_guard lock(lock_);
  auto it = std::find_if(queue_.begin(), queue_.end(), [&](const Runnable& r) { return r.id == task; });
  if (it == queue_.end()) return {};
  Runnable x = std::move(*it);
  queue_.erase(it);
  std::make_heap(queue_.begin(), queue_.end(), lower_priority);
  return x;
}

bool PriorityBlockingQueue::contains(TaskId task) const {
  std::lock_guard lock(lock_);
  return std::any_of(queue_.begin(), queue_.end(), [&](const Runnable& r) { return r.id == task; });
}

std::vector<Runnable> PriorityBlockingQueue::drain_to() {
  std::lock_guard lock(lock_);
  std::vector<Runnable> out;
  out.reserve(queue_.size());
  while (!queue_.empty()) out.push_back(dequeue());
  return out;
}

std::size_t PriorityBlockingQueue::size() const {
  std::lock_guard lock(lock_);
  return queue_.size();
}

void PriorityBlockingQueue::wake_takers() {
  std::lock_guard lock(lock_);
  notEmpty_.notify_all();
}

}  // namespace poolscope::java

namespace poolscope::java {

int PriorityBlockingQueue::remaining_capacity() const { return INT_MAX; }

TaskId PriorityBlockingQueue::peek() const {
  std::lock_guard lock(lock_);
  return queue_.empty() ? 0 : queue_.front().id;  // the heap's top
}

void PriorityBlockingQueue::for_each(const std::function<void(const Runnable&)>& f) const {
  std::lock_guard lock(lock_);
  for (const Runnable& r : queue_) f(r);  // heap order, as Java's iterator
}

}  // namespace poolscope::java
