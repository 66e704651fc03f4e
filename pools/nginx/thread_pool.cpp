// ngx_thread_pool.c, in its order. Index:
//   ngx_thread_pool_init          every thread at once (from the worker process's init hook)
//   ngx_thread_pool_destroy       one exit task per thread, one thread at a time (exit hook)
//   ngx_thread_pool_exit_handler  the exit task: clear destroy's lock, end the thread
//   ngx_thread_task_alloc
//   ngx_thread_task_post          refuse at max_queue; signal, append at the tail, waiting++
//   ngx_thread_pool_cycle         a thread: waiting--, wait while empty, take the head, run, done queue, notify
//   ngx_thread_pool_handler       the event loop: take the whole done queue, run the completions in order
// The configuration half (ngx_thread_pool, ngx_thread_pool_init_conf) is
// Config and its checks in the constructor.
#include "pools/nginx/thread_pool.h"

#include <stdexcept>
#include <system_error>
#include <utility>

#include "pools/core/spin.h"

namespace poolscope::nginx {

namespace {

// ngx_spinlock(lock, 1, 2048) / ngx_unlock: the done queue's lock, held for
// a few instructions. C++: nginx spins 2048 pauses, then sched_yield()s;
// spin_until is poolscope's spin, then this_thread::yield.
void ngx_spinlock(std::atomic<ngx_uint_t>& lock) {
  for (;;) {
    ngx_uint_t free = 0;
    if (lock.load(std::memory_order_relaxed) == 0 && lock.compare_exchange_strong(free, 1, std::memory_order_acquire))
      return;
    if (!spin_until([&] { return lock.load(std::memory_order_relaxed) == 0; })) poolscope::this_thread::yield();
  }
}
void ngx_unlock(std::atomic<ngx_uint_t>& lock) { lock.store(0, std::memory_order_release); }

}  // namespace

ThreadPool::ThreadPool(Config config, const TraceTarget& target)
    : config_(std::move(config)), trace_(target, "nginx") {
  // ngx_thread_pool (the directive): threads must be a non-zero number,
  // max_queue a number (0 is accepted).
  if (config_.threads == 0)
    throw std::invalid_argument("invalid threads value \"threads=" + std::to_string(config_.threads) + "\"");
  if (config_.max_queue < 0)
    throw std::invalid_argument("invalid max_queue value \"max_queue=" + std::to_string(config_.max_queue) + "\"");
  // C++: a request ends when its completion handler has run on the loop, not
  // when its thread finishes: the trace's end-to-end latency ends there too.
  trace_.completions_follow();
  // ngx_thread_pool_init_worker: the pool's threads, then the worker process's loop.
  ngx_thread_pool_init();
  try {
    loop_ = Thread("nginx-loop", [this] { ngx_worker_process_cycle(); });
  } catch (const std::system_error&) {
    ngx_thread_pool_destroy();  // C++: the threads already started must be ended and joined
    throw;
  }
}

ThreadPool::~ThreadPool() { quit(); }

void ThreadPool::ngx_thread_pool_init() {
  // C++: "the configured event method cannot be used with thread pools"
  // cannot happen: ngx_notify is always a CondVar here.
  threads_.reserve(config_.threads);
  for (ngx_uint_t n = 0; n < config_.threads; n++) {
    const WorkerId w = trace_.new_worker_id();
    alive_++;
    trace_.spawned(w, kThreadPoolInit);
    try {
      threads_.emplace_back("nginx-" + std::to_string(w), [this, w] { ngx_thread_pool_cycle(w); });
    } catch (const std::system_error&) {
      alive_--;
      trace_.exited(w, rules::thread_create_failed());
      ngx_log_error(NGX_LOG_ALERT, text::kPthreadCreateFailed, {});
      ngx_thread_pool_destroy();  // C++: nginx's worker exits, and its threads with it
      throw;
    }
  }
}

void ThreadPool::ngx_thread_pool_destroy() {
  std::atomic<ngx_uint_t> lock{0};  // nginx: a volatile on destroy's stack, cleared by the exit handler

  for (std::size_t n = 0; n < threads_.size(); n++) {
    lock = 1;

    for (;;) {
      auto task = std::make_unique<ngx_thread_task_t>();
      task->exit_lock_ = &lock;
      if (ngx_thread_task_post(std::move(task)) == NGX_OK) break;
      // C++: nginx returns here, leaving the remaining threads to die with
      // the process; a C++ pool must join them, so destroy tries again once
      // a thread has taken a task off the full queue.
      poolscope::this_thread::yield();
    }

    // while (lock) { ngx_sched_yield(); }
    while (!spin_until([&] { return lock.load(std::memory_order_acquire) == 0; })) poolscope::this_thread::yield();
  }

  // C++: nginx's threads are detached; these are joined.
  for (Thread& t : threads_) t.join();
}

void ThreadPool::ngx_thread_pool_exit_handler(ngx_thread_task_t& task) {
  task.exit_lock_->store(0, std::memory_order_release);
  // C++: pthread_exit(NULL) would skip the C++ thread's unwinding;
  // ngx_thread_pool_cycle returns instead (it sees exit_lock_).
}

std::unique_ptr<ngx_thread_task_t> ThreadPool::ngx_thread_task_alloc(Task fn) {
  // C++: nginx posts a task whatever its handler; a NULL handler crashes the
  // thread that calls it. Refused here, before it is counted.
  if (!fn) throw std::invalid_argument("nginx: ngx_thread_task_alloc needs a handler");
  auto task = std::make_unique<ngx_thread_task_t>();
  task->job_ = Job{trace_.submitted(), std::move(fn)};
  return task;
}

ngx_int_t ThreadPool::ngx_thread_task_post(std::unique_ptr<ngx_thread_task_t> task) {
  // C++: "task #%ui already active" cannot happen: the pool owns a task once
  // it is posted, so nobody can post it again.
  const bool exit = task->exit_lock_ != nullptr;  // C++: destroy's own tasks are not the submitters'
  std::unique_lock lk(mtx);

  if (waiting >= config_.max_queue) {
    const ngx_int_t w = waiting;
    lk.unlock();
    if (exit) return NGX_ERROR;  // C++: destroy retries; one line in the log is enough
    ngx_log_error(NGX_LOG_ERR, text::kQueueOverflow, {config_.name, std::to_string(w)});
    trace_.refused(task->job_.id, kQueueOverflow);
    return NGX_ERROR;
  }

  task->event.active = true;

  task->id = ngx_thread_pool_task_id++;

  cond.notify_one();  // nginx signals before it appends; both under mtx, so the order does not matter

  const TaskId id = task->job_.id;
  queue.push_back(std::move(task));

  waiting++;

  if (!exit) {
    active_++;
    // "task #%ui added to thread pool \"%V\"" (debug). Traced under mtx, so
    // the queued event comes before the thread's hand-off.
    trace_.queued(id, kThreadPoolQueue, static_cast<std::int64_t>(queue.size()));
  }
  return NGX_OK;
}

void ThreadPool::ngx_thread_pool_cycle(WorkerId w) {
  // "thread in pool \"%V\" started" (debug). C++: nginx blocks every signal
  // but SIGILL, SIGFPE, SIGSEGV and SIGBUS here; poolscope's threads take none.
  for (;;) {
    std::unique_ptr<ngx_thread_task_t> task;
    {
      std::unique_lock lk(mtx);

      // the number may become negative
      waiting--;

      if (queue.empty()) trace_.idle(w, kCondWait);
      while (queue.empty()) cond.wait(lk);

      task = std::move(queue.front());
      queue.pop_front();

      if (!task->exit_lock_) {
        running_++;
        trace_.handoff(task->job_.id, w, kQueueHead, true);
      }
    }

    if (task->exit_lock_) {
      ngx_thread_pool_exit_handler(*task);
      break;
    }

    // "run task #%ui in thread pool \"%V\"" (debug)
    trace_.run(w, task->job_);  // C++: a task that throws is traced as threw; nginx's handlers return errors
    task->job_.fn = nullptr;    // C++: the task's captures go now, not when its completion runs
    running_--;
    // "complete task #%ui in thread pool \"%V\"" (debug)

    task->done_at_ = trace_.clock().now();  // C++: for the pass's funnel delay
    ngx_spinlock(ngx_thread_pool_done_lock);
    ngx_thread_pool_done.push_back(std::move(task));
    ngx_unlock(ngx_thread_pool_done_lock);  // C++: the release store is ngx_memory_barrier() + ngx_unlock

    ngx_notify();
  }

  alive_--;
  trace_.exited(w, kExitTask);
}

void ThreadPool::ngx_thread_pool_handler() {
  // "thread pool handler" (debug)
  ngx_spinlock(ngx_thread_pool_done_lock);
  std::vector<std::unique_ptr<ngx_thread_task_t>> done = std::exchange(ngx_thread_pool_done, {});
  ngx_unlock(ngx_thread_pool_done_lock);

  // C++: the pass is the completion lane's marker; arg = completions in it,
  // arg2 = µs the oldest of them waited since its thread finished it (the
  // funnel's delay: the loop was busy, or asleep until notified).
  const std::int64_t waited = done.empty() ? 0 : (trace_.clock().now() - done.front()->done_at_).count() / 1000;
  trace_.emit(EventKind::pool_state, kThreadPoolHandler, 0, 0, static_cast<std::int64_t>(done.size()),
              static_cast<std::int32_t>(waited));

  for (auto& task : done) {
    // "run completion handler for task #%ui" (debug)
    task->event.complete = true;
    task->event.active = false;
    burn_cpu(config_.completion_);  // C++: the completion's own work (Config::completion_)
    active_--;

    if (task->event.handler) task->event.handler();
    trace_.completed(task->job_.id, trace_.clock().now() - task->done_at_);  // C++: the request's end
  }
}

Counters ThreadPool::state() const {
  std::lock_guard lk(mtx);
  return Counters{.workers = alive_.load(),
                  .busy = running_.load(),
                  .queued = static_cast<std::uint32_t>(queue.size())};
}

ngx_int_t ThreadPool::waiting_() const {
  std::lock_guard lk(mtx);
  return waiting;
}

void ThreadPool::ngx_log_error(ngx_log_level level, const char* fmt, std::initializer_list<std::string> args) const {
  if (!config_.log) return;
  std::string line, f(fmt);
  auto arg = args.begin();
  for (std::size_t i = 0; i < f.size(); ++i) {
    if (f[i] == '%' && arg != args.end()) {
      const std::size_t len = f.compare(i, 3, "%ui") == 0 ? 3 : 2;  // %V, %i, %ui
      line += *arg++;
      i += len - 1;
    } else {
      line += f[i];
    }
  }
  config_.log(level, line);
}

}  // namespace poolscope::nginx
