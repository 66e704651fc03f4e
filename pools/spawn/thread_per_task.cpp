#include "pools/spawn/thread_per_task.h"

#include <system_error>

namespace poolscope::spawn {

namespace {
const Label kNewThread = intern_label("thread-per-task", "spawn: every task gets a new thread");
const Label kTaskDone = intern_label("task-done", "spawn: the thread ends with its task");
}  // namespace

ThreadPerTask::ThreadPerTask(const TraceTarget& target) : trace_(target, "spawn") {}

ThreadPerTask::~ThreadPerTask() { wait(); }

bool ThreadPerTask::go(Task task) {
  Job job{trace_.submitted(), std::move(task)};
  WorkerId w = trace_.new_worker_id();
  std::unique_lock lock(m_);
  join_finished();  // keep the list of handles as short as the live threads
  trace_.spawned(w, kNewThread);
  trace_.handoff(job.id, w, kNewThread);
  auto it = threads_.emplace(threads_.end());
  try {
    *it = Thread("spawn-" + std::to_string(w), [this, w, it, job = std::move(job)]() mutable {
      trace_.run(w, job);  // a throwing task ends its thread like any other: nothing to replace
      trace_.exited(w, kTaskDone);
      std::lock_guard g(m_);
      done_.push_back(it);
      all_done_.notify_all();
    });
  } catch (const std::system_error&) {
    threads_.erase(it);
    trace_.exited(w, rules::thread_create_failed());
    trace_.refused(job.id, rules::thread_create_failed());
    return false;
  }
  return true;
}

void ThreadPerTask::join_finished() {
  // These threads have pushed themselves onto done_ and need m_ no more, so
  // joining them under the lock only waits for the OS to end them.
  for (auto it : done_) {
    (*it).join();
    threads_.erase(it);
  }
  done_.clear();
}

void ThreadPerTask::wait() {
  std::unique_lock lock(m_);
  all_done_.wait(lock, [&] { return threads_.size() == done_.size(); });
  join_finished();
}

std::size_t ThreadPerTask::running() const {
  std::lock_guard g(m_);
  return threads_.size() - done_.size();
}

}  // namespace poolscope::spawn
