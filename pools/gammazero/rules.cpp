#include "pools/gammazero/rules.h"

#include <string>

namespace poolscope::gammazero {

namespace {
struct Category final : std::error_category {
  const char* name() const noexcept override { return "gammazero"; }
  std::string message(int e) const override {
    return e == ErrStopped ? "submitting work to stopped workerpool" : "unknown gammazero error";
  }
};
}  // namespace

const std::error_category& error_category() {
  static const Category category;
  return category;
}

std::error_code make_error_code(Error e) { return {static_cast<int>(e), error_category()}; }

namespace rules {
const Label kReadyWorker =
    intern_label("ready-worker", "gammazero: a worker was waiting on workerQueue, so the task goes straight to it");
const Label kNewWorker =
    intern_label("new-worker", "gammazero: no worker was ready and fewer than maxWorkers run: start one for this task");
const Label kWaitingQueue =
    intern_label("waiting-queue", "gammazero: no worker was ready and maxWorkers run: the task waits in the queue");
const Label kBehindQueue = intern_label(
    "behind-waiting-queue", "gammazero: tasks already wait, so a new one goes behind them; no worker is started");
const Label kQueueHead =
    intern_label("waiting-queue-head", "gammazero: a worker became ready and gets the head of the waiting queue");
const Label kWorkerQueue = intern_label("worker-queue", "gammazero: the worker waits on workerQueue for its next task");
const Label kIdleTick = intern_label(
    "idle-tick", "gammazero: no task arrived for a whole idle timeout: stop one ready worker (at most one per tick)");
const Label kTickAfterTask =
    intern_label("tick-after-task", "gammazero: a task arrived during the last idle timeout: the tick stops nobody");
const Label kStopNil =
    intern_label("stop-nil", "gammazero: stopping, the dispatcher sends nil to each worker as it becomes ready");
const Label kAbandoned =
    intern_label("abandoned", "gammazero Stop: tasks still in the waiting queue are abandoned, never run");
const Label kErrStopped = intern_label("err-stopped", "gammazero: submitting work to stopped workerpool (ErrStopped)");
const Label kStop =
    intern_label("stop", "gammazero Stop: running tasks finish, the waiting queue is abandoned, workers exit");
const Label kStopWait = intern_label("stop-wait", "gammazero StopWait: every queued task runs, then workers exit");
const Label kPause =
    intern_label("pause", "gammazero Pause: maxWorkers pause tasks take every worker until the context is cancelled");
const Label kResume =
    intern_label("resume", "gammazero: the pause ended (context cancelled or pool stopped): its workers are free");
}  // namespace rules

}  // namespace poolscope::gammazero
