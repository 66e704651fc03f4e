// The pool's options (seed 001, §6 `Options`) and its handlers.
// Go sets options with functional options (WithIsBlocking(true)); C++ uses
// designated initializers: Options{.isBlocking = true, .blockMaxNum = 4}.
#pragma once

#include <exception>
#include <functional>
#include <system_error>

#include "pools/core/clock.h"
#include "pools/core/task.h"

namespace poolscope::lab03::solution {

// Called with what a task threw (Go: the value recover() returns). A Go
// panic with no handler would end the program; here the worker carries on.
using PanicHandler = std::function<void(std::exception_ptr)>;
// Decides the error Submit returns for a task the pool cannot take (Go:
// func(task) error). The task is refused either way: a nil answer counts as
// ErrPoolFull, since nothing could account for a task the handler kept.
using RejectHandler = std::function<std::error_code(const Task&)>;

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
  // Lab 03: a worker beyond coreSize that stays idle this long exits; with
  // allowCoreThreadTimeOut, core workers too (Java's rules, ThreadPoolExecutor.getTask).
  Nanos keepAliveTime = std::chrono::seconds(10);
  bool allowCoreThreadTimeOut = false;
  // logger: left out; the trace is the log.
};

}  // namespace poolscope::lab03::solution
