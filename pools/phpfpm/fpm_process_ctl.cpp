// fpm_process_ctl.c, in its order: fpm_pctl (C++: fpm_pctl_, poolscope's
// shutdown), fpm_pctl_kill_idle_child, fpm_pctl_perform_idle_server_maintenance,
// its heartbeat, fpm_pctl_on_socket_accept. Then C++'s clock and the state.
#include <algorithm>
#include <chrono>
#include <mutex>

#include "pools/phpfpm/fpm_worker_pool.h"

namespace poolscope::phpfpm {

using namespace rules;

// fpm_pctl(FPM_PCTL_STATE_FINISHING or _TERMINATING, FPM_PCTL_ACTION_SET),
// then fpm_pctl_action_next's signal to every child, and the wait for the
// last one. C++: graceful lets the children serve the backlog first (php-fpm
// resets the backlog's connections when the last child closes the socket;
// the Pool contract runs every accepted task), and a pool left with
// connections and no child (only after a refused fork) starts one to serve
// them. The master stops first: no tick runs during a shutdown.
int fpm_worker_pool_s::fpm_pctl_(bool terminating) {
  int dropped = 0;
  {
    std::lock_guard lock(m_);
    if (fpm_state == FPM_PCTL_STATE_NORMAL) {
      fpm_state = terminating ? FPM_PCTL_STATE_TERMINATING : FPM_PCTL_STATE_FINISHING;
      trace.state(terminating ? kStateTerminating : kStateFinishing);
      master_stop_ = true;
      master_.notify_all();
      if (terminating) {
        for (; !listening_socket.empty(); listening_socket.pop_front(), ++dropped)
          trace.dropped(listening_socket.front().id, kBacklogReset);
        // C++: the TCP client's connections still retransmitting a SYN are
        // reset too (the socket is gone).
        for (; !syn_sent.empty(); syn_sent.pop_front(), ++dropped) trace.dropped(syn_sent.front().job.id, kBacklogReset);
        for (fpm_child_s& child : children) child.quit = true, child.quit_rule = kTerminating;  // SIGTERM
      }
      accept_.notify_all();
      tcp_client_.notify_all();
    }
  }
  if (master_thread_.joinable()) master_thread_.join();
  if (tcp_client_thread_.joinable()) tcp_client_thread_.join();  // C++: its last SYN is in the backlog
  for (;;) {
    children_threads_.wait();
    std::lock_guard lock(m_);
    if (listening_socket.empty()) break;
    fork_(kDrainOnShutdown);  // C++: refused again? the loop tries again
  }
  return dropped;
}

void fpm_worker_pool_s::fpm_pctl_kill_idle_child(fpm_child_s& child, Label rule, Time now) {
  if (child.idle_kill) {
    // fpm_pctl_kill(child->pid, FPM_PCTL_KILL). C++: a thread cannot be
    // killed; it already has its quit flag and leaves after its request.
    trace.emit(EventKind::pool_state, kSigkill, child.pid, 0);
  } else {
    child.idle_kill = true;
    // fpm_pctl_kill(child->pid, FPM_PCTL_QUIT): the child closes the
    // listening socket, so accept() returns and it exits.
    trace.reaped(child.pid, rule, now - child.tv);
    child.quit = true;
    child.quit_rule = kPmKill;
    accept_.notify_all();
  }
}

void fpm_worker_pool_s::fpm_pctl_perform_idle_server_maintenance(Time now) {
  fpm_child_s* last_idle_child = nullptr;
  int idle = 0;
  int active = 0;
  int children_to_fork = 0;

  // C++: cur_lq, the backlog's length for the status page, is listening_socket.size().
  for (fpm_child_s& child : children) {
    if (fpm_request_is_idle_(child, now)) {
      if (last_idle_child == nullptr || child.started < last_idle_child->started) last_idle_child = &child;
      idle++;
    } else {
      active++;
    }
  }
  // fpm_scoreboard_update_commit(idle, active, cur_lq, ...)
  int stopped = 0;
  struct Pass {  // C++: every path below ends the tick by tracing it
    PoolTrace& trace;
    int& idle;
    int& stopped;
    ~Pass() { trace.cleaner_pass(kMaintenance, idle, stopped); }
  } pass{trace, idle, stopped};

  // this is specific to PM_STYLE_ONDEMAND
  if (config.pm == PM_STYLE_ONDEMAND) {
    // "[pool %s] currently %d active children, %d spare children"
    if (last_idle_child == nullptr) return;
    // fpm_request_last_activity(last_idle_child, &last)
    // fpm_clock_get(&now): CLOCK_MONOTONIC's whole seconds, so the stop
    // falls timeout to timeout + 1 s after the child went idle, by the
    // clock's phase.
    if (fpm_clock_sec_(last_idle_child->tv) < fpm_clock_sec_(now) - config.pm_process_idle_timeout) {
      stopped += last_idle_child->idle_kill ? 0 : 1;
      fpm_pctl_kill_idle_child(*last_idle_child, kIdleTimeout, now);
    }
    return;
  }

  // the rest is only used by PM_STYLE_DYNAMIC
  if (config.pm != PM_STYLE_DYNAMIC) return;

  // "[pool %s] currently %d active children, %d spare children, %d running children. Spawning rate %d"
  if (idle > config.pm_max_spare_servers && last_idle_child != nullptr) {
    stopped += last_idle_child->idle_kill ? 0 : 1;
    fpm_pctl_kill_idle_child(*last_idle_child, kMaxSpare, now);
    idle_spawn_rate = 1;
    return;
  }

  if (idle < config.pm_min_spare_servers) {
    if (running_children >= config.pm_max_children) {
      if (!warn_max_children) {
        max_children_reached++;
        trace.emit(EventKind::pool_state, kMaxChildrenReached, 0, 0, config.pm_max_children);
        warn_max_children = 1;
      }
      idle_spawn_rate = 1;
      return;
    }

    if (idle_spawn_rate >= 8) {
      trace.emit(EventKind::pool_state, kSeemsBusy, 0, 0, idle_spawn_rate, idle);
    }

    // compute the number of idle process to spawn
    children_to_fork = std::min(idle_spawn_rate, config.pm_min_spare_servers - idle);

    // get sure it won't exceed max_children
    children_to_fork = std::min(children_to_fork, config.pm_max_children - running_children);
    if (children_to_fork <= 0) {
      if (!warn_max_children) {
        max_children_reached++;
        trace.emit(EventKind::pool_state, kMaxChildrenReached, 0, 0, config.pm_max_children);
        warn_max_children = 1;
      }
      idle_spawn_rate = 1;
      return;
    }
    warn_max_children = 0;

    fpm_children_make(true, children_to_fork, kSpareSpawn);

    // "[pool %s] %d child(ren) have been created dynamically"

    // Double the spawn rate for the next iteration
    if (idle_spawn_rate < config.pm_max_spawn_rate) idle_spawn_rate *= 2;
    return;
  }
  idle_spawn_rate = 1;
}

// The persistent FPM_IDLE_SERVER_MAINTENANCE_HEARTBEAT timer's callback;
// fpm_event_loop (fpm_events.cpp) fires it once a second.
void fpm_worker_pool_s::fpm_pctl_perform_idle_server_maintenance_heartbeat(Time now) {
  if (fpm_pctl_can_spawn_children()) fpm_pctl_perform_idle_server_maintenance(now);
}

// The listening socket's event (ondemand): once per wake-up of the master,
// not once per connection (fpm_event_loop).
void fpm_worker_pool_s::fpm_pctl_on_socket_accept() {
  if (running_children >= config.pm_max_children) {
    if (!warn_max_children) {
      max_children_reached++;
      trace.emit(EventKind::pool_state, kOndemandMaxChildren, 0, 0, config.pm_max_children);
      warn_max_children = 1;
    }
    return;
  }
  const Time now = trace.clock().now();
  for (const fpm_child_s& child : children) {
    // if there is at least on idle child, it will handle the connection, stop here
    if (fpm_request_is_idle_(child, now)) return;
  }
  warn_max_children = 0;
  fpm_children_make(true, 1, kOndemandAccept);
  // "[pool %s] got accept without idle child available .... I forked"
}

// --- C++ --------------------------------------------------------------------

bool fpm_worker_pool_s::fpm_request_is_idle_(const fpm_child_s& child, Time now) const {
  return child.request_stage == FPM_REQUEST_ACCEPTING && now >= child.started + config.child_start_;
}

// struct timeval's tv_sec from fpm_clock_get (CLOCK_MONOTONIC). C++: the
// pool's clock starts at 0; the monotonic clock then read a whole second
// and clock_phase_.
std::int64_t fpm_worker_pool_s::fpm_clock_sec_(Time t) const {
  return std::chrono::duration_cast<std::chrono::seconds>(t + config.clock_phase_).count();
}

Counters fpm_worker_pool_s::counters_() const {
  std::lock_guard lock(m_);
  // queued: the backlog, and the TCP connections waiting for a retransmission;
  // blocked: the clients waiting in a blocking connect().
  return Counters{static_cast<std::uint32_t>(running_children), static_cast<std::uint32_t>(busy_),
                  static_cast<std::uint32_t>(listening_socket.size() + syn_sent.size()),
                  static_cast<std::uint32_t>(next_ticket_ - now_serving_)};
}

int fpm_worker_pool_s::idle_() const {
  std::lock_guard lock(m_);
  const Time now = trace.clock().now();
  return static_cast<int>(std::count_if(children.begin(), children.end(),
                                        [&](const fpm_child_s& c) { return fpm_request_is_idle_(c, now); }));
}

int fpm_worker_pool_s::idle_spawn_rate_() const {
  std::lock_guard lock(m_);
  return idle_spawn_rate;
}

int fpm_worker_pool_s::max_children_reached_() const {
  std::lock_guard lock(m_);
  return max_children_reached;
}

}  // namespace poolscope::phpfpm
