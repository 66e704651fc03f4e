#include "pools/weedge/rules.h"

#include <string>

#include "pools/weedge/define.h"

namespace poolscope::weedge {

namespace {
struct Category final : std::error_category {
  const char* name() const noexcept override { return "weedge"; }
  std::string message(int e) const override {
    switch (e) {
      case ErrTimeout:
        return "received timeout";
      case ErrInterrupt:
        return "receive interrupt";
      default:
        return "unknown weedge error";
    }
  }
};
}  // namespace

const std::error_category& error_category() {
  static const Category category;
  return category;
}

std::error_code make_error_code(Error e) { return {static_cast<int>(e), error_category()}; }

namespace rules {
const Label kChWorkTask =
    intern_label("ch-work-task",
                 "weedge AddTask: the task goes into chWorkTask, the one buffered channel every worker reads; a "
                 "full channel blocks the caller");
const Label kNotRunning =
    intern_label("not-running-stat",
                 "weedge AddTask: \"this worker pool is not a running stat! the stat is %d\" (logged; the "
                 "task is dropped silently in Go)");
const Label kTaskNil =
    intern_label("task-nil",
                 "weedge AddTask: \"add task Do func is nil\" (or its task, inParam, outParam is nil): logged, "
                 "dropped silently in Go");
const Label kRunMin = intern_label("run-min", "weedge Run: the first minWorkerNum slots get a worker goroutine");
const Label kWatchAddWorker =
    intern_label("watch-add-worker",
                 "weedge watchAddWorker: a growth token came (the channel held more than 1 and more than "
                 "minWorkerNum/2 tasks) and the slot at indexWorkers was free: \"create a new worker, current "
                 "worker number is : %d\"");
const Label kSlotRunning =
    intern_label("slot-running",
                 "weedge watchAddWorker: a growth token came but the slot at indexWorkers still counts as "
                 "running, and the index never moves past it: no worker starts");
const Label kChWorkTaskRecv =
    intern_label("ch-work-task-recv",
                 "weedge worker: received the task from chWorkTask; Do runs on a goroutine of "
                 "its own, raced against the worker's timer");
const Label kTaskTimeOut =
    intern_label("task-timeout",
                 "weedge worker: the worker's timer fired first (timeout from pickup, or a stale tick): "
                 "ChIsTimeOut <- true, OnTimeOut; the task runs on, detached, and the worker moves on");
const Label kNoResult =
    intern_label("no-result",
                 "weedge worker: Do panicked (GoSafely recovered it and sent no result) and the worker's timer "
                 "will never fire (no TimeOut, the 30 s from init spent): the worker waits for ever, still "
                 "counted; Stop would wait for it for ever (poolscope's shutdown releases it)");
const Label kDestroyAfterTaskDone = intern_label(
    "destroy-after-task-done",
    "weedge destroyAfterTaskDone: the channel is empty, more than minWorkerNum are counted and 30 s passed since "
    "the last growth: \"exit more worker goroutine, the current goroutine number: %d\". curWorkerNum is not "
    "lowered and the slot stays marked running");
const Label kChWorkTaskClosed =
    intern_label("ch-work-task-closed",
                 "weedge worker: \"close chWorkTask, myWorkerPool close and exit worker goroutine, the "
                 "current goroutine number: %d\"");
const Label kExecuteGoroutineOut =
    intern_label("execute-goroutine-out",
                 "weedge worker: \" exit this execute worker goroutine, the current goroutine number: "
                 "%d\" (close() closed chExecuteGoroutineOut)");
const Label kWorkerPanic =
    intern_label("worker-panic",
                 "weedge safelyDo: \"check timeout worker goroutine is crash, panic\": the slot is freed and a "
                 "growth token sent");
const Label kStoping = intern_label("Stoping",
                                    "weedge Stop: state Stoping; \"stop worker pool, stop to close chWorkTask -> close "
                                    "worker pool\": buffered tasks still run");
const Label kStop = intern_label("Stop",
                                 "weedge close(): state Stop; every slot's chExecuteGoroutineOut and "
                                 "chAddWorker closed, so the idle workers and the watcher exit");
const Label kStopWouldHang =
    intern_label("stop-would-hang",
                 "weedge: no worker goroutine is left to drain chWorkTask and call close(), or one waits for "
                 "ever for a panicked task's result (no-result): Go's Stop would wait forever in wg.Wait(); "
                 "poolscope stops the pool itself");
const Label kNoLiveWorker =
    intern_label("no-live-worker",
                 "weedge: the task was stranded in chWorkTask with no worker goroutine alive (every one exited "
                 "by destroyAfterTaskDone)");
const Label kShutdownNow = intern_label("shutdown-now",
                                        "poolscope shutdown-now (weedge's Stop runs the buffer): the tasks still in "
                                        "chWorkTask are dropped");
const Label kSendOnClosed =
    intern_label("send-on-closed-channel",
                 "weedge AddTask: the pool stopped while the caller was blocked on the full channel "
                 "(Go panics: send on closed channel)");
}  // namespace rules

}  // namespace poolscope::weedge
