// The part of an nginx worker process the thread pool needs: ngx_notify (the
// epoll module's eventfd), the loop that runs ngx_thread_pool_handler when
// notified (ngx_worker_process_cycle and ngx_process_events_and_timers,
// reduced to that one event), the two ways out (ngx_quit, ngx_terminate) and
// the exit hook (ngx_thread_pool_exit_worker).
//
// This thread is the completion lane: every completion handler runs here,
// one at a time, whatever thread ran the task.
#include "pools/nginx/thread_pool.h"

#include <utility>

namespace poolscope::nginx {

// ngx_epoll_notify: write 1 to the eventfd. Writes before the loop next
// looks coalesce into one event, so one ngx_thread_pool_handler pass serves
// every task that finished meanwhile. C++: a flag and a CondVar.
void ThreadPool::ngx_notify() {
  std::lock_guard g(loop_mtx_);
  notified_ = true;
  loop_cond_.notify_one();
}

void ThreadPool::ngx_worker_process_cycle() {
  for (;;) {
    bool notified = false;
    exiting how = exiting::no;
    {
      std::unique_lock g(loop_mtx_);
      // ngx_process_events_and_timers: epoll_wait for the eventfd. ngx_quit
      // keeps the loop going until no posted task is outstanding (nginx:
      // ngx_event_no_timers_left, each task holding a 60 s timer).
      loop_cond_.wait(g, [&] {
        return notified_ || exiting_ == exiting::terminate || (exiting_ == exiting::quit && active_ == 0);
      });
      notified = std::exchange(notified_, false);
      how = exiting_;
    }
    if (how == exiting::terminate) break;  // ngx_terminate: out now, completions left unrun
    if (notified) ngx_thread_pool_handler();
    if (how == exiting::quit && active_ == 0) break;
  }
  ngx_thread_pool_exit_worker();
}

// The module's exit-process hook.
void ThreadPool::ngx_thread_pool_exit_worker() { ngx_thread_pool_destroy(); }

void ThreadPool::quit() { stop_(exiting::quit); }

std::size_t ThreadPool::terminate() {
  std::size_t n = 0;
  {
    // C++: poolscope's shutdown-now drops what still waits. nginx's fast
    // shutdown leaves the queue to the exit tasks, which queue behind it.
    std::lock_guard lk(mtx);
    for (auto& task : queue) {
      if (task->exit_lock_) continue;
      trace_.dropped(task->job_.id, kTerminateDrop);
      active_--;
      ++n;
    }
    std::erase_if(queue, [](const auto& task) { return task->exit_lock_ == nullptr; });
    waiting -= static_cast<ngx_int_t>(n);
  }
  stop_(exiting::terminate);
  return n;
}

void ThreadPool::stop_(exiting how) {
  std::lock_guard s(stop_mtx_);
  {
    std::lock_guard g(loop_mtx_);
    if (exiting_ == exiting::no) {
      exiting_ = how;
      trace_.state(how == exiting::quit ? kQuit : kTerminate);
      loop_cond_.notify_one();
    }
  }
  if (loop_.joinable()) loop_.join();
}

}  // namespace poolscope::nginx
