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
  std::lock_guard locked(lock);
  queue.push_back(std::move(r));
  enqueued(queue.back(), kPriorityQueue, queue.size());
  std::push_heap(queue.begin(), queue.end(), lower_priority);  // siftUp
  notEmpty.notify_one();
  return true;
}

Runnable PriorityBlockingQueue::dequeue() {
  std::pop_heap(queue.begin(), queue.end(), lower_priority);  // siftDown
  Runnable x = std::move(queue.back());
  queue.pop_back();
  return x;
}

Runnable PriorityBlockingQueue::take(InterruptFlag& self) {
  std::unique_lock locked(lock);
  throw_if_interrupted(self);  // lockInterruptibly()
  while (queue.empty()) await(notEmpty, locked, self);
  return dequeue();
}

Runnable PriorityBlockingQueue::poll(Time deadline, InterruptFlag& self) {
  std::unique_lock locked(lock);
  throw_if_interrupted(self);
  while (queue.empty()) {
    if (clock().now() >= deadline) return {};
    await_until(notEmpty, locked, clock(), deadline, self);
  }
  return dequeue();
}

Runnable PriorityBlockingQueue::poll() {
  std::lock_guard locked(lock);
  return queue.empty() ? Runnable{} : dequeue();
}

Runnable PriorityBlockingQueue::remove(TaskId task) {
  std::lock_guard locked(lock);
  auto it = std::find_if(queue.begin(), queue.end(), [&](const Runnable& r) { return r.id == task; });
  if (it == queue.end()) return {};
  Runnable x = std::move(*it);
  queue.erase(it);
  std::make_heap(queue.begin(), queue.end(), lower_priority);
  return x;
}

bool PriorityBlockingQueue::contains(TaskId task) const {
  std::lock_guard locked(lock);
  return std::any_of(queue.begin(), queue.end(), [&](const Runnable& r) { return r.id == task; });
}

std::vector<Runnable> PriorityBlockingQueue::drain_to() {
  std::lock_guard locked(lock);
  std::vector<Runnable> out;
  out.reserve(queue.size());
  while (!queue.empty()) out.push_back(dequeue());
  return out;
}

std::size_t PriorityBlockingQueue::size() const {
  std::lock_guard locked(lock);
  return queue.size();
}

void PriorityBlockingQueue::wake_takers() {
  std::lock_guard locked(lock);
  notEmpty.notify_all();
}

}  // namespace poolscope::java

namespace poolscope::java {

int PriorityBlockingQueue::remaining_capacity() const { return INT_MAX; }

TaskId PriorityBlockingQueue::peek() const {
  std::lock_guard locked(lock);
  return queue.empty() ? 0 : queue.front().id;  // the heap's top
}

void PriorityBlockingQueue::for_each(const std::function<void(const Runnable&)>& f) const {
  std::lock_guard locked(lock);
  for (const Runnable& r : queue) f(r);  // heap order, as Java's iterator
}

}  // namespace poolscope::java
