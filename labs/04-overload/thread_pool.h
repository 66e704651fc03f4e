// Lab 04, starter: lab 01's nginx thread pool, which should give three answers
// to "the queue is full" (`on_full`) but so far only refuses (steps 2 and 3):
//   refuse       nginx: the post fails with "queue overflow";
//   block        ants: the submitter waits on a condition until a thread comes
//                back for work, unless `max_blocking_tasks` submitters already
//                wait (then ErrPoolOverload); shutdown wakes them (closed);
//   caller-runs  Java's CallerRunsPolicy: the submitting thread runs the task
//                itself, which slows the submitter down (worker 0 in the trace).
// A task that submits to its own pool and waits for the child deadlocks under
// `block` once every thread does it; `caller-runs` cannot deadlock that way.
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

namespace poolscope::lab04 {

// nginx returns NGX_OK or NGX_ERROR; here kNoLabel or the reason.
using Status = Label;

enum class OnFull { refuse, block, caller_runs };

class ThreadPool {
 public:
  // ngx_thread_pool_init: starts `threads` threads at once.
  ThreadPool(int threads, int max_queue, OnFull on_full, int max_blocking_tasks, const TraceTarget& target = {});
  ~ThreadPool();  // destroy()
  ThreadPool(const ThreadPool&) = delete;
  ThreadPool& operator=(const ThreadPool&) = delete;

  // ngx_thread_task_post: queues `task` for the next free thread. When
  // `waiting >= max_queue`: refuses it (kQueueOverflow), blocks (or refuses
  // with kPoolOverload), or runs it in the caller, as `on_full` says. A
  // blocked post returns rules::pool_closed() if the pool closes meanwhile.
  Status task_post(Task task);
  // Wakes the blocked submitters (they get pool_closed); later posts that
  // would block are refused as closed. First step of shutdown.
  void close();
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
  int blocked() const;

  PoolTrace& trace() { return trace_; }
  const PoolTrace& trace() const { return trace_; }

 private:
  void cycle(WorkerId w);  // ngx_thread_pool_cycle

  PoolTrace trace_;
  const int max_queue_;
  const OnFull on_full_;
  const int max_blocking_tasks_;  // 0: no limit (ants' MaxBlockingTasks)
  mutable Mutex mtx_;
  CondVar cond_;
  std::deque<Job> queue_;  // an empty Job is an exit task
  int waiting_ = 0;        // may become negative, as in nginx
  int alive_ = 0;
  int blocked_ = 0;  // ants' Waiting()
  bool closed_ = false;
  CondVar room_;  // blocked submitters wait here (ants' cond)
  std::vector<Thread> threads_;
  Mutex destroying_;
};

}  // namespace poolscope::lab04
