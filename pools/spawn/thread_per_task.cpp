#include "pools/spawn/thread_per_task.h"

#include <system_error>

namespace poolscope::spawn {

namespace {
const Label kNewThread = intern_label("thread-per-task", "spawn: every task gets a new thread");
const Label kTaskDone = intern_label("task-done", "spawn: the thread ends with its task");
}  // namespace

ThreadPerTask::ThreadPerTask(const TraceTarget& target) : trace_(target, "spawn") {}

ThreadPerTask::~ThreadPerTask() { wait(); }

// The task waits in its thread's entry rather than in the thread's closure:
// if the OS refuses the thread, it comes back here and is destroyed after m_
// is released (its captures' destructors may call back in), and no thread is
// traced. The new thread takes it under m_, so only after its spawn and
// hand-off are traced here.
bool ThreadPerTask::go(Task task) {
  Job job{trace_.submitted(), std::move(task)};  // destroyed after `lock` is released
  const TaskId id = job.id;
  const WorkerId w = trace_.new_worker_id();
  std::unique_lock lock(m_);
  join_finished();  // keep the list of handles as short as the live threads
  auto it = threads_.emplace(threads_.end());
  it->job = std::move(job);
  try {
    it->thread = Thread("spawn-" + std::to_string(w), [this, w, it] {
      Job mine;
      {
        std::lock_guard g(m_);
        mine = std::move(it->job);
      }
      trace_.run(w, mine);  // a throwing task ends its thread like any other: nothing to replace
      mine = Job{};         // release the task's captures before the thread counts as done
      trace_.exited(w, kTaskDone);
      std::lock_guard g(m_);
      done_.push_back(it);
      all_done_.notify_all();
    });
  } catch (const std::system_error&) {
    job = std::move(it->job);
    threads_.erase(it);
    lock.unlock();
    trace_.refused(id, rules::thread_create_failed());
    return false;
  }
  trace_.spawned(w, kNewThread);
  trace_.handoff(id, w, kNewThread);
  return true;
}

void ThreadPerTask::join_finished() {
  // These threads have pushed themselves onto done_ and need m_ no more, so
  // joining them under the lock only waits for the OS to end them.
  for (auto it : done_) {
    it->thread.join();
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
