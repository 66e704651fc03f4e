#include "labs/01-fixed/thread_pool.h"

#include "labs/01-fixed/rules.h"

namespace poolscope::lab01 {

ThreadPool::ThreadPool(int threads, int max_queue, const TraceTarget& target)
    : trace_(target, "lab01-student"), max_queue_(max_queue) {
  std::lock_guard lock(mtx_);
  for (int n = 0; n < threads; ++n) {
    WorkerId w = trace_.new_worker_id();
    // C++: nginx creates detached pthreads; poolscope::Thread keeps them joinable.
    threads_.emplace_back("lab01-" + std::to_string(w), [this, w] { cycle(w); });
    alive_++;
    trace_.spawned(w, kThreadPoolInit);
  }
}

ThreadPool::~ThreadPool() { destroy(); }

Status ThreadPool::task_post(Task fn) {
  Job task{trace_.submitted(), std::move(fn)};
  // THE PLANTED RACE: "no need to signal when no thread sleeps", checked
  // before the lock. A thread can go to sleep between this read and the
  // append below; then nobody is signalled and the task waits in the queue.
  // (The fix: read sleepers_ under the lock, or signal always, as nginx does.)
  const bool someone_sleeps = sleepers_.load() > 0;
  std::lock_guard lock(mtx_);
  if (waiting_ >= max_queue_) {
    trace_.refused(task.id, kQueueOverflow);
    return kQueueOverflow;
  }
  if (someone_sleeps) cond_.notify_one();
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
    while (queue_.empty()) {
      sleepers_++;
      cond_.wait(lock);
      sleepers_--;
    }
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

}  // namespace poolscope::lab01
