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
  if (corePoolSize < 0 || maximumPoolSize < corePoolSize) throw IllegalArgumentException();
  int delta = corePoolSize - this->corePoolSize;
  this->corePoolSize = corePoolSize;
  trace_.tuned(kCorePoolSize, corePoolSize);
  if (workerCountOf(ctl.load()) > corePoolSize) {
    interruptIdleWorkers();
  } else if (delta > 0) {
    // We don't really know how many new threads are "needed": prestart
    // enough for the queued tasks, stopping if the queue empties meanwhile.
    auto k = std::min(static_cast<std::size_t>(delta), workQueue->size());
    while (k-- > 0 && addWorker(null(kCoreSizeGrew), true))
      if (workQueue->is_empty()) break;
  }
}

bool ThreadPoolExecutor::prestart_core_thread() {
  return workerCountOf(ctl.load()) < corePoolSize && addWorker(null(kPrestart), true);
}

int ThreadPoolExecutor::prestart_all_core_threads() {
  int n = 0;
  while (addWorker(null(kPrestart), true)) ++n;
  return n;
}

void ThreadPoolExecutor::allow_core_thread_time_out(bool value) {
  if (value && keepAliveTime <= 0) throw IllegalArgumentException(kNonzeroKeepAlive);
  if (value != allowCoreThreadTimeOut) {
    allowCoreThreadTimeOut = value;
    trace_.tuned(kAllowCoreThreadTimeOut, value);
    if (value) interruptIdleWorkers();
  }
}

// Lower: the excess workers exit when next idle.
void ThreadPoolExecutor::set_maximum_pool_size(int maximumPoolSize) {
  if (maximumPoolSize <= 0 || maximumPoolSize < corePoolSize) throw IllegalArgumentException();
  this->maximumPoolSize = maximumPoolSize;
  trace_.tuned(kMaximumPoolSize, maximumPoolSize);
  if (workerCountOf(ctl.load()) > maximumPoolSize) interruptIdleWorkers();
}

// Shorter: idle workers wake and wait again with the new time.
void ThreadPoolExecutor::set_keep_alive_time(Nanos time) {
  if (time < Nanos(0)) throw IllegalArgumentException();
  if (time == Nanos(0) && allows_core_thread_time_out()) throw IllegalArgumentException(kNonzeroKeepAlive);
  std::int64_t delta = time.count() - keepAliveTime;
  keepAliveTime = time.count();
  trace_.tuned(kKeepAliveTime, time.count());
  if (delta < 0) interruptIdleWorkers();
}

void ThreadPoolExecutor::set_thread_factory(std::shared_ptr<ThreadFactory> threadFactory) {
  if (!threadFactory) throw NullPointerException();
  this->threadFactory.store(std::move(threadFactory));
}

void ThreadPoolExecutor::set_rejected_execution_handler(std::shared_ptr<RejectedExecutionHandler> handler) {
  if (!handler) throw NullPointerException();
  this->handler.store(std::move(handler));
  trace_.tuned(kHandler, 0);
}

int ThreadPoolExecutor::get_pool_size() const {
  std::lock_guard lock(mainLock);
  // Remove the rare and surprising possibility of isTerminated() && getPoolSize() > 0.
  return runStateAtLeast(ctl.load(), TIDYING) ? 0 : static_cast<int>(workers.size());
}

int ThreadPoolExecutor::get_active_count() const {
  std::lock_guard lock(mainLock);
  int n = 0;
  for (const Worker* w : workers)
    if (w->isLocked()) ++n;
  return n;
}

int ThreadPoolExecutor::get_largest_pool_size() const {
  std::lock_guard lock(mainLock);
  return largestPoolSize;
}

std::int64_t ThreadPoolExecutor::get_task_count() const {
  std::lock_guard lock(mainLock);
  std::int64_t n = completedTaskCount;
  for (const Worker* w : workers) {
    n += w->completedTasks.load();
    if (w->isLocked()) ++n;
  }
  return n + static_cast<std::int64_t>(workQueue->size());
}

std::int64_t ThreadPoolExecutor::get_completed_task_count() const {
  std::lock_guard lock(mainLock);
  std::int64_t n = completedTaskCount;
  for (const Worker* w : workers) n += w->completedTasks.load();
  return n;
}

std::string ThreadPoolExecutor::to_string() const {
  std::int64_t ncompleted;
  int nworkers, nactive = 0;
  {
    std::lock_guard lock(mainLock);
    ncompleted = completedTaskCount;
    nworkers = static_cast<int>(workers.size());
    for (const Worker* w : workers) {
      ncompleted += w->completedTasks.load();
      if (w->isLocked()) ++nactive;
    }
  }
  int c = ctl.load();
  const char* runState = isRunning(c) ? "Running" : runStateAtLeast(c, TERMINATED) ? "Terminated" : "Shutting down";
  return std::string("[") + runState + ", pool size = " + std::to_string(nworkers) +
         ", active threads = " + std::to_string(nactive) + ", queued tasks = " + std::to_string(workQueue->size()) +
         ", completed tasks = " + std::to_string(ncompleted) + "]";
}

}  // namespace poolscope::java
