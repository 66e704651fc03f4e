#include "labs/01-fixed/thread_pool.h"

#include "labs/01-fixed/rules.h"

namespace poolscope::lab01 {

ThreadPool::ThreadPool(int threads, int max_queue, const TraceTarget& target)
    : trace_(target, "lab01-student"), max_queue_(max_queue) {
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
  std::lock_guard lock(mtx_);
  // TODO(step 2): nginx refuses the task when `waiting >= max_queue`
  // (trace it with trace_.refused and return the reason).
  cond_.notify_one();  // nginx signals before appending: the lock is held either way
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
    cond_.wait(lock, [&] { return !queue_.empty() || stopping_; });
    if (stopping_) {  // TODO(step 3): this abandons every task still queued
      alive_--;
      trace_.exited(w, kExitTask);
      return;
    }
    Job task = std::move(queue_.front());
    queue_.pop_front();
    trace_.handoff(task.id, w, kTaskQueue, true);
    lock.unlock();
    // nginx's handlers cannot throw; a C++ task can, and the thread carries on.
    trace_.run(w, task);
  }
}

void ThreadPool::destroy() {
  std::lock_guard one(destroying_);
  {
    // TODO(step 3): nginx posts one exit task per thread, behind the queued
    // tasks, so every accepted task runs before the threads end.
    std::lock_guard lock(mtx_);
    stopping_ = true;
    cond_.notify_all();
  }
  for (Thread& t : threads_) t.join();
  threads_.clear();
}

int ThreadPool::drop_queued() {
  // TODO(step 4): drop every queued task (trace_.dropped), keep `waiting_`
  // right, and return how many.
  return 0;
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

}  // namespace poolscope::lab01
