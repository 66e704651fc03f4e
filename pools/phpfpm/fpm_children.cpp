// fpm_children.c, in its order: fpm_children_bury (a child exited),
// fpm_children_make (fork while allowed and below the target),
// fpm_children_create_initial; then the pool's construction and C++'s fork_.
#include <mutex>
#include <string>
#include <system_error>

#include "pools/phpfpm/fpm_worker_pool.h"

namespace poolscope::phpfpm {

using namespace rules;

// Runs on the exiting child's thread, under m_ (C++: php-fpm's master reaps
// on SIGCHLD; here the child reports its own end). Unlink, free, and respawn
// exactly one unless the process manager stopped it.
void fpm_worker_pool_s::fpm_children_bury(fpm_child_s& child, Label why) {
  // a child killed by the process management is not restarted
  const bool restart_child = !child.idle_kill;
  trace.exited(child.pid, why);
  // fpm_child_unlink, fpm_scoreboard_proc_free
  for (auto it = children.begin(); it != children.end(); ++it) {
    if (&*it == &child) {
      children.erase(it);
      break;
    }
  }
  running_children--;
  if (restart_child) fpm_children_make(true, 1, kRespawn);
  // C++: wakes a graceful shutdown waiting for the backlog's last child.
  master_.notify_all();
}

int fpm_worker_pool_s::fpm_children_make(bool in_event_loop, int nb_to_spawn, Label rule) {
  int max = 0;
  if (config.pm == PM_STYLE_DYNAMIC) {
    max = !in_event_loop ? config.pm_start_servers : running_children + nb_to_spawn;
  } else if (config.pm == PM_STYLE_ONDEMAND) {
    max = !in_event_loop ? 0 : running_children + nb_to_spawn;  // do not create any child at startup
  } else {                                                      // PM_STYLE_STATIC
    max = config.pm_max_children;
  }
  // fork children while:
  //   - fpm_pctl_can_spawn_children : FPM is running in a NORMAL state (aka not restart, stop or reload)
  //   - wp->running_children < max  : there is less than the max process for the current pool
  // C++: the third condition, the global process.max, has no pool to count here.
  while (fpm_pctl_can_spawn_children() && running_children < max) {
    if (!fork_(rule)) return 2;  // "fork() failed"
  }
  return 1;  // we are done
}

void fpm_worker_pool_s::fpm_children_create_initial() {
  // ondemand registers the listening socket's event instead (FPM_EV_READ |
  // FPM_EV_EDGE, fpm_pctl_on_socket_accept): a connection readies it
  // (listen_queue_push_), the master's event loop fires it.
  if (config.pm == PM_STYLE_ONDEMAND) return;
  fpm_children_make(false, 0, config.pm == PM_STYLE_STATIC ? kStaticChildren : kStartServers);
}

fpm_worker_pool_s::fpm_worker_pool_s(fpm_worker_pool_config_s c, const TraceTarget& target)
    : trace(target, "phpfpm"), config(c) {
  std::unique_lock lock(m_);
  fpm_children_create_initial();
  lock.unlock();
  // fpm_event_add(&heartbeat, FPM_IDLE_SERVER_MAINTENANCE_HEARTBEAT): armed now, not when the master's thread runs.
  const Time first = trace.clock().now() + FPM_IDLE_SERVER_MAINTENANCE_HEARTBEAT;
  try {
    master_thread_ = Thread("php-fpm-master", [this, first] { fpm_event_loop(first); });
    // C++: the TCP client's kernel, which retransmits the SYNs a full backlog dropped.
    if (config.client_ == FPM_CLIENT_TCP_) tcp_client_thread_ = Thread("tcp-client", [this] { tcp_client_retransmit_(); });
  } catch (...) {
    // C++: no master, no pool (php-fpm would not start). The children
    // already forked are told to quit and joined first, or destroying them
    // here would wait for ever.
    fpm_pctl_(true);
    throw;
  }
}

fpm_worker_pool_s::~fpm_worker_pool_s() { fpm_pctl_(false); }

// pid = fork(): the child is linked at the head of the list, counted, and its
// thread started. Under m_.
bool fpm_worker_pool_s::fork_(Label rule) {
  fpm_child_s& child = children.emplace_front();
  child.pid = trace.new_worker_id();
  child.started = trace.clock().now();
  running_children++;
  forks_++;
  trace.spawned(child.pid, rule);
  try {
    children_threads_.go("php-fpm-" + std::to_string(child.pid), [this, &child] { fpm_child_main(child); });
  } catch (const std::system_error&) {
    running_children--;
    trace.exited(child.pid, poolscope::rules::thread_create_failed());
    children.pop_front();
    return false;
  }
  return true;
}

}  // namespace poolscope::phpfpm
