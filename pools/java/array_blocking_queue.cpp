#include "pools/java/array_blocking_queue.h"

namespace poolscope::java {

namespace {
const Label kArrayQueue =
    intern_label("array-blocking-queue", "ArrayBlockingQueue: waits in a bounded FIFO array for a worker");
}  // namespace

ArrayBlockingQueue::ArrayBlockingQueue(int capacity) {
  if (capacity <= 0) throw IllegalArgumentException();
  items_.resize(static_cast<std::size_t>(capacity));
}

void ArrayBlockingQueue::enqueue(Runnable& r) {
  items_[putIndex_] = std::move(r);
  enqueued(items_[putIndex_], kArrayQueue, count_ + 1);
  if (++putIndex_ == items_.size()) putIndex_ = 0;
  count_++;
  notEmpty_.notify_one();
}

Runnable ArrayBlockingQueue::dequeue() {
  Runnable x = std::move(items_[takeIndex_]);
  items_[takeIndex_] = {};
  if (++takeIndex_ == items_.size()) takeIndex_ = 0;
  count_--;
  return x;
}

bool ArrayBlockingQueue::offer(Runnable& r) {
  std::lock_guard lock(lock_);
  if (count_ == items_.size()) return false;
  enqueue(r);
  return true;
}

Runnable ArrayBlockingQueue::take(InterruptFlag& self) {
  std::unique_lock lock(lock_);
  throw_if_interrupted(self);  // lockInterruptibly()
  while (count_ == 0) await(notEmpty_, lock, self);
  return dequeue();
}

Runnable ArrayBlockingQueue::poll(Time deadline, InterruptFlag& self) {
  std::unique_lock lock(lock_);
  throw_if_interrupted(self);
  while (count_ == 0) {
    if (clock().now() >= deadline) return {};
    await_until(notEmpty_, lock, clock(), deadline, self);
  }
  return dequeue();
}

Runnable ArrayBlockingQueue::poll() {
  std::lock_guard lock(lock_);
  return count_ == 0 ? Runnable{} : dequeue();
}

Runnable ArrayBlockingQueue::remove(TaskId task) {
  std::lock_guard lock(lock_);
  for (std::size_t n = 0, i = takeIndex_; n < count_; ++n, i = (i + 1) % items_.size()) {
    if (items_[i].id != task) continue;
    // removeAt(i): close the gap by shifting the later items one slot back.
    Runnable x = std::move(items_[i]);
    for (std::size_t next = (i + 1) % items_.size(); next != putIndex_; next = (next + 1) % items_.size()) {
      items_[i] = std::move(items_[next]);
      i = next;
    }
    items_[i] = {};
    putIndex_ = i;
    count_--;
    return x;
  }
  return {};
}

bool ArrayBlockingQueue::contains(TaskId task) const {
  std::lock_guard lock(lock_);
  for (std::size_t n = 0, i = takeIndex_; n < count_; ++n, i = (i + 1) % items_.size())
    if (items_[i].id == task) return true;
  return false;
}

std::vector<Runnable> ArrayBlockingQueue::drain_to() {
  std::lock_guard lock(lock_);
  std::vector<Runnable> out;
  out.reserve(count_);
  while (count_ > 0) out.push_back(dequeue());
  return out;
}

std::size_t ArrayBlockingQueue::size() const {
  std::lock_guard lock(lock_);
  return count_;
}

void ArrayBlockingQueue::wake_takers() {
  std::lock_guard lock(lock_);
  notEmpty_.notify_all();
}

}  // namespace poolscope::java

namespace poolscope::java {

int ArrayBlockingQueue::remaining_capacity() const {
  std::lock_guard lock(lock_);
  return static_cast<int>(items_.size() - count_);
}

TaskId ArrayBlockingQueue::peek() const {
  std::lock_guard lock(lock_);
  return count_ == 0 ? 0 : items_[takeIndex_].id;
}

void ArrayBlockingQueue::for_each(const std::function<void(const Runnable&)>& f) const {
  std::lock_guard lock(lock_);
  for (std::size_t n = 0, i = takeIndex_; n < count_; ++n, i = (i + 1) % items_.size()) f(items_[i]);
}

}  // namespace poolscope::java
