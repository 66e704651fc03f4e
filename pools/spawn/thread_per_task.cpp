#include "pools/spawn/thread_per_task.h"

#include <memory>
#include <stdexcept>
#include <string>
#include <system_error>

namespace poolscope::spawn {

namespace {
const Label kNewThread = intern_label("thread-per-task", "spawn: every task gets a new thread");
const Label kTaskDone = intern_label("task-done", "spawn: the thread ends with its task");
}  // namespace

ThreadPerTask::ThreadPerTask(const TraceTarget& target) : trace_(target, "spawn") {}

ThreadPerTask::~ThreadPerTask() { wait(); }

// The new thread traces its own spawn and hand-off, so nothing is traced of
// a thread the OS refused; the task is then refused, and destroyed here.
bool ThreadPerTask::go(Task task) {
  // C++: Go's `go f()` with a nil f is a fatal error at the go statement
  // ("go of nil func value"); here it is an exception at the call, before
  // anything is counted.
  if (!task) throw std::invalid_argument("go of nil func value");
  auto job = std::make_shared<Job>(Job{trace_.submitted(), std::move(task)});
  const TaskId id = job->id;
  const WorkerId w = trace_.new_worker_id();
  running_++;
  try {
    threads_.go("spawn-" + std::to_string(w), [this, w, job] {
      trace_.spawned(w, kNewThread);
      trace_.handoff(job->id, w, kNewThread);
      trace_.run(w, *job);  // a throwing task ends its thread like any other: nothing to replace
      job->fn = nullptr;    // release the task's captures before the thread counts as done
      trace_.exited(w, kTaskDone);
      running_--;
    });
  } catch (const std::system_error&) {
    running_--;
    trace_.refused(id, rules::thread_create_failed());
    return false;
  }
  return true;
}

void ThreadPerTask::wait() { threads_.wait(); }

std::size_t ThreadPerTask::running() const { return running_.load(); }

}  // namespace poolscope::spawn
