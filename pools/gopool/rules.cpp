#include "pools/gopool/rules.h"

#include <string>

namespace poolscope::gopool {

namespace {
struct Category final : std::error_category {
  const char* name() const noexcept override { return "gopool"; }
  std::string message(int e) const override {
    return e == ErrAlreadyRegistered ? "name: %s already registered" : "unknown gopool error";
  }
};
}  // namespace

const std::error_category& error_category() {
  static const Category category;
  return category;
}

std::error_code make_error_code(Error e) { return {static_cast<int>(e), error_category()}; }

namespace rules {
const Label kTaskList = intern_label(
    "task-list", "gopool CtxGo: the task is appended to the pool's linked list (unbounded, FIFO) under taskLock");
const Label kScaleThreshold = intern_label(
    "scale-threshold",
    "gopool CtxGo: taskCount >= ScaleThreshold and WorkerCount() < cap: start one more worker for the list");
const Label kNoWorker =
    intern_label("no-worker", "gopool CtxGo: WorkerCount() == 0: start a worker, whatever the threshold and the cap");
const Label kListHead = intern_label("list-head", "gopool worker: pops the head of the task list (FIFO)");
const Label kListEmpty = intern_label(
    "list-empty", "gopool worker: the list is empty, so the worker exits at once: gopool never keeps an idle worker");
const Label kDrainOnShutdown =
    intern_label("drain-on-shutdown",
                 "poolscope shutdown (gopool has none): tasks wait and no worker runs (the OS refused one): start one");
const Label kShutdownNow = intern_label(
    "shutdown-now", "poolscope shutdown-now (gopool has no Stop): the tasks still on the list are dropped");
const Label kSetCap =
    intern_label("SetCap", "gopool SetCap: an atomic store; running workers stay, only new ones are limited");
}  // namespace rules

}  // namespace poolscope::gopool
