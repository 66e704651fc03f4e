#include "labs/solutions/01-fixed/thread_pool.h"

#include "labs/solutions/01-fixed/rules.h"

// LAB_MUTANT_* blocks: wrong variants of this solution, each built into its
// own grader by labs/CMakeLists.txt (POOLSCOPE_LAB_MUTANTS); CI proves the
// grader fails every one (tests/labs/mutants.py). Never defined otherwise.

namespace poolscope::lab01::solution {

ThreadPool::ThreadPool(int threads, int max_queue, const TraceTarget& target)
    : trace_(target, "lab01-fixed"), max_queue_(max_queue) {
  try {
    std::lock_guard lock(mtx_);
    for (int n = 0; n < threads; ++n) {
      WorkerId w = trace_.new_worker_id();
      // C++: nginx creates detached pthreads; poolscope::Thread keeps them joinable.
      threads_.emplace_back("lab01-" + std::to_string(w), [this, w] { cycle(w); });
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
#if defined(LAB_MUTANT_01_BOUND_BEFORE_LOCK)  // the bound read before taking the lock
  const bool full = waiting_ >= max_queue_;
  std::lock_guard lock(mtx_);
  if (full) {
#elif defined(LAB_MUTANT_01_TWO_LOCKS)  // tested under one hold of the lock, appended under another
  bool full;
  {
    std::lock_guard first(mtx_);
    full = waiting_ >= max_queue_;
  }
  std::lock_guard lock(mtx_);
  if (full) {
#else
  std::lock_guard lock(mtx_);
  if (waiting_ >= max_queue_) {
#endif
    trace_.refused(task.id, kQueueOverflow);
    return kQueueOverflow;
  }
#ifndef LAB_MUTANT_01_LOST_WAKEUP  // no signal: a task waits while a thread sleeps
  cond_.notify_one();  // nginx signals before appending: the lock is held either way
#endif
  queue_.push_back(std::move(task));
  trace_.queued(queue_.back().id, kTaskQueue, static_cast<std::int64_t>(queue_.size()));
  waiting_++;
  return kNoLabel;
}

void ThreadPool::cycle(WorkerId w) {
  for (;;) {
    std::unique_lock lock(mtx_);
    waiting_--;  // the number may become negative
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
#ifdef LAB_MUTANT_01_EXIT_ONE_SHORT  // one exit task too few: a thread never exits
    for (std::size_t n = 1; n < threads_.size(); ++n) {
#else
    for (std::size_t n = 0; n < threads_.size(); ++n) {
#endif
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
  return dropped;
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

}  // namespace poolscope::lab01::solution
