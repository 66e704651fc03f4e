// The pool's options (seed 001, §6 `Options`), its errors and its rules.
// Go sets options with functional options (WithIsBlocking(true)); C++ uses
// designated initializers: Options{.isBlocking = true, .blockMaxNum = 4}.
#pragma once

#include <exception>
#include <functional>

#include "pools/core/pool_trace.h"

namespace poolscope::lab03 {

// Go's error values become labels, the same code the trace carries
// (kNoLabel is nil).
using Error = Label;
inline const Error ErrPoolClosed = rules::pool_closed();  // "pool is closed"
inline const Error ErrPoolFull = intern_label(
    "pool-full", "pool is full: the task queue is full and maxSize workers run (coremax's default reject handler)");

// Called with what a task threw (Go: the value recover() returns). A Go
// panic with no handler would end the program; here the worker carries on.
using PanicHandler = std::function<void(std::exception_ptr)>;
// Decides the error Submit returns for a task the pool cannot take (Go:
// func(task) error). The task is refused either way: a nil answer counts as
// ErrPoolFull, since nothing could account for a task the handler kept.
using RejectHandler = std::function<Error(const Task&)>;

struct Options {
  bool isPreAllocation = false;  // create allocationNum workers in NewPool
  int allocationNum = 0;
  PanicHandler panicHandler;
  RejectHandler rejectHandler;  // default: ErrPoolFull
  // When no worker can be created and the task queue is full, wait for an
  // idle worker instead of rejecting, unless blockMaxNum submitters already
  // wait (0: no limit).
  bool isBlocking = false;
  int blockMaxNum = 0;
  // lab 03 {
  // TODO(step 2): a worker beyond coreSize that stays idle this long
  // exits. TODO(step 3): with allowCoreThreadTimeOut, core workers too.
  Nanos keepAliveTime = std::chrono::seconds(10);
  bool allowCoreThreadTimeOut = false;
  // } lab 03
  // logger: left out; the trace is the log.
};

// The rules the trace names.
inline const Label kBelowCore = intern_label(
    "below-core", "Submit: no idle worker and fewer than coreSize workers, so a new worker starts for the task");
inline const Label kTaskQueueFull =
    intern_label("task-queue-full",
                 "Submit: the task queue is full and no worker is idle, so a worker beyond core starts, up to "
                 "maxSize");
inline const Label kPreAllocation =
    intern_label("pre-allocation", "NewPool with isPreAllocation: workers start idle before any task");
inline const Label kNewWorker = intern_label("get-worker-new", "getWorker: the task is a new worker's first");
inline const Label kWorkersQueue = intern_label(
    "workers-queue", "workers: the FIFO queue of idle workers, each blocked on its own chan, with no idle time limit");
inline const Label kTaskQueue = intern_label("task-queue", "taskQueue: the bounded ring of tasks waiting for a worker");
inline const Label kPoolClose = intern_label(
    "pool-close", "Close: the only way a worker ends (the seed gives workers no idle time-out: its admitted flaw)");
inline const Label kClose = intern_label("close", "Close: no new tasks; idle workers stop, busy ones finish the queue");
inline const Label kCloseNow =
    intern_label("close-now", "CloseNow: the queued tasks are dropped and the pool closes, in one step");
// C++: the seed strands these tasks (see Pool::close).
inline const Label kCloseNoWorker =
    intern_label("close-no-worker",
                 "Close: tasks queued while no worker was alive (coreSize 0, below a full queue) would wait for "
                 "ever, so they are dropped");

}  // namespace poolscope::lab03
