// RejectedExecutionHandler: what execute() does with a task it cannot take,
// because the pool is saturated (maximumPoolSize threads and a full queue,
// or a SynchronousQueue with no idle taker) or shut down. The four standard
// policies are ThreadPoolExecutor's nested classes in Java.
#pragma once

#include "pools/core/pool.h"
#include "pools/java/blocking_queue.h"

namespace poolscope::java {

class ThreadPoolExecutor;

class RejectedExecutionHandler {
 public:
  virtual ~RejectedExecutionHandler() = default;
  // C++: Java's returns nothing, and so does execute(): a caller cannot
  // tell a discarded task from an accepted one. This one returns what became
  // of `r`, so that execute() can say it to the Pool adapter.
  virtual SubmitResult rejected_execution(Runnable& r, ThreadPoolExecutor& e) = 0;
};

// The default: throws RejectedExecutionException ("Task N rejected from ...").
class AbortPolicy final : public RejectedExecutionHandler {
 public:
  SubmitResult rejected_execution(Runnable& r, ThreadPoolExecutor& e) override;
};

// Runs the task in the submitting thread (natural back-pressure: that thread
// submits nothing meanwhile), unless the executor is shut down: then the task
// is discarded.
class CallerRunsPolicy final : public RejectedExecutionHandler {
 public:
  SubmitResult rejected_execution(Runnable& r, ThreadPoolExecutor& e) override;
};

// Silently discards the task.
class DiscardPolicy final : public RejectedExecutionHandler {
 public:
  SubmitResult rejected_execution(Runnable& r, ThreadPoolExecutor& e) override;
};

// Drops the oldest queued task (if any) and retries execute(), unless the
// executor is shut down: then the task is discarded. With a SynchronousQueue,
// which never holds a task to drop, the task is discarded (nothing-to-discard)
// instead of retrying as Java does.
class DiscardOldestPolicy final : public RejectedExecutionHandler {
 public:
  SubmitResult rejected_execution(Runnable& r, ThreadPoolExecutor& e) override;
};

}  // namespace poolscope::java
