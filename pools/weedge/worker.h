// worker.go: a Worker is one of the pool's maxWorkerNum slots, made at init
// with its own timer. A goroutine runs on a slot (safelyDo → execute) and
// takes tasks from the shared channel; each task runs on a goroutine of its
// own, raced against the slot's timer.
#pragma once

#include <atomic>
#include <cstdint>

#include "pools/core/event.h"
#include "pools/core/go/chan.h"
#include "pools/core/labels.h"
#include "pools/weedge/timer.h"

namespace poolscope::weedge {

class WorkerPool;

class Worker {
 public:
  // newWorker: the timer starts counting DefaultTimeOut now.
  explicit Worker(WorkerPool* wp);

  void safelyDo(WorkerId id);
  // C++: returns where Go calls runtime.Goexit(), with the rule of the exit.
  Label execute(WorkerId id);
  // True where Go's destroyAfterTaskDone calls runtime.Goexit().
  bool destroyAfterTaskDone();

  Timer timer;
  WorkerPool* myWorkerPool;                          // 所属任务工作池 (the pool it belongs to)
  std::atomic<std::int32_t> hasGoroutineRunning{0};  // 是否有对应的goroutine在运行 (a goroutine runs on this slot)
  go::Chan<int> chExecuteGoroutineOut{1};            // 执行任务的goroutine结束 -> worker goroutine 结束
  // Go also declares chTaskIsTimeOut, which nothing uses.
};

}  // namespace poolscope::weedge
