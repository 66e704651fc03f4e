#include "pools/java/array_blocking_queue.h"

namespace poolscope::java {

namespace {
const Label kArrayQueue =
    intern_label("array-blocking-queue", "ArrayBlockingQueue: waits in a bounded FIFO array for a worker");
}  // namespace

ArrayBlockingQueue::ArrayBlockingQueue(int capacity) {
  if (capacity <= 0) throw IllegalArgumentException();
  items.resize(static_cast<std::size_t>(capacity));
}

void ArrayBlockingQueue::enqueue(Runnable& r) {
  items[putIndex] = std::move(r);
  enqueued(items[putIndex], kArrayQueue, count + 1);
  if (++putIndex == items.size()) putIndex = 0;
  count++;
  notEmpty.notify_one();
}

Runnable ArrayBlockingQueue::dequeue() {
  Runnable x = std::move(items[takeIndex]);
  items[takeIndex] = {};
  if (++takeIndex == items.size()) takeIndex = 0;
  count--;
  return x;
}

bool ArrayBlockingQueue::offer(Runnable& r) {
  std::lock_guard locked(lock);
  if (count == items.size()) return false;
  enqueue(r);
  return true;
}

Runnable ArrayBlockingQueue::take(InterruptFlag& self) {
  std::unique_lock locked(lock);
  throw_if_interrupted(self);  // lockInterruptibly()
  while (count == 0) await(notEmpty, locked, self);
  return dequeue();
}

Runnable ArrayBlockingQueue::poll(Time deadline, InterruptFlag& self) {
  std::unique_lock locked(lock);
  throw_if_interrupted(self);
  while (count == 0) {
    if (clock().now() >= deadline) return {};
    await_until(notEmpty, locked, clock(), deadline, self);
  }
  return dequeue();
}

Runnable ArrayBlockingQueue::poll() {
  std::lock_guard locked(lock);
  return count == 0 ? Runnable{} : dequeue();
}

Runnable ArrayBlockingQueue::remove(TaskId task) {
  std::lock_guard locked(lock);
  for (std::size_t n = 0, i = takeIndex; n < count; ++n, i = (i + 1) % items.size()) {
    if (items[i].id != task) continue;
    // removeAt(i): close the gap by shifting the later items one slot back.
    Runnable x = std::move(items[i]);
    for (std::size_t next = (i + 1) % items.size(); next != putIndex; next = (next + 1) % items.size()) {
      items[i] = std::move(items[next]);
      i = next;
    }
    items[i] = {};
    putIndex = i;
    count--;
    return x;
  }
  return {};
}

bool ArrayBlockingQueue::contains(TaskId task) const {
  std::lock_guard locked(lock);
  for (std::size_t n = 0, i = takeIndex; n < count; ++n, i = (i + 1) % items.size())
    if (items[i].id == task) return true;
  return false;
}

std::vector<Runnable> ArrayBlockingQueue::drain_to() {
  std::lock_guard locked(lock);
  std::vector<Runnable> out;
  out.reserve(count);
  while (count > 0) out.push_back(dequeue());
  return out;
}

std::size_t ArrayBlockingQueue::size() const {
  std::lock_guard locked(lock);
  return count;
}

void ArrayBlockingQueue::wake_takers() {
  std::lock_guard locked(lock);
  notEmpty.notify_all();
}

}  // namespace poolscope::java

namespace poolscope::java {

int ArrayBlockingQueue::remaining_capacity() const {
  std::lock_guard locked(lock);
  return static_cast<int>(items.size() - count);
}

TaskId ArrayBlockingQueue::peek() const {
  std::lock_guard locked(lock);
  return count == 0 ? 0 : items[takeIndex].id;
}

void ArrayBlockingQueue::for_each(const std::function<void(const Runnable&)>& f) const {
  std::lock_guard locked(lock);
  for (std::size_t n = 0, i = takeIndex; n < count; ++n, i = (i + 1) % items.size()) f(items[i]);
}

}  // namespace poolscope::java
