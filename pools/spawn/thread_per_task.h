// The baseline: one new thread per task, no reuse, no limit. This is what
// net/http's Server.Serve does per connection (`go c.serve(ctx)`), the
// design fasthttp's worker pool was written to beat (seed 003). With
// goroutines it is cheap; with OS threads every task pays a thread create and
// join, which is exactly what the pools below avoid.
#pragma once

#include <condition_variable>
#include <list>
#include <mutex>
#include <vector>

#include "pools/core/pool_trace.h"
#include "pools/core/thread.h"

namespace poolscope::spawn {

class ThreadPerTask {
 public:
  explicit ThreadPerTask(const TraceTarget& target = {});
  ~ThreadPerTask();  // joins every thread
  ThreadPerTask(const ThreadPerTask&) = delete;
  ThreadPerTask& operator=(const ThreadPerTask&) = delete;

  // `go task()`: starts a thread that runs `task` and ends. Returns false only
  // if the OS refused to create the thread (the task is then refused).
  bool go(Task task);
  // Joins every thread started so far (the tasks they run finish first).
  void wait();

  std::size_t running() const;
  PoolTrace& trace() { return trace_; }
  const PoolTrace& trace() const { return trace_; }

 private:
  // One started thread, and its task until the thread takes it.
  struct Entry {
    Thread thread;
    Job job;
  };

  void join_finished();  // with m_ held

  PoolTrace trace_;
  mutable std::mutex m_;
  std::list<Entry> threads_;                      // started, not yet joined
  std::vector<std::list<Entry>::iterator> done_;  // whose task has ended
  std::condition_variable all_done_;
};

}  // namespace poolscope::spawn
