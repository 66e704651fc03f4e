// The rules ThreadPoolExecutor's trace events name: why a worker started or
// ended, how a task reached a worker or left the queue, which state the pool
// entered, which setting changed. Interned once; the GUI shows the text.
#pragma once

#include "pools/core/labels.h"

namespace poolscope::java {

// Why a task was refused (task_refused), by the rejection policies.
inline const Label kRejected =
    intern_label("rejected", "AbortPolicy: saturated or shut down, execute throws RejectedExecutionException");
inline const Label kDiscard = intern_label("discard", "DiscardPolicy: the saturated pool silently discards the task");
inline const Label kDiscardedAtShutdown = intern_label(
    "discarded-at-shutdown", "CallerRuns/DiscardOldest policy: the executor is shut down, so the task is discarded");
inline const Label kNothingToDiscard =
    intern_label("nothing-to-discard",
                 "DiscardOldestPolicy: a SynchronousQueue never holds a task to drop, so the task itself is "
                 "discarded");

// Why a worker started (worker_spawned).
inline const Label kCoreWorker =
    intern_label("core-worker",
                 "execute step 1: fewer than corePoolSize threads, so a new one starts for the task, even if others "
                 "are idle");
inline const Label kQueueFullGrow =
    intern_label("queue-full-grow",
                 "execute step 3: the queue refused the task (full, or no idle taker at a SynchronousQueue), so "
                 "a thread beyond core starts, up to maximumPoolSize");
inline const Label kNoWorkerRecheck =
    intern_label("no-worker-recheck",
                 "execute step 2: the task was queued but no thread is left (core 0, or all died), so one "
                 "starts");
inline const Label kPrestart =
    intern_label("prestart", "prestartCoreThread/prestartAllCoreThreads: a core thread starts before any task");
inline const Label kCoreSizeGrew =
    intern_label("core-size-grew", "setCorePoolSize raised the core size: threads start for the queued tasks");
inline const Label kReplaceAfterThrow = intern_label(
    "replace-after-throw", "processWorkerExit: a thread died because its task threw; a new one replaces it");
inline const Label kReplaceBelowMin =
    intern_label("replace-below-min",
                 "processWorkerExit: a thread left and fewer than the minimum remain (core, or 1 while tasks "
                 "wait)");

// How a task reached a worker (task_handoff), or the caller (worker 0).
inline const Label kCallerRuns =
    intern_label("caller-runs", "CallerRunsPolicy: the saturated pool makes the submitting thread run the task itself");
inline const Label kFirstTask =
    intern_label("first-task", "addWorker: the task is the new thread's first task and bypasses the queue");
inline const Label kTake =
    intern_label("queue-take", "getTask: workQueue.take(), an untimed wait (a core thread, no core time-out)");
inline const Label kPoll = intern_label(
    "queue-poll", "getTask: workQueue.poll(keepAliveTime), a timed wait that ends the thread if nothing comes");
inline const Label kRecheckRemoved =
    intern_label("recheck-removed",
                 "execute step 2 re-check: the pool shut down meanwhile, so the task comes back out of the queue "
                 "and is rejected");

// Why a worker ended (worker_reaped, worker_exited).
inline const Label kKeepAlive = intern_label(
    "keep-alive", "getTask: more than corePoolSize threads, and this one waited keepAliveTime for nothing");
inline const Label kCoreTimeOut =
    intern_label("core-time-out", "getTask: allowCoreThreadTimeOut, and this thread waited keepAliveTime for nothing");
inline const Label kOverMaximum =
    intern_label("over-maximum", "getTask: more threads than maximumPoolSize (it was lowered), so this one exits");
inline const Label kShutdownDrained =
    intern_label("shutdown-drained", "getTask: SHUTDOWN and the queue is empty, so the thread exits");
inline const Label kStopped = intern_label("stopped", "getTask: STOP (shutdownNow), so the thread exits at once");
inline const Label kTaskThrew =
    intern_label("task-threw", "runWorker: the task (or a hook) threw, so the thread dies (completedAbruptly)");

// Why an accepted task never ran (task_dropped).
inline const Label kDiscardOldest =
    intern_label("discard-oldest", "DiscardOldestPolicy: the oldest queued task is dropped to make room");
inline const Label kShutdownNow =
    intern_label("shutdown-now", "shutdownNow: drained from the queue and returned to the caller, never run");
inline const Label kRemoved = intern_label("removed", "ThreadPoolExecutor.remove: taken out of the queue unrun");
inline const Label kPurged =
    intern_label("purged", "ThreadPoolExecutor.purge: a cancelled future taken out of the queue unrun");
inline const Label kBeforeExecuteThrew =
    intern_label("before-execute-threw", "runWorker: beforeExecute threw, so the task never ran");

// Run states (pool_state).
inline const Label kShutdown = intern_label("SHUTDOWN", "shutdown(): no new tasks; the queued ones still run");
inline const Label kStop =
    intern_label("STOP", "shutdownNow(): no new tasks, queued ones dropped, workers interrupted");
inline const Label kTidying = intern_label("TIDYING", "no workers and an empty queue: terminated() runs");
inline const Label kTerminated = intern_label("TERMINATED", "terminated() has returned");

// Settings (param_tuned).
inline const Label kCorePoolSize = intern_label("corePoolSize", "setCorePoolSize");
inline const Label kMaximumPoolSize = intern_label("maximumPoolSize", "setMaximumPoolSize");
inline const Label kKeepAliveTime = intern_label("keepAliveTime", "setKeepAliveTime (ns)");
inline const Label kAllowCoreThreadTimeOut = intern_label("allowCoreThreadTimeOut", "allowCoreThreadTimeOut");
inline const Label kHandler = intern_label("handler", "setRejectedExecutionHandler");

}  // namespace poolscope::java
