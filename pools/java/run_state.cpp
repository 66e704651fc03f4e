// Moving through the run states: shutdown, shutdownNow, tryTerminate,
// awaitTermination, and the interrupts that wake idle workers so they notice.
#include <algorithm>

#include "pools/java/finally.h"
#include "pools/java/labels.h"
#include "pools/java/worker.h"

namespace poolscope::java {

namespace {
Label state_label(int rs) {
  switch (rs) {
    case SHUTDOWN:
      return kShutdown;
    case STOP:
      return kStop;
    case TIDYING:
      return kTidying;
    default:
      return kTerminated;
  }
}
}  // namespace

// Moves the run state up to `targetState` (SHUTDOWN or STOP), or leaves it
// if it is already there or beyond.
void ThreadPoolExecutor::advanceRunState(int targetState) {
  for (;;) {
    int c = ctl.load();
    if (runStateAtLeast(c, targetState)) return;
    if (ctl.compare_exchange_strong(c, ctlOf(targetState, workerCountOf(c)))) break;
  }
  trace_.state(state_label(targetState));
}

// Moves to TERMINATED if (SHUTDOWN, no workers and an empty queue) or (STOP
// and no workers). If it could terminate but workers remain, interrupts one
// idle worker, so the shutdown signal travels from worker to worker. Called
// after anything that may make termination possible: fewer workers, or
// tasks removed from the queue during shutdown.
void ThreadPoolExecutor::tryTerminate() {
  for (;;) {
    int c = ctl.load();
    if (isRunning(c) || runStateAtLeast(c, TIDYING) || (runStateLessThan(c, STOP) && !workQueue->is_empty())) return;
    if (workerCountOf(c) != 0) {   // eligible to terminate
      interruptIdleWorkers(true);  // ONLY_ONE
      return;
    }

    std::lock_guard lock(mainLock);
    if (ctl.compare_exchange_strong(c, ctlOf(TIDYING, 0))) {
      trace_.state(kTidying);
      Finally done([&] {
        ctl.store(ctlOf(TERMINATED, 0));
        trace_.state(kTerminated);
        termination.notify_all();
      });
      terminated();
      return;
    }
    // else retry on failed CAS
  }
}

// Interrupts every started worker, busy ones included (shutdownNow).
void ThreadPoolExecutor::interruptWorkers() {
  for (Worker* w : workers) w->interruptIfStarted();
}

// Interrupts the workers that may be waiting for a task (those whose lock
// is free), so that they re-check the state or settings. With `onlyOne`, at
// most one (tryTerminate's way of passing the shutdown on).
void ThreadPoolExecutor::interruptIdleWorkers(bool onlyOne) {
  std::lock_guard lock(mainLock);
  for (Worker* w : workers) {
    if (!w->isInterrupted() && w->tryLock()) {
      w->interrupt();
      w->unlock();
    }
    if (onlyOne) break;
  }
}

void ThreadPoolExecutor::shutdown() {
  {
    std::lock_guard lock(mainLock);
    // checkShutdownAccess(): Java's SecurityManager check; nothing to check here.
    advanceRunState(SHUTDOWN);
    interruptIdleWorkers();
    // onShutdown(): a hook for ScheduledThreadPoolExecutor, not ported.
  }
  tryTerminate();
}

std::vector<Runnable> ThreadPoolExecutor::shutdown_now() {
  std::vector<Runnable> tasks;
  {
    std::lock_guard lock(mainLock);
    advanceRunState(STOP);
    interruptWorkers();
    tasks = drainQueue();
  }
  tryTerminate();
  return tasks;
}

// Empties the queue into the list shutdownNow returns; each task is traced
// as dropped.
// C++: Java falls back to removing tasks one by one for queues whose
// drainTo may leave some behind (a DelayQueue); these queues leave none.
std::vector<Runnable> ThreadPoolExecutor::drainQueue() {
  std::vector<Runnable> taskList = workQueue->drain_to();
  for (const Runnable& r : taskList) trace_.dropped(r.id, kShutdownNow);
  return taskList;
}

bool ThreadPoolExecutor::remove(TaskId task) {
  Runnable removed = workQueue->remove(task);
  if (removed) trace_.dropped(removed.id, kRemoved);
  tryTerminate();  // in case SHUTDOWN and now empty
  return static_cast<bool>(removed);
}

// Tries to remove from the queue every future that has been cancelled
// (each traced as dropped), so that they no longer hold queue space.
void ThreadPoolExecutor::purge() {
  std::vector<TaskId> cancelled;
  workQueue->for_each([&](const Runnable& r) {
    if (r.future && r.future->is_cancelled()) cancelled.push_back(r.id);
  });
  for (TaskId id : cancelled)
    if (Runnable r = workQueue->remove(id)) trace_.dropped(r.id, kPurged);
  tryTerminate();  // In case SHUTDOWN and now empty
}

bool ThreadPoolExecutor::is_shutdown() const { return runStateAtLeast(ctl.load(), SHUTDOWN); }

bool ThreadPoolExecutor::is_terminating() const {
  int c = ctl.load();
  return runStateAtLeast(c, SHUTDOWN) && runStateLessThan(c, TERMINATED);
}

bool ThreadPoolExecutor::is_terminated() const { return runStateAtLeast(ctl.load(), TERMINATED); }

bool ThreadPoolExecutor::await_termination(Nanos timeout) {
  Clock& clock = trace_.clock();
  Time deadline = deadline_after(clock.now(), std::max(timeout, Nanos(0)));
  std::unique_lock lock(mainLock);
  while (runStateLessThan(ctl.load(), TERMINATED)) {
    if (clock.now() >= deadline) return false;
    termination.wait_until(lock, clock, deadline);
  }
  return true;
}

void ThreadPoolExecutor::await_termination() {
  std::unique_lock lock(mainLock);
  termination.wait(lock, [&] { return runStateAtLeast(ctl.load(), TERMINATED); });
}

void ThreadPoolExecutor::close() {
  shutdown();
  await_termination();
  threads_.wait();  // C++: join every worker thread
}

}  // namespace poolscope::java
