// The rules lab 01's trace names, with nginx's own words where it has them.
#pragma once

#include "pools/core/labels.h"

namespace poolscope::lab01 {

inline const Label kThreadPoolInit =
    intern_label("thread-pool-init", "nginx: every thread of the pool starts with it (thread_pool threads=N)");
inline const Label kTaskQueue =
    intern_label("task-queue", "nginx: the pool's one FIFO queue; threads wait on its condition for a task");
inline const Label kQueueOverflow = intern_label(
    "queue-overflow", "nginx: thread pool queue overflow: max_queue tasks waiting (idle threads count against it)");
inline const Label kExitTask =
    intern_label("exit-task", "nginx: destroy posts one exit task per thread, behind every queued task");
inline const Label kShutdownNow = intern_label("shutdown-now", "shutdown(now): the tasks still queued are dropped");

}  // namespace poolscope::lab01
