#include "labs/solutions/04-overload/thread_pool.h"

#include "labs/solutions/04-overload/rules.h"

// LAB_MUTANT_* blocks: wrong variants of this solution, each built into its
// own grader by labs/CMakeLists.txt (POOLSCOPE_LAB_MUTANTS); CI proves the
// grader fails every one (tests/labs/mutants.py). Never defined otherwise.

namespace poolscope::lab04::solution {

ThreadPool::ThreadPool(int threads, int max_queue, OnFull on_full, int max_blocking_tasks, const TraceTarget& target)
    : trace_(target, "lab04-overload"),
      max_queue_(max_queue),
      on_full_(on_full),
      max_blocking_tasks_(max_blocking_tasks) {
  try {
    std::lock_guard lock(mtx_);
    for (int n = 0; n < threads; ++n) {
      WorkerId w = trace_.new_worker_id();
      // C++: nginx creates detached pthreads; poolscope::Thread keeps them joinable.
      threads_.emplace_back("lab04-" + std::to_string(w), [this, w] { cycle(w); });
      alive_++;
      trace_.spawned(w, kThreadPoolInit);
    }
  } catch (...) {
    // C++: a thread the OS refused fails the whole pool, as in nginx's
    // ngx_thread_pool_init, whose process then exits; here the threads
    // already started must exit first, or destroying them would wait for ever.
    destroy();
    throw;
  }
}

ThreadPool::~ThreadPool() { destroy(); }

Status ThreadPool::task_post(Task fn) {
  Job task{trace_.submitted(), std::move(fn)};
#ifdef LAB_MUTANT_04_FULL_BEFORE_LOCK  // the queue-full test read before the lock
  const bool full = waiting_ >= max_queue_;
  std::unique_lock lock(mtx_);
  if (full) {
#else
  std::unique_lock lock(mtx_);
  if (waiting_ >= max_queue_) {
#endif
    switch (on_full_) {
      case OnFull::refuse:
        trace_.refused(task.id, kQueueOverflow);
        return kQueueOverflow;
      case OnFull::caller_runs:
        // Java: `if (!e.isShutdown()) r.run();` in the submitting thread.
#ifndef LAB_MUTANT_04_CALLER_RUNS_LOCKED  // the caller runs its task holding the pool's lock
        lock.unlock();
#endif
        trace_.handoff(task.id, 0, kCallerRuns);
        trace_.run(0, task);
#ifdef LAB_MUTANT_04_RUN_TWICE  // the caller runs the task, then queues it as well
        lock.lock();
        break;
#endif
        return kNoLabel;
      case OnFull::block:
        // ants' retrieveWorker: refuse past MaxBlockingTasks, else wait.
        if (max_blocking_tasks_ != 0 && blocked_ >= max_blocking_tasks_) {
          trace_.refused(task.id, kPoolOverload);
          return kPoolOverload;
        }
        blocked_++;
        trace_.blocked(task.id);
#ifdef LAB_MUTANT_04_WAIT_IF  // `if`, not `while`: a woken submitter does not re-test the bound
        if (!(waiting_ < max_queue_ || closed_)) room_.wait(lock);
#else
        room_.wait(lock, [&] { return waiting_ < max_queue_ || closed_; });
#endif
        blocked_--;
        trace_.unblocked(task.id);
        if (closed_) {
          trace_.refused(task.id, rules::pool_closed());
          return rules::pool_closed();
        }
        break;
    }
  }
  cond_.notify_one();  // nginx signals before appending: the lock is held either way
  queue_.push_back(std::move(task));
  trace_.queued(queue_.back().id, kTaskQueue, static_cast<std::int64_t>(queue_.size()));
  waiting_++;
  return kNoLabel;
}

void ThreadPool::cycle(WorkerId w) {
  for (;;) {
    std::unique_lock lock(mtx_);
    waiting_--;                            // the number may become negative
    if (blocked_ > 0) room_.notify_one();  // ants: revertWorker's cond.Signal()
    if (queue_.empty()) trace_.idle(w, kTaskQueue);
    cond_.wait(lock, [&] { return !queue_.empty(); });
    Job task = std::move(queue_.front());
    queue_.pop_front();
    if (!task) {  // ngx_thread_pool_exit_handler
      alive_--;
      trace_.exited(w, kExitTask);
      return;
    }
    trace_.handoff(task.id, w, kTaskQueue, true);
    lock.unlock();
    // nginx's handlers cannot throw; a C++ task can, and the thread carries on.
    trace_.run(w, task);
  }
}

void ThreadPool::destroy() {
  std::lock_guard one(destroying_);
  {
    // nginx posts the exit tasks one at a time and waits for each. They
    // bypass max_queue here: nginx gives up on a full queue, leaking threads.
    std::lock_guard lock(mtx_);
    for (std::size_t n = 0; n < threads_.size(); ++n) {
      queue_.push_back(Job{});
      waiting_++;
    }
    cond_.notify_all();
  }
  for (Thread& t : threads_) t.join();
  threads_.clear();
}

int ThreadPool::drop_queued() {
  std::lock_guard lock(mtx_);
  int dropped = 0;
  for (Job& task : queue_) {
    trace_.dropped(task.id, kShutdownNow);
    ++dropped;
  }
  waiting_ -= dropped;
  queue_.clear();
  room_.notify_all();
  return dropped;
}

void ThreadPool::close() {
  std::lock_guard lock(mtx_);
  closed_ = true;
#ifndef LAB_MUTANT_04_CLOSE_NO_WAKE  // close() leaves the blocked submitters asleep
  room_.notify_all();  // ants' Release: cond.Broadcast()
#endif
}

int ThreadPool::blocked() const {
  std::lock_guard lock(mtx_);
  return blocked_;
}

int ThreadPool::threads_alive() const {
  std::lock_guard lock(mtx_);
  return alive_;
}

int ThreadPool::queued() const {
  std::lock_guard lock(mtx_);
  return static_cast<int>(queue_.size());
}

int ThreadPool::idle() const {
  std::lock_guard lock(mtx_);
  return static_cast<int>(queue_.size()) - waiting_;
}

}  // namespace poolscope::lab04::solution
