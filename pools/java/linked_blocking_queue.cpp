#include "pools/java/linked_blocking_queue.h"

namespace poolscope::java {

namespace {
const Label kLinkedQueue =
    intern_label("linked-blocking-queue", "LinkedBlockingQueue: waits in a linked FIFO (unbounded by default)");
}  // namespace

LinkedBlockingQueue::LinkedBlockingQueue(int capacity)
    : capacity_(capacity), head_(std::make_unique<Node>()), last_(head_.get()) {
  if (capacity <= 0) throw IllegalArgumentException();
}

LinkedBlockingQueue::~LinkedBlockingQueue() {
  while (head_) head_ = std::move(head_->next);  // iteratively: a long chain would overflow the stack
}

Runnable LinkedBlockingQueue::dequeue() {
  std::unique_ptr<Node> h = std::move(head_);
  head_ = std::move(h->next);  // the first node becomes the dummy
  return std::move(head_->item);
}

void LinkedBlockingQueue::signalNotEmpty() {
  std::lock_guard takeLock(takeLock_);
  notEmpty_.notify_one();
}

bool LinkedBlockingQueue::offer(Runnable& r) {
  if (count_.load() == capacity_) return false;
  auto node = std::make_unique<Node>();  // allocated before locking, as Java does
  int c;
  {
    std::lock_guard putLock(putLock_);
    if (count_.load() == capacity_) return false;
    node->item = std::move(r);
    enqueued(node->item, kLinkedQueue, static_cast<std::size_t>(count_.load()) + 1);
    last_->next = std::move(node);
    last_ = last_->next.get();
    c = count_.fetch_add(1);  // publishes the node to takers
  }
  if (c == 0) signalNotEmpty();
  return true;
}

Runnable LinkedBlockingQueue::takeFirst() {
  Runnable x = dequeue();
  int c = count_.fetch_sub(1);
  if (c > 1) notEmpty_.notify_one();  // more left: pass the signal on to the next taker
  return x;
}

Runnable LinkedBlockingQueue::take(InterruptFlag& self) {
  std::unique_lock takeLock(takeLock_);
  throw_if_interrupted(self);  // lockInterruptibly()
  while (count_.load() == 0) await(notEmpty_, takeLock, self);
  return takeFirst();
}

Runnable LinkedBlockingQueue::poll(Time deadline, InterruptFlag& self) {
  std::unique_lock takeLock(takeLock_);
  throw_if_interrupted(self);
  while (count_.load() == 0) {
    if (clock().now() >= deadline) return {};
    await_until(notEmpty_, takeLock, clock(), deadline, self);
  }
  return takeFirst();
}

Runnable LinkedBlockingQueue::poll() {
  if (count_.load() == 0) return {};
  std::lock_guard takeLock(takeLock_);
  if (count_.load() == 0) return {};
  return takeFirst();
}

Runnable LinkedBlockingQueue::remove(TaskId task) {
  std::scoped_lock fullyLock(putLock_, takeLock_);
  for (Node* trail = head_.get(); trail->next; trail = trail->next.get()) {
    Node* p = trail->next.get();
    if (p->item.id != task) continue;
    // unlink(p, trail)
    Runnable x = std::move(p->item);
    std::unique_ptr<Node> gone = std::move(trail->next);
    trail->next = std::move(gone->next);
    if (last_ == p) last_ = trail;
    count_.fetch_sub(1);
    return x;
  }
  return {};
}

bool LinkedBlockingQueue::contains(TaskId task) const {
  std::scoped_lock fullyLock(putLock_, takeLock_);
  for (const Node* p = head_->next.get(); p; p = p->next.get())
    if (p->item.id == task) return true;
  return false;
}

std::vector<Runnable> LinkedBlockingQueue::drain_to() {
  std::lock_guard takeLock(takeLock_);
  std::vector<Runnable> out;
  int n = count_.load();
  out.reserve(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) out.push_back(dequeue());
  count_.fetch_sub(n);
  return out;
}

std::size_t LinkedBlockingQueue::size() const { return static_cast<std::size_t>(count_.load()); }

void LinkedBlockingQueue::wake_takers() {
  std::lock_guard takeLock(takeLock_);
  notEmpty_.notify_all();
}

}  // namespace poolscope::java

namespace poolscope::java {

int LinkedBlockingQueue::remaining_capacity() const { return capacity_ - count_.load(); }

TaskId LinkedBlockingQueue::peek() const {
  std::lock_guard takeLock(takeLock_);
  return head_->next ? head_->next->item.id : 0;
}

void LinkedBlockingQueue::for_each(const std::function<void(const Runnable&)>& f) const {
  std::scoped_lock fullyLock(putLock_, takeLock_);
  for (const Node* p = head_->next.get(); p; p = p->next.get()) f(p->item);
}

}  // namespace poolscope::java
