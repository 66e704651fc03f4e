#include "pools/java/linked_blocking_queue.h"

namespace poolscope::java {

namespace {
const Label kLinkedQueue =
    intern_label("linked-blocking-queue", "LinkedBlockingQueue: waits in a linked FIFO (unbounded by default)");
}  // namespace

LinkedBlockingQueue::LinkedBlockingQueue(int capacity)
    : capacity(capacity), head(std::make_unique<Node>()), last(head.get()) {
  if (capacity <= 0) throw IllegalArgumentException();
}

LinkedBlockingQueue::~LinkedBlockingQueue() {
  while (head) head = std::move(head->next);  // iteratively: a long chain would overflow the stack
}

Runnable LinkedBlockingQueue::dequeue() {
  std::unique_ptr<Node> h = std::move(head);
  head = std::move(h->next);  // the first node becomes the dummy
  return std::move(head->item);
}

void LinkedBlockingQueue::signalNotEmpty() {
  std::lock_guard locked(takeLock);
  notEmpty.notify_one();
}

bool LinkedBlockingQueue::offer(Runnable& r) {
  if (count.load() == capacity) return false;
  auto node = std::make_unique<Node>();  // allocated before locking, as Java does
  int c;
  {
    std::lock_guard locked(putLock);
    if (count.load() == capacity) return false;
    node->item = std::move(r);
    enqueued(node->item, kLinkedQueue, static_cast<std::size_t>(count.load()) + 1);
    last->next = std::move(node);
    last = last->next.get();
    c = count.fetch_add(1);  // publishes the node to takers
  }
  if (c == 0) signalNotEmpty();
  return true;
}

Runnable LinkedBlockingQueue::takeFirst() {
  Runnable x = dequeue();
  int c = count.fetch_sub(1);
  if (c > 1) notEmpty.notify_one();  // more left: pass the signal on to the next taker
  return x;
}

Runnable LinkedBlockingQueue::take(InterruptFlag& self) {
  std::unique_lock locked(takeLock);
  throw_if_interrupted(self);  // lockInterruptibly()
  while (count.load() == 0) await(notEmpty, locked, self);
  return takeFirst();
}

Runnable LinkedBlockingQueue::poll(Time deadline, InterruptFlag& self) {
  std::unique_lock locked(takeLock);
  throw_if_interrupted(self);
  while (count.load() == 0) {
    if (clock().now() >= deadline) return {};
    await_until(notEmpty, locked, clock(), deadline, self);
  }
  return takeFirst();
}

Runnable LinkedBlockingQueue::poll() {
  if (count.load() == 0) return {};
  std::lock_guard locked(takeLock);
  if (count.load() == 0) return {};
  return takeFirst();
}

Runnable LinkedBlockingQueue::remove(TaskId task) {
  std::scoped_lock fullyLock(putLock, takeLock);
  for (Node* trail = head.get(); trail->next; trail = trail->next.get()) {
    Node* p = trail->next.get();
    if (p->item.id != task) continue;
    // unlink(p, trail)
    Runnable x = std::move(p->item);
    std::unique_ptr<Node> gone = std::move(trail->next);
    trail->next = std::move(gone->next);
    if (last == p) last = trail;
    count.fetch_sub(1);
    return x;
  }
  return {};
}

bool LinkedBlockingQueue::contains(TaskId task) const {
  std::scoped_lock fullyLock(putLock, takeLock);
  for (const Node* p = head->next.get(); p; p = p->next.get())
    if (p->item.id == task) return true;
  return false;
}

std::vector<Runnable> LinkedBlockingQueue::drain_to() {
  std::lock_guard locked(takeLock);
  std::vector<Runnable> out;
  int n = count.load();
  out.reserve(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) out.push_back(dequeue());
  count.fetch_sub(n);
  return out;
}

std::size_t LinkedBlockingQueue::size() const { return static_cast<std::size_t>(count.load()); }

void LinkedBlockingQueue::wake_takers() {
  std::lock_guard locked(takeLock);
  notEmpty.notify_all();
}

}  // namespace poolscope::java

namespace poolscope::java {

int LinkedBlockingQueue::remaining_capacity() const { return capacity - count.load(); }

TaskId LinkedBlockingQueue::peek() const {
  std::lock_guard locked(takeLock);
  return head->next ? head->next->item.id : 0;
}

void LinkedBlockingQueue::for_each(const std::function<void(const Runnable&)>& f) const {
  std::scoped_lock fullyLock(putLock, takeLock);
  for (const Node* p = head->next.get(); p; p = p->next.get()) f(p->item);
}

}  // namespace poolscope::java
