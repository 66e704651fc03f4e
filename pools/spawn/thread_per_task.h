// The baseline: one new thread per task, no reuse, no limit. This is what
// net/http's Server.Serve does per connection (`go c.serve(ctx)`), the
// design fasthttp's worker pool was written to beat (seed 003). With
// goroutines it is cheap; with OS threads every task pays a thread create and
// join, which is exactly what the pools below avoid.
#pragma once

#include <atomic>

#include "pools/core/go/thread_group.h"
#include "pools/core/pool_trace.h"

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
  PoolTrace trace_;
  std::atomic<std::size_t> running_{0};
  go::ThreadGroup threads_;  // joins each thread soon after it ends
};

}  // namespace poolscope::spawn
