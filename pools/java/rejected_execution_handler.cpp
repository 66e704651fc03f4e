#include "pools/java/rejected_execution_handler.h"

#include "pools/java/labels.h"
#include "pools/java/thread_pool_executor.h"

namespace poolscope::java {

SubmitResult AbortPolicy::rejected_execution(Runnable& r, ThreadPoolExecutor& e) {
  e.trace().refused(r.id, kRejected);
  throw RejectedExecutionException("Task " + std::to_string(r.id) + " rejected from " + e.to_string());
}

SubmitResult CallerRunsPolicy::rejected_execution(Runnable& r, ThreadPoolExecutor& e) {
  if (e.is_shutdown()) {
    e.trace().refused(r.id, kDiscardedAtShutdown);
    return SubmitResult::refuse(kDiscardedAtShutdown);
  }
  // Worker 0 is the submitting thread: the trace does not count it as busy.
  e.trace().handoff(r.id, 0, kCallerRuns);
  if (std::exception_ptr thrown = run_traced(e.trace(), 0, r))
    std::rethrow_exception(thrown);  // out of execute, as in Java
  return SubmitResult::accept();
}

SubmitResult DiscardPolicy::rejected_execution(Runnable& r, ThreadPoolExecutor& e) {
  e.trace().refused(r.id, kDiscard);
  return SubmitResult::refuse(kDiscard);
}

SubmitResult DiscardOldestPolicy::rejected_execution(Runnable& r, ThreadPoolExecutor& e) {
  if (e.is_shutdown()) {
    e.trace().refused(r.id, kDiscardedAtShutdown);
    return SubmitResult::refuse(kDiscardedAtShutdown);
  }
  if (Runnable oldest = e.get_queue().poll()) {
    e.trace().dropped(oldest.id, kDiscardOldest);
  } else if (!e.get_queue().holds_tasks()) {
    // Java retries anyway, and with nothing ever to drop (a SynchronousQueue)
    // recurses until a worker frees up or the stack overflows.
    e.trace().refused(r.id, kNothingToDiscard);
    return SubmitResult::refuse(kNothingToDiscard);
  }
  // An empty queue that can hold tasks was emptied by a worker since the
  // failed offer: the retry finds room, as in Java.
  return e.execute(std::move(r));
}

}  // namespace poolscope::java
