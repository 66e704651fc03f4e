// fpm_events.c's fpm_event_loop: the master's one thread. It waits in
// epoll_wait for the listening socket's edge-triggered event (ondemand) or
// the heartbeat's timeout; the events that fired are handled first, then
// the timers that are due.
#include <mutex>

#include "pools/phpfpm/fpm_worker_pool.h"

namespace poolscope::phpfpm {

void fpm_worker_pool_s::fpm_event_loop(Time next) {
  std::unique_lock lock(m_);
  while (!master_stop_) {
    // ret = module->wait(fpm_event_queue_fd, timeout): epoll_wait
    while (!master_stop_ && !ondemand_event_ready_ && trace.clock().now() < next)
      master_.wait_until(lock, trace.clock(), next);
    if (master_stop_) break;
    const int forks_before = forks_;

    // fpm_event_fire(ondemand_event): EPOLLET reports the socket once per
    // wake-up, however many connections arrived since the last one.
    if (ondemand_event_ready_) {
      ondemand_event_ready_ = false;
      fpm_pctl_on_socket_accept();
    }

    // trigger timers: the persistent heartbeat is re-armed from now
    // (fpm_event_set_timeout(ev, now)), before it fires
    const Time now = trace.clock().now();
    if (now >= next) {
      next = now + FPM_IDLE_SERVER_MAINTENANCE_HEARTBEAT;
      fpm_pctl_perform_idle_server_maintenance_heartbeat(now);
    }

    // C++: fork() takes the master fork_time_ per child, during which it
    // waits in no epoll_wait: a connection arriving meanwhile is one event
    // when it is back. (A thread start costs the master far less.)
    const Time forked_until = trace.clock().now() + (forks_ - forks_before) * config.fork_time_;
    while (!master_stop_ && trace.clock().now() < forked_until) master_.wait_until(lock, trace.clock(), forked_until);
  }
}

}  // namespace poolscope::phpfpm
