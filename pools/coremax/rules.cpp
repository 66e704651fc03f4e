#include "pools/coremax/rules.h"

#include <string>

#include "pools/core/pool_trace.h"

namespace poolscope::coremax {

namespace {
struct Category final : std::error_category {
  const char* name() const noexcept override { return "coremax"; }
  std::string message(int e) const override {
    switch (static_cast<Error>(e)) {
      case ErrPoolClosed:
        return "pool is closed";
      case ErrPoolFull:
        return "pool is full";
    }
    return "unknown coremax error";
  }
};
}  // namespace

const std::error_category& error_category() {
  static const Category category;
  return category;
}

std::error_code make_error_code(Error e) { return {static_cast<int>(e), error_category()}; }

Label refusal(std::error_code err) {
  if (err == ErrPoolClosed) return rules::pool_closed();
  return err == ErrPoolFull ? kPoolFull : kRejectHandler;
}

const Label kBelowCore = intern_label(
    "below-core", "Submit: no idle worker and fewer than coreSize workers, so a new worker starts for the task");
const Label kTaskQueueFull =
    intern_label("task-queue-full",
                 "Submit: the task queue is full and no worker is idle, so a worker beyond core starts, up to maxSize");
const Label kPreAllocation =
    intern_label("pre-allocation", "NewPool with isPreAllocation: workers start idle before any task");
const Label kNewWorker = intern_label("get-worker-new", "getWorker: the task is a new worker's first");
const Label kWorkersQueue = intern_label(
    "workers-queue", "workers: the FIFO queue of idle workers, each blocked on its own chan, with no idle time limit");
const Label kTaskQueue = intern_label("task-queue", "taskQueue: the bounded ring of tasks waiting for a worker");
const Label kPoolFull = intern_label(
    "pool-full", "pool is full: the task queue is full and maxSize workers run (coremax's default reject handler)");
const Label kRejectHandler =
    intern_label("reject-handler", "the task queue is full and maxSize workers run: the reject handler's own error");
const Label kPoolClose = intern_label(
    "pool-close", "Close: the only way a worker ends (the seed gives workers no idle time-out: its admitted flaw)");
const Label kClose = intern_label("close", "Close: no new tasks; idle workers stop, busy ones finish the queue");
const Label kCloseNow =
    intern_label("close-now", "CloseNow: the queued tasks are dropped and the pool closes, in one step");
const Label kCloseNoWorker = intern_label(
    "close-no-worker",
    "Close: tasks queued while no worker was alive (coreSize 0, below a full queue) would wait for ever, so they are "
    "dropped");

}  // namespace poolscope::coremax
