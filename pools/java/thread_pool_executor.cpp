// Index (the life of a task and its worker):
//   execute            the three steps: a core thread, else the queue, else a
//                      non-core thread, else reject
//   reject, remove
//   addWorker          count the worker in ctl (retry loop), make it, start its thread
//   addWorkerFailed    roll back a worker that could not start
//   runWorker          its loop: the first task, then getTask until null
//   getTask            take from the queue, timed when culling applies; null = exit
//   processWorkerExit  uncount, tryTerminate, replace it if needed
//
//   execute -> addWorker -> Worker thread -> runWorker -> getTask ... -> processWorkerExit
// The life of a task and its worker, in that order (not Java's file order):
// execute, addWorker, runWorker, getTask, processWorkerExit. Shutdown and
// termination are in run_state.cpp, the settings and statistics in
// settings.cpp, submit/invokeAll/invokeAny in submit.h.
#include "pools/java/thread_pool_executor.h"

#include <system_error>

#include "pools/java/finally.h"
#include "pools/java/labels.h"
#include "pools/java/worker.h"

namespace poolscope::java {

bool ThreadPoolExecutor::ById::operator()(const Worker* a, const Worker* b) const { return a->id < b->id; }

ThreadPoolExecutor::ThreadPoolExecutor(int corePoolSize, int maximumPoolSize, Nanos keepAliveTime,
                                       std::unique_ptr<BlockingQueue> workQueue,
                                       std::shared_ptr<ThreadFactory> threadFactory,
                                       std::shared_ptr<RejectedExecutionHandler> handler, const TraceTarget& target)
    : trace_(target, "java"),
      workQueue(std::move(workQueue)),
      threadFactory(std::move(threadFactory)),
      handler(std::move(handler)),
      keepAliveTime(keepAliveTime.count()),
      corePoolSize(corePoolSize),
      maximumPoolSize(maximumPoolSize) {
  if (corePoolSize < 0 || maximumPoolSize <= 0 || maximumPoolSize < corePoolSize || keepAliveTime < Nanos(0))
    throw IllegalArgumentException();
  if (!this->workQueue || !this->threadFactory.load() || !this->handler.load()) throw NullPointerException();
  this->workQueue->bind(trace_);
}

ThreadPoolExecutor::~ThreadPoolExecutor() { close(); }

void ThreadPoolExecutor::before_execute(WorkerId, const Runnable&) {}
void ThreadPoolExecutor::after_execute(const Runnable&, std::exception_ptr) {}
void ThreadPoolExecutor::terminated() {}

SubmitResult ThreadPoolExecutor::execute(Task command, int priority) {
  if (!command) throw NullPointerException();
  return execute(Runnable{{trace_.submitted(), std::move(command)}, priority});
}

SubmitResult ThreadPoolExecutor::execute(Runnable command) {
  if (!command) throw NullPointerException();
  // Proceed in 3 steps:
  // 1. Fewer than corePoolSize threads: start a new one with this task as its
  //    first. addWorker re-checks the run state and count atomically.
  // 2. Queue the task, then re-check: if the pool shut down meanwhile, take
  //    the task back and reject it; if no thread is left, start one.
  // 3. The queue refused it: start a non-core thread; failing that, the pool
  //    is shut down or saturated, so reject the task.
  int c = ctl.load();
  if (workerCountOf(c) < corePoolSize) {
    if (addWorker(command, true)) return SubmitResult::accept();
    c = ctl.load();
  }
  if (isRunning(c) && workQueue->offer(command)) {
    int recheck = ctl.load();
    if (!isRunning(recheck) && remove(command))
      return reject(command);
    else if (workerCountOf(recheck) == 0)
      addWorker(null(kNoWorkerRecheck), false);
    return SubmitResult::accept();
  }
  if (!addWorker(command, false)) return reject(command);
  return SubmitResult::accept();
}

SubmitResult ThreadPoolExecutor::reject(Runnable& command) {
  return handler.load()->rejected_execution(command, *this);
}

bool ThreadPoolExecutor::remove(Runnable& command) {
  command = workQueue->remove(command.id);
  tryTerminate();  // in case SHUTDOWN and now empty
  if (!command) return false;
  trace_.handoff(command.id, 0, kRecheckRemoved, true);  // back to the caller, to be rejected
  return true;
}

// Checks whether a worker may be added under the current run state and
// bound (core or maximum); if so, counts it, creates and starts it with
// `firstTask` (empty: Java's null) as its first task. False if the pool is
// stopped or shutting down with nothing queued, if the bound is reached, or
// if the thread factory gave no thread. The task moves into the worker only
// on success.
bool ThreadPoolExecutor::addWorker(Runnable& firstTask, bool core) {
  // C++: the rule the trace names for the new worker.
  const Label why = firstTask ? (core ? kCoreWorker : kQueueFullGrow) : firstTask.why;
  // Java's labelled loops: `continue retry` re-reads the run state,
  // `break retry` leaves with the count incremented.
  bool counted = [&] {
    for (int c = ctl.load();;) {  // retry:
      // Check if queue empty only if necessary.
      if (runStateAtLeast(c, SHUTDOWN) && (runStateAtLeast(c, STOP) || firstTask || workQueue->is_empty()))
        return false;
      for (;;) {
        if (workerCountOf(c) >= ((core ? corePoolSize : maximumPoolSize) & COUNT_MASK)) return false;
        if (compareAndIncrementWorkerCount(c)) return true;  // break retry
        c = ctl.load();                                      // re-read ctl
        if (runStateAtLeast(c, SHUTDOWN)) break;             // continue retry
        // else the CAS failed because the count changed: retry the inner loop
      }
    }
  }();
  if (!counted) return false;

  bool workerStarted = false;
  bool workerAdded = false;
  Worker* w = nullptr;
  // C++: Java's garbage collector keeps a Worker while anything refers to
  // it; here addWorker and the worker's thread each hold it.
  std::shared_ptr<Worker> made;
  Finally backOut([&] {
    if (!workerStarted) addWorkerFailed(w);
  });
  made = std::make_shared<Worker>(*this, trace_.new_worker_id());  // throws what the factory throws
  w = made.get();
  if (w->thread && !launch(made)) w->thread.reset();  // C++: the OS refused: as if the factory had
  if (w->thread) {
    {
      std::lock_guard lock(mainLock);
      // Recheck while holding the lock: back out if shut down meanwhile.
      int c = ctl.load();
      if (isRunning(c) || (runStateLessThan(c, STOP) && !firstTask)) {
        workers.insert(w);
        workerAdded = true;
        largestPoolSize = std::max(largestPoolSize, static_cast<int>(workers.size()));
        trace_.spawned(w->id, why);
        if (firstTask) {
          w->firstTask = std::move(firstTask);
          trace_.handoff(w->firstTask.id, w->id, kFirstTask);
        }
      }
    }
    if (workerAdded) {
      w->start();
      workerStarted = true;
    }
  }
  return workerStarted;
}

// C++: runs the factory's thread in threads_ (the ended threads joined
// first), holding the Worker until its body returns. False if the OS refuses
// a thread (Java's start() would throw OutOfMemoryError inside addWorker).
bool ThreadPoolExecutor::launch(std::shared_ptr<Worker> w) {
  std::move_only_function<void()> run = std::move(w->thread->run);
  std::string name = w->thread->name;
  try {
    threads_.go(std::move(name), [run = std::move(run), keep = std::move(w)]() mutable { run(); });
  } catch (const std::system_error&) {
    return false;
  }
  return true;
}

// Rolls back the worker's creation: out of `workers`, the count back down,
// and a termination check in case this worker was holding it up.
void ThreadPoolExecutor::addWorkerFailed(Worker* w) {
  std::lock_guard lock(mainLock);
  if (w) {
    workers.erase(w);
    if (w->thread) w->abandon();  // C++: end the thread that never ran the worker
  }
  decrementWorkerCount();
  tryTerminate();
}

// The worker loop: runs the first task, then whatever getTask() returns,
// until it returns null (the worker must exit) or a task throws (the worker
// dies; processWorkerExit replaces it). The worker's lock is held around
// each task, so interrupts meant for idle workers do not reach busy ones.
void ThreadPoolExecutor::runWorker(Worker& w) {
  set_current_interrupt(&w.interruptStatus);  // C++: Thread.currentThread() is the worker's thread
  Runnable task = std::move(w.firstTask);
  w.unlock();  // allow interrupts
  bool completedAbruptly = true;
  try {
    while (task || (task = getTask(w))) {
      w.lock();
      // If the pool is stopping, make sure the thread is interrupted; if not,
      // make sure it is not (re-checking STOP: shutdownNow may race with the
      // clearing).
      if ((runStateAtLeast(ctl.load(), STOP) || (w.interrupted() && runStateAtLeast(ctl.load(), STOP))) &&
          !w.isInterrupted())
        w.interrupt();
      Finally done([&] {
        task = {};
        w.completedTasks.store(w.completedTasks.load() + 1);
        w.unlock();
      });
      try {
        before_execute(w.id, task);
      } catch (...) {
        trace_.dropped(task.id, kBeforeExecuteThrew, false);
        throw;
      }
      try {
        if (std::exception_ptr thrown = run_traced(trace_, w.id, task)) std::rethrow_exception(thrown);
        after_execute(task, nullptr);
      } catch (...) {
        after_execute(task, std::current_exception());
        throw;
      }
    }
    completedAbruptly = false;
  } catch (...) {
    // The task's exception: Java hands it to the thread's
    // UncaughtExceptionHandler after the exit below; the trace has it.
  }
  processWorkerExit(w, completedAbruptly);
}

// C++: getTask's trace bookkeeping (this and the three helpers after
// getTask), kept out of its body so that the body reads as Java's. IdleWait
// remembers when the worker first went idle (for the reaped event's idle
// time) and records each wait.
struct ThreadPoolExecutor::IdleWait {
  Time since{-1};
  // Records worker_idle and returns the poll deadline, computed from a time
  // read before the event, which a test may wait for before it advances the
  // clock.
  Time begin(ThreadPoolExecutor& pool, Worker& w, bool timed) {
    Time now = pool.trace_.clock().now();
    if (since < Time(0)) since = now;
    pool.trace_.idle(w.id, timed ? kPoll : kTake);
    return deadline_after(now, pool.get_keep_alive_time());
  }
};

// Waits for a task: timed (keepAliveTime) if this worker may be culled,
// i.e. allowCoreThreadTimeOut or more than corePoolSize workers; untimed
// otherwise. Returns null when the worker must exit (the count already
// decremented): more than maximumPoolSize workers; STOP; SHUTDOWN with an
// empty queue; or it timed out while culling applies, unless it is the last
// worker and tasks are queued.
Runnable ThreadPoolExecutor::getTask(Worker& w) {
  bool timedOut = false;  // Did the last poll() time out?
  IdleWait idle;          // C++: for the trace

  for (;;) {
    int c = ctl.load();

    // Check if queue empty only if necessary.
    if (runStateAtLeast(c, SHUTDOWN) && (runStateAtLeast(c, STOP) || workQueue->is_empty())) {
      decrementWorkerCount();
      return workerExits(w, runStateAtLeast(c, STOP) ? kStopped : kShutdownDrained);
    }

    int wc = workerCountOf(c);

    // Are workers subject to culling?
    bool timed = allowCoreThreadTimeOut || wc > corePoolSize;

    if ((wc > maximumPoolSize || (timed && timedOut)) && (wc > 1 || workQueue->is_empty())) {
      if (compareAndDecrementWorkerCount(c)) return workerCulled(w, wc, idle);
      continue;
    }

    try {
      Time deadline = idle.begin(*this, w, timed);  // C++: traced idle; the deadline from before that event
      Runnable r = timed ? workQueue->poll(deadline, w.interruptStatus) : workQueue->take(w.interruptStatus);
      if (r) return tookTask(w, std::move(r), timed ? kPoll : kTake);
      timedOut = true;
    } catch (const InterruptedException&) {
      timedOut = false;
    }
  }
}

// getTask returns null because the pool is stopping or drained.
Runnable ThreadPoolExecutor::workerExits(Worker& w, Label why) {
  w.exitRule = why;
  return {};
}

// getTask returns null because the worker is culled (the count already
// decremented); `wc` is the count it saw, which says why.
Runnable ThreadPoolExecutor::workerCulled(Worker& w, int wc, const IdleWait& idle) {
  Label why = wc > maximumPoolSize ? kOverMaximum : wc > corePoolSize ? kKeepAlive : kCoreTimeOut;
  w.exitRule = why;
  trace_.reaped(w.id, why, idle.since < Time(0) ? Nanos(0) : trace_.clock().now() - idle.since);
  return {};
}

// getTask hands the worker a task from the queue.
Runnable ThreadPoolExecutor::tookTask(Worker& w, Runnable r, Label how) {
  trace_.handoff(r.id, w.id, how, workQueue->holds_tasks());
  return r;
}

// Cleans up after a dying worker (on its own thread): counts its tasks,
// removes it, checks for termination, and replaces it if it died of an
// exception, or if fewer workers than the minimum remain (corePoolSize, or
// 0 with core time-out, but 1 while tasks are queued).
void ThreadPoolExecutor::processWorkerExit(Worker& w, bool completedAbruptly) {
  if (completedAbruptly) decrementWorkerCount();  // if abrupt, getTask did not adjust the count

  {
    std::lock_guard lock(mainLock);
    completedTaskCount += w.completedTasks.load();
    workers.erase(&w);
    trace_.exited(w.id, completedAbruptly ? kTaskThrew : w.exitRule);
  }

  tryTerminate();

  int c = ctl.load();
  if (runStateLessThan(c, STOP)) {
    if (!completedAbruptly) {
      int min = allowCoreThreadTimeOut ? 0 : corePoolSize.load();
      if (min == 0 && !workQueue->is_empty()) min = 1;
      if (workerCountOf(c) >= min) return;  // replacement not needed
    }
    addWorker(null(completedAbruptly ? kReplaceAfterThrow : kReplaceBelowMin), false);
  }
}

}  // namespace poolscope::java
