// BlockingQueue<Runnable>: where ThreadPoolExecutor keeps the tasks no worker
// has taken yet. The choice of queue decides how the pool grows (class
// javadoc, "Queuing"): execute() starts a non-core thread only when offer()
// fails, so
//   SynchronousQueue       hands each task straight to an idle worker, or
//                          fails: every task without an idle taker starts
//                          a thread, up to maximumPoolSize;
//   ArrayBlockingQueue(n)  holds n tasks: core threads, then n queued, then
//                          growth to the maximum, then rejection;
//   LinkedBlockingQueue    unbounded (or bounded like the array);
//   PriorityBlockingQueue  unbounded, highest priority first.
// An unbounded queue never refuses, so the pool never grows past core.
//
// Only the operations the executor uses are ported: offer, poll, take,
// remove, drainTo, size, and what getQueue() offers for monitoring:
// contains, peek, remainingCapacity and iteration. Nobody blocks in put(),
// so the queues have no notFull condition.
#pragma once

#include <cstddef>
#include <functional>
#include <memory>
#include <vector>

#include "pools/core/pool_trace.h"
#include "pools/java/interrupt.h"

namespace poolscope::java {

// C++: a Runnable that submit() wrapped in a FutureTask also carries the
// future, so that purge() can find the cancelled ones (Java tests
// `r instanceof Future<?> && ((Future<?>) r).isCancelled()`).
class Cancellable {
 public:
  virtual ~Cancellable() = default;
  virtual bool is_cancelled() const = 0;
};

// Java's Runnable, as the pool sees it: the task with the id the trace gave
// it, plus the priority a PriorityBlockingQueue orders by. A Runnable whose
// function is empty is Java's null.
// C++: Java's tasks are Comparable; these carry SubmitOptions::priority,
// higher first.
struct Runnable : Job {
  int priority = 0;
  std::shared_ptr<const Cancellable> future;  // null for a plain execute()
  // C++: on a null first task (ThreadPoolExecutor::null), why addWorker
  // starts a thread with nothing to run, for the trace.
  Label why = kNoLabel;
};

// now + timeout, saturating (a keepAliveTime may be "forever").
inline Time deadline_after(Time now, Nanos timeout) {
  return timeout >= Time::max() - now ? Time::max() : now + timeout;
}

class BlockingQueue {
 public:
  BlockingQueue() = default;
  BlockingQueue(const BlockingQueue&) = delete;
  BlockingQueue& operator=(const BlockingQueue&) = delete;
  virtual ~BlockingQueue() = default;

  // Inserts `r` if that is possible at once. Moves from `r` only on success,
  // so a refused task stays with the caller (Java passes a reference).
  virtual bool offer(Runnable& r) = 0;
  // Waits for a task. Throws InterruptedException if `self` is interrupted.
  virtual Runnable take(InterruptFlag& self) = 0;
  // Waits until `deadline` on the pool's clock; a null Runnable on time-out.
  // C++: Java's poll(timeout, unit) takes a duration; this one takes the
  // deadline the caller computed, so a test advancing a manual clock cannot slip in
  // between the caller's decision to wait and the wait.
  virtual Runnable poll(Time deadline, InterruptFlag& self) = 0;
  // The head, or null if none is there right now (DiscardOldestPolicy).
  virtual Runnable poll() = 0;
  // remove(Object): returns the task, or null.
  // C++: Java's finds it by identity, this one by task id.
  virtual Runnable remove(TaskId task) = 0;
  // contains(Object): is the task waiting in the queue? (C++: by task id.)
  virtual bool contains(TaskId task) const = 0;
  // drainTo(c): removes every task, in the order poll() would give them.
  virtual std::vector<Runnable> drain_to() = 0;
  virtual std::size_t size() const = 0;
  bool is_empty() const { return size() == 0; }
  // remainingCapacity(): how many more offers would succeed now
  // (Integer.MAX_VALUE for an unbounded queue, 0 for a SynchronousQueue).
  virtual int remaining_capacity() const = 0;
  // peek(): the id of the task poll() would return, or 0 if none.
  virtual TaskId peek() const = 0;
  // iterator(): visits each waiting task, in the order Java's iterator
  // would (a PriorityBlockingQueue's in no particular order), with the
  // queue's lock held, so `f` must not call back into the queue. Java's
  // iterator is weakly consistent; this one sees one moment.
  virtual void for_each(const std::function<void(const Runnable&)>& f) const = 0;
  // The ids of the waiting tasks, in iteration order.
  std::vector<TaskId> ids() const {
    std::vector<TaskId> out;
    for_each([&](const Runnable& r) { out.push_back(r.id); });
    return out;
  }

  // C++: (see interrupt.h): wakes every thread waiting in take/poll so
  // that an interrupted one sees its flag.
  virtual void wake_takers() = 0;
  // False for a SynchronousQueue: a task it passes on was never queued.
  virtual bool holds_tasks() const { return true; }

  // C++: the executor lends the queue its trace, so that the queue
  // records `task_queued` under its own lock, before any worker can take the
  // task and record the hand-off. Unbound, the queue records nothing and
  // waits on real time.
  void bind(PoolTrace& trace) { trace_ = &trace; }

 protected:
  void enqueued(const Runnable& r, Label rule, std::size_t depth) {
    if (trace_) trace_->queued(r.id, rule, static_cast<std::int64_t>(depth));
  }
  Clock& clock() const { return trace_ ? trace_->clock() : default_clock(); }

 private:
  PoolTrace* trace_ = nullptr;
};

}  // namespace poolscope::java
