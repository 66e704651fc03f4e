// The part of an nginx worker process the thread pool needs: ngx_notify (the
// epoll module's eventfd), the loop that runs ngx_thread_pool_handler when
// notified (ngx_worker_process_cycle and ngx_process_events_and_timers,
// reduced to that one event), the two ways out (ngx_quit, ngx_terminate) and
// the exit hook (ngx_thread_pool_exit_worker).
//
// This thread is the completion lane: every completion handler runs here,
// one at a time, whatever thread ran the task.
#include "pools/nginx/thread_pool.h"

#include <chrono>
#include <utility>

#include "pools/core/spin.h"

namespace poolscope::nginx {

// ngx_epoll_notify: write 1 to the eventfd. Writes before the loop next
// looks coalesce into one event, so one ngx_thread_pool_handler pass serves
// every task that finished meanwhile. C++: a flag and a CondVar.
void ThreadPool::ngx_notify() {
  std::lock_guard g(loop_mtx_);
  if (!notified_) notified_at_ = trace_.clock().now();
  notified_ = true;
  loop_cond_.notify_one();
}

void ThreadPool::ngx_worker_process_cycle() {
  // C++: the other connections' events, evenly spaced (Config::network_events_).
  const Nanos every =
      config_.network_events_ > 0 ? Nanos(std::chrono::seconds(1)) / config_.network_events_ : Nanos(0);
  Time next_event = trace_.clock().now() + every;
  for (;;) {
    bool notified = false;
    Time notified_at{0};
    exiting how = exiting::no;
    {
      std::unique_lock g(loop_mtx_);
      // ngx_process_events_and_timers: epoll_wait for the eventfd and every
      // connection. ngx_quit keeps the loop going until no posted task is
      // outstanding (nginx: ngx_event_no_timers_left, each task holding a
      // 60 s timer).
      auto ready = [&] {
        return notified_ || exiting_ == exiting::terminate || (exiting_ == exiting::quit && active_ == 0);
      };
      if (every > Nanos(0))
        loop_cond_.wait_until(g, trace_.clock(), next_event, ready);
      else
        loop_cond_.wait(g, ready);
      notified = std::exchange(notified_, false);
      notified_at = notified_at_;
      how = exiting_;
    }
    if (how == exiting::terminate) break;  // ngx_terminate: out now, completions left unrun

    // epoll_wait returns the ready events in the order they became ready, and
    // the loop runs each one's handler in turn: the connections ready before
    // the eventfd's write, then ngx_thread_pool_handler, then the rest. A
    // completion waits behind every event that was ready before it.
    const Time now = trace_.clock().now();
    if (every > Nanos(0))
      for (; next_event <= now && (!notified || next_event <= notified_at); next_event += every) ngx_network_event_();
    if (notified) ngx_thread_pool_handler();
    if (every > Nanos(0))
      for (; next_event <= now; next_event += every) ngx_network_event_();

    if (how == exiting::quit && active_ == 0) break;
  }
  ngx_thread_pool_exit_worker();
}

// C++: one other connection's read or write handler: CPU on the loop.
void ThreadPool::ngx_network_event_() {
  burn_cpu(config_.network_event_);
  network_events_served++;
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
