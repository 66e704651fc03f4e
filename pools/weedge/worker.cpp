// worker.go, in its order: newWorker, safelyDo, execute, destroyAfterTaskDone.
#include "pools/weedge/worker.h"

#include <memory>

#include "pools/core/go/select.h"
#include "pools/weedge/workerpool.h"

namespace poolscope::weedge {

using namespace rules;

Worker::Worker(WorkerPool* wp) : timer(wp->trace.clock(), DefaultTimeOut, wp->go123), myWorkerPool(wp) {}

void Worker::safelyDo(WorkerId id) {
  WorkerPool& wp = *myWorkerPool;
  // defer worker.myWorkerPool.wg.Done(): the ThreadGroup's join.
  Label why = kNoLabel;
  try {
    why = execute(id);
  } catch (...) {
    // defer func() { if r := recover(); r != nil { ... } }(): the worker's
    // own goroutine panicked (a send on a closed ChIsTimeOut, a panicking
    // OnTimeOut); a task's panic stays on the task's goroutine.
    if (wp.isWorking()) {
      try {
        wp.chAddWorker.send(1);
      } catch (const go::ClosedChannel&) {  // C++: Go's second panic would end the program
      }
    }
    wp.curWorkerNum.fetch_sub(1);
    hasGoroutineRunning.exchange(0);
    why = kWorkerPanic;
  }
  wp.workerExited_(id, why);
}

Label Worker::execute(WorkerId id) {
  WorkerPool& wp = *myWorkerPool;
  for (;;) {
    Task received;
    bool ok = false;
    int out = 0;
    bool outOk = false;
    switch (go::select(go::recv(*wp.chWorkTask, received, ok), go::recv(chExecuteGoroutineOut, out, outOk))) {
      case 0:
        if (ok) {
          wp.trace.handoff(received.id_, id, kChWorkTaskRecv, true);
          // C++: shared with the task's goroutine, which may outlive this turn.
          auto task = std::make_shared<Task>(std::move(received));
          if (task->TimeOut > Nanos::zero()) timer.Reset(task->TimeOut);
          auto taskDoResCh = std::make_shared<go::Chan<bool>>(1);

          // C++: timer.never() tells the task's goroutine that, should Do
          // panic, nothing but poolscope's shutdown will end this wait.
          wp.goSafely_(id, task, taskDoResCh, timer.never());

          bool res = false, resOk = false;
          switch (go::select(timer.C(), go::recv(*taskDoResCh, res, resOk))) {
            case 0:
              timer.received();
              wp.trace.emit(EventKind::pool_state, kTaskTimeOut, id, task->id_);
              if (task->ChIsTimeOut != nullptr) task->ChIsTimeOut->send(true);
              if (task->OnTimeOut) task->OnTimeOut(task->InParam, task->OutParam);
              break;
            case 1:
              if (resOk && task->ChIsTimeOut != nullptr) task->ChIsTimeOut->send(false);
              break;
          }

          if (destroyAfterTaskDone()) return kDestroyAfterTaskDone;  // runtime.Goexit()
        } else {
          wp.close();
          return kChWorkTaskClosed;  // runtime.Goexit()
        }
        break;
      case 1:
        if (wp.isWorking() && hasGoroutineRunning.load() <= 0 && outOk) {
          // "send to add worker when ExecuteGoroutineOut"
          wp.chAddWorker.send(1);
        }
        wp.curWorkerNum.fetch_sub(1);
        return kExecuteGoroutineOut;  // runtime.Goexit()
    }
  }
}

// worker destroy after task done cond:
// 1. worker pool is working
// 2. work task ch is empty
// 3. cur worker num of pool > min worker num
// 4. (now - add worker last time) > worker life time
bool Worker::destroyAfterTaskDone() {
  WorkerPool& wp = *myWorkerPool;
  const auto chWorkTaskLen = wp.chWorkTask->len();
  if (wp.isWorking() && chWorkTaskLen <= 0 && wp.curWorkerNum.load() > wp.minWorkerNum &&
      wp.unixNow_() - wp.addWorkerLastTime.load() >= workerGoroutineLifeTime) {
    chExecuteGoroutineOut.send(1);
    return true;
  }
  return false;
}

}  // namespace poolscope::weedge
