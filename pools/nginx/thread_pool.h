// nginx's thread pool (nginx/nginx src/core/ngx_thread_pool.c at 3f6f782,
// release-1.31.4 + 4; the logic is unchanged since 1.9.x: the last
// behavioural commits are eeb7212 and 14b1b6e, 2016).
//
// An nginx worker process is one event-loop thread. To keep blocking file
// I/O off that loop it posts tasks to a named thread pool: a FIXED set of
// `threads` threads, all started when the worker process starts, and ONE FIFO
// task queue under a mutex and a condition variable. ngx_thread_task_post
// refuses once `max_queue` tasks wait. A thread runs the task's handler, then
// puts the finished task on the done queue and wakes the event loop
// (ngx_notify); the loop takes the whole done queue and runs each task's
// completion handler, one at a time, on its one thread. No growth, no
// reaping, no caller-runs.
//
//   submitter ── ngx_thread_task_post ──▶ queue (FIFO, waiting <= max_queue) ──▶ threads[0..threads)
//                                                                                   │ handler(ctx)
//   event loop ◀── ngx_notify ── done queue (spin lock) ◀────────────────────────────┘
//      └── ngx_thread_pool_handler: event.handler(task) for each, in completion order
//
// Read thread_pool.cpp beside ngx_thread_pool.c: the same functions in the
// same order (ngx_thread_pool_init, ngx_thread_pool_destroy,
// ngx_thread_pool_exit_handler, ngx_thread_task_post, ngx_thread_pool_cycle,
// ngx_thread_pool_handler), the fields with nginx's names (mtx, queue,
// waiting, cond, name, threads, max_queue; ngx_thread_pool_done and its
// lock). event_loop.cpp is the part of the worker process the pool needs
// (ngx_notify, the loop, ngx_quit / ngx_terminate and the exit hook). What
// C++ adds ends in an underscore. Where C++ differs, `// C++:` says why; in
// short:
// - Tasks are owned (std::unique_ptr) instead of living in a request's
//   memory pool, so a task cannot be posted twice ("task #%ui already
//   active" cannot happen) and one the pool refuses is destroyed.
// - The thread that posts is the submitter, not the event loop: nginx posts
//   from its loop thread, poolscope's engine submits from its own threads.
//   ngx_thread_task_post locks `mtx` either way, so the rules are the same.
// - The exit task cannot pthread_exit a C++ thread: ngx_thread_pool_cycle
//   returns after it, and every thread is joined (nginx's are detached).
// - Shutdown-now drops the tasks still queued (poolscope's contract); nginx's
//   fast shutdown would run them, since its exit tasks queue behind them.
#pragma once

#include <atomic>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "pools/core/clock.h"
#include "pools/core/pool_trace.h"
#include "pools/core/sync.h"
#include "pools/core/thread.h"
#include "pools/nginx/rules.h"

namespace poolscope::nginx {

using ngx_int_t = std::int64_t;
using ngx_uint_t = std::uint64_t;
inline constexpr ngx_int_t NGX_OK = 0;
inline constexpr ngx_int_t NGX_ERROR = -1;

// ngx_log_t, as far as the pool uses it: where ngx_log_error's lines go.
using ngx_log_t = std::function<void(ngx_log_level, const std::string&)>;

// ngx_thread_task_t (ngx_thread_pool.h): `handler(ctx)` runs on a pool
// thread; `event.handler` is its completion, run on the event loop.
struct ngx_thread_task_t {
  ngx_uint_t id = 0;  // from ngx_thread_pool_task_id, one counter for every pool, from 0
  Job job_;           // C++: ctx + handler, the task's body, with its id in the trace
  struct {
    bool active = false;    // posted, its completion not run yet
    bool complete = false;  // set just before the completion handler runs
    std::move_only_function<void()> handler;  // the completion (may be empty); C++: it captures what it needs
  } event;
  std::atomic<ngx_uint_t>* exit_lock_ = nullptr;  // C++: destroy's exit task (ngx_thread_pool_exit_handler's ctx)
  Time done_at_{0};  // C++: when its thread put it on the done queue, for the funnel's delay
};

// `thread_pool NAME threads=N [max_queue=M];`
struct Config {
  std::string name = kDefaultName;
  ngx_uint_t threads = kDefaultThreads;    // > 0: "invalid threads value" otherwise
  ngx_int_t max_queue = kDefaultMaxQueue;  // >= 0: 0 is accepted (hand-off or refuse)
  ngx_log_t log;                           // nullptr: lines are discarded
  // C++: the worker process's own work on its one event-loop thread, which
  // the loop does between (and before) the completions: per completion, the
  // CPU its handler takes (the request goes on: headers, the response sent);
  // and the other network events it serves (reads, writes, accepts of every
  // other connection), `network_events_` a second, evenly spaced, each
  // `network_event_` of CPU. 0: the loop does nothing else (before issue 42).
  Nanos completion_{0};
  std::int64_t network_events_ = 0;
  Nanos network_event_{0};
};

// One nginx worker process with one thread pool: ngx_thread_pool_s, the done
// queue, and the event loop that runs the completions. threads=N is per
// worker process: nginx with `worker_processes 4` has four such pools of N
// threads, and four loops, each completing only its own tasks.
class ThreadPool {
 public:
  // ngx_thread_pool_init_worker: ngx_thread_pool_init (every thread at
  // once), then the event loop starts. Throws std::invalid_argument with
  // nginx's text for a bad Config, and std::system_error if the OS refuses a
  // thread ("pthread_create() failed"; nginx's worker fails to start).
  ThreadPool(Config config, const TraceTarget& target = {});
  ~ThreadPool();  // quit() if neither quit() nor terminate() ran
  ThreadPool(const ThreadPool&) = delete;
  ThreadPool& operator=(const ThreadPool&) = delete;

  // ngx_thread_task_alloc: a task whose handler is `fn`. C++: it takes the
  // thread pool rather than a request's memory pool, so that the trace
  // counts the task as submitted to this pool.
  std::unique_ptr<ngx_thread_task_t> ngx_thread_task_alloc(Task fn);
  // ngx_thread_task_post: NGX_OK, or NGX_ERROR with "thread pool "NAME" queue
  // overflow: N tasks waiting" logged once `waiting` reaches max_queue.
  ngx_int_t ngx_thread_task_post(std::unique_ptr<ngx_thread_task_t> task);

  // ngx_quit (SIGQUIT), then the exit hook: no new posts (the caller's
  // business), the loop runs until every posted task has completed, then
  // ngx_thread_pool_destroy ends the threads one at a time. Returns once
  // every thread is joined. Idempotent; after terminate(), only waits.
  void quit();
  // ngx_terminate (SIGTERM): the loop exits at once, so completion handlers
  // not yet run never run; C++: the tasks still queued are dropped (each a
  // task_dropped event), then destroy ends the threads as they finish.
  // Returns the number dropped.
  std::size_t terminate();

  // C++: the pool's state as poolscope counters: threads alive, threads
  // running a handler, tasks in the queue. (nginx's `waiting` is the queue
  // minus the threads parked in ngx_thread_pool_cycle: waiting_().)
  Counters state() const;
  ngx_int_t waiting_() const;
  // C++: the other network events the loop has served (Config::network_events_).
  std::uint64_t network_events_served_() const { return network_events_served.load(); }
  const Config& config() const { return config_; }
  PoolTrace& trace() { return trace_; }
  const PoolTrace& trace() const { return trace_; }

 private:
  enum class exiting { no, quit, terminate };

  // ngx_thread_pool.c, in its order.
  void ngx_thread_pool_init();
  void ngx_thread_pool_destroy();
  static void ngx_thread_pool_exit_handler(ngx_thread_task_t& task);
  void ngx_thread_pool_cycle(WorkerId w);
  void ngx_thread_pool_handler();
  // event_loop.cpp: the worker process around the pool.
  void ngx_notify();
  void ngx_worker_process_cycle();
  void ngx_network_event_();
  void ngx_thread_pool_exit_worker();
  void stop_(exiting how);
  // C++: ngx_log_error with nginx's %V / %i / %ui filled in.
  void ngx_log_error(ngx_log_level level, const char* fmt, std::initializer_list<std::string> args) const;

  const Config config_;
  PoolTrace trace_;

  // ngx_thread_pool_s
  mutable Mutex mtx;
  std::deque<std::unique_ptr<ngx_thread_task_t>> queue;  // C++: a deque of owned tasks for first/last
  ngx_int_t waiting = 0;  // queued tasks minus parked threads: "the number may become negative"
  CondVar cond;

  // Process-wide in nginx (statics of ngx_thread_pool.c); one pool per process here.
  ngx_uint_t ngx_thread_pool_task_id = 0;  // under mtx
  std::atomic<ngx_uint_t> ngx_thread_pool_done_lock{0};
  std::vector<std::unique_ptr<ngx_thread_task_t>> ngx_thread_pool_done;  // under ngx_thread_pool_done_lock

  // C++: the state poolscope reports, kept where nginx keeps nothing.
  std::atomic<std::uint32_t> alive_{0}, running_{0};
  std::atomic<ngx_uint_t> active_{0};  // posted tasks whose completion has not run (event.active)
  std::atomic<std::uint64_t> network_events_served{0};

  // The event loop (event_loop.cpp): ngx_notify's eventfd is a flag and a CondVar.
  Mutex loop_mtx_;
  CondVar loop_cond_;
  bool notified_ = false;       // under loop_mtx_
  Time notified_at_{0};         // under loop_mtx_: the eventfd's first write since the loop last read it
  exiting exiting_ = exiting::no;  // under loop_mtx_
  Mutex stop_mtx_;  // serialises quit() and terminate()
  std::vector<Thread> threads_;
  Thread loop_;
};

}  // namespace poolscope::nginx
