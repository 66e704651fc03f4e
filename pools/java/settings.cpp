// The settings that can change while the pool runs, with the effects Java
// gives them, and the statistics.
#include "pools/java/labels.h"
#include "pools/java/worker.h"

namespace poolscope::java {

namespace {
const char* const kNonzeroKeepAlive = "Core threads must have nonzero keep alive times";
}  // namespace

// Lower: the excess workers exit when next idle (they wait with keepAlive
// now). Higher: starts threads for the queued tasks, at most one per queued
// task and no more than the increase.
void ThreadPoolExecutor::set_core_pool_size(int corePoolSize) {
  if (corePoolSize < 0 || maximumPoolSize_ < corePoolSize) throw IllegalArgumentException();
  int delta = corePoolSize - corePoolSize_;
  corePoolSize_ = corePoolSize;
  trace_.tuned(kCorePoolSize, corePoolSize);
  if (workerCountOf(ctl_.load()) > corePoolSize) {
    interruptIdleWorkers();
  } else if (delta > 0) {
    // We don't really know how many new threads are "needed": prestart
    // enough for the queued tasks, stopping if the queue empties meanwhile.
    auto k = std::min(static_cast<std::size_t>(delta), workQueue_->size());
    while (k-- > 0 && addWorker(nullptr, true, kCoreSizeGrew))
      if (workQueue_->is_empty()) break;
  }
}

bool ThreadPoolExecutor::prestart_core_thread() {
  return workerCountOf(ctl_.load()) < corePoolSize_ && addWorker(nullptr, true, kPrestart);
}

int ThreadPoolExecutor::prestart_all_core_threads() {
  int n = 0;
  while (addWorker(nullptr, true, kPrestart)) ++n;
  return n;
}

void ThreadPoolExecutor::allow_core_thread_time_out(bool value) {
  if (value && keepAliveTime_ <= 0) throw IllegalArgumentException(kNonzeroKeepAlive);
  if (value != allowCoreThreadTimeOut_) {
    allowCoreThreadTimeOut_ = value;
    trace_.tuned(kAllowCoreThreadTimeOut, value);
    if (value) interruptIdleWorkers();
  }
}

// Lower: the excess workers exit when next idle.
void ThreadPoolExecutor::set_maximum_pool_size(int maximumPoolSize) {
  if (maximumPoolSize <= 0 || maximumPoolSize < corePoolSize_) throw IllegalArgumentException();
  maximumPoolSize_ = maximumPoolSize;
  trace_.tuned(kMaximumPoolSize, maximumPoolSize);
  if (workerCountOf(ctl_.load()) > maximumPoolSize) interruptIdleWorkers();
}

// Shorter: idle workers wake and wait again with the new time.
void ThreadPoolExecutor::set_keep_alive_time(Nanos time) {
  if (time < Nanos(0)) throw IllegalArgumentException();
  if (time == Nanos(0) && allows_core_thread_time_out()) throw IllegalArgumentException(kNonzeroKeepAlive);
  std::int64_t delta = time.count() - keepAliveTime_;
  keepAliveTime_ = time.count();
  trace_.tuned(kKeepAliveTime, time.count());
  if (delta < 0) interruptIdleWorkers();
}

void ThreadPoolExecutor::set_thread_factory(std::shared_ptr<ThreadFactory> threadFactory) {
  if (!threadFactory) throw NullPointerException();
  threadFactory_.store(std::move(threadFactory));
}

void ThreadPoolExecutor::set_rejected_execution_handler(std::shared_ptr<RejectedExecutionHandler> handler) {
  if (!handler) throw NullPointerException();
  handler_.store(std::move(handler));
  trace_.tuned(kHandler, 0);
}

int ThreadPoolExecutor::get_pool_size() const {
  std::lock_guard lock(mainLock_);
  // Remove the rare and surprising possibility of isTerminated() && getPoolSize() > 0.
  return runStateAtLeast(ctl_.load(), TIDYING) ? 0 : static_cast<int>(workers_.size());
}

int ThreadPoolExecutor::get_active_count() const {
  std::lock_guard lock(mainLock_);
  int n = 0;
  for (const Worker* w : workers_)
    if (w->isLocked()) ++n;
  return n;
}

int ThreadPoolExecutor::get_largest_pool_size() const {
  std::lock_guard lock(mainLock_);
  return largestPoolSize_;
}

std::int64_t ThreadPoolExecutor::get_task_count() const {
  std::lock_guard lock(mainLock_);
  std::int64_t n = completedTaskCount_;
  for (const Worker* w : workers_) {
    n += w->completedTasks.load();
    if (w->isLocked()) ++n;
  }
  return n + static_cast<std::int64_t>(workQueue_->size());
}

std::int64_t ThreadPoolExecutor::get_completed_task_count() const {
  std::lock_guard lock(mainLock_);
  std::int64_t n = completedTaskCount_;
  for (const Worker* w : workers_) n += w->completedTasks.load();
  return n;
}

std::string ThreadPoolExecutor::to_string() const {
  std::int64_t ncompleted;
  int nworkers, nactive = 0;
  {
    std::lock_guard lock(mainLock_);
    ncompleted = completedTaskCount_;
    nworkers = static_cast<int>(workers_.size());
    for (const Worker* w : workers_) {
      ncompleted += w->completedTasks.load();
      if (w->isLocked()) ++nactive;
    }
  }
  int c = ctl_.load();
  const char* runState = isRunning(c) ? "Running" : runStateAtLeast(c, TERMINATED) ? "Terminated" : "Shutting down";
  return std::string("[") + runState + ", pool size = " + std::to_string(nworkers) +
         ", active threads = " + std::to_string(nactive) + ", queued tasks = " + std::to_string(workQueue_->size()) +
         ", completed tasks = " + std::to_string(ncompleted) + "]";
}

}  // namespace poolscope::java
