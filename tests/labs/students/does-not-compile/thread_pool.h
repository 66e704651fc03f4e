// Lab 01, reference solution: nginx's thread pool (src/core/ngx_thread_pool.c).
// A fixed number of threads, all started with the pool; one FIFO queue of
// tasks guarded by a mutex and a condition; a post that fails with "queue
// overflow" once `max_queue` tasks wait; a destroy that posts one exit task
// per thread behind the queued tasks, so nothing accepted is lost.
//
// nginx's `waiting` counts posted tasks minus threads that have come back for
// work: each thread decrements it at the top of its loop ("the number may
// become negative"), each post increments it. So idle threads count against
// the bound, and max_queue + (idle threads) posts fit before the overflow.
#pragma once

#include <deque>
#include <mutex>
#include <vector>

#include "pools/core/pool_trace.h"
#include "pools/core/thread.h"

namespace poolscope::lab01 {

// nginx returns NGX_OK or NGX_ERROR; here kNoLabel or the reason.
using Status = Label;

class ThreadPool {
 public:
  // ngx_thread_pool_init: starts `threads` threads at once.
  ThreadPool(int threads, int max_queue, const TraceTarget& target = {});
  ~ThreadPool();  // destroy()
  ThreadPool(const ThreadPool&) = delete;
  ThreadPool& operator=(const ThreadPool&) = delete;

  // ngx_thread_task_post: queues `task` for the next free thread, or refuses
  // it (kQueueOverflow) when `waiting >= max_queue`.
  Status task_post(Task task);
  // ngx_thread_pool_destroy: one exit task per thread, queued behind every
  // task already posted; returns once every thread has ended. Idempotent.
  void destroy();
  // C++: for shutdown(now): drops the tasks still queued (each a
  // task_dropped event) and returns how many. nginx has no such call.
  int drop_queued();

  // Read under the lock, for the adapter's state().
  int threads_alive() const;
  int queued() const;
  int idle() const;  // threads waiting for work: queued() - waiting

  PoolTrace& trace() { return trace_; }
  const PoolTrace& trace() const { return trace_; }

 private:
  void cycle(WorkerId w);  // ngx_thread_pool_cycle

  PoolTrace trace_;
  const int max_queue_;
  mutable Mutex mtx_;
  CondVar cond_;
  std::deque<Job> queue_;  // an empty Job is an exit task
  int waiting_ = 0;        // may become negative, as in nginx
  int alive_ = 0;
  std::vector<Thread> threads_;
  Mutex destroying_;
};

}  // namespace poolscope::lab01
