// php-fpm's process manager (php/php-src sapi/fpm/fpm: fpm_process_ctl.c at
// 8daa1d9, fpm_children.c at 00443c7, fpm_conf.c at 1851e77; PHP 8.2-8.3,
// with pm.max_spawn_rate and the SIGKILL of a child chosen twice). A master
// forks children that accept() connections straight from the pool's
// listening socket: the kernel's listen backlog is the only queue, and past
// it a connection is refused. Once a second the master reads every child's
// scoreboard stage (idle = waiting in accept) and forks or stops children:
//   static    pm.max_children children, always
//   dynamic   keep the idle children between pm.min_spare_servers and
//             pm.max_spare_servers: one stopped per second when too many are
//             idle; when too few, fork at a rate that doubles every second
//             while still short (1, 2, 4 ... up to pm.max_spawn_rate)
//   ondemand  fork one child per connection that finds none idle; stop the
//             oldest idle child once idle past pm.process_idle_timeout
// A child that has served pm.max_requests exits and is replaced at once.
//
// C++: children are threads, not processes. That changes what a process
// gives php-fpm: no address space of its own (a crashing request would take
// every child with it; a leak is shared, not freed by recycling), no fork or
// copy-on-write cost, a thread's stack instead of a process's memory. It
// changes none of the rules above: the counts, the one-second ticks, the
// doubling, the warnings, the backlog. Signals become flags: SIGQUIT ("finish
// this request, accept no other") is the child's quit flag; SIGKILL, which
// has no thread analogue, is traced when a child is chosen a second time.
//
// Read the .cpp files beside php-fpm's: fpm_children.cpp (fpm_children.c),
// fpm_process_ctl.cpp (fpm_process_ctl.c), fpm_main.cpp (the child's request
// loop of fpm_main.c), fpm_conf.cpp (fpm_conf.c). The C names are kept; what
// C++ adds ends in an underscore; a `// C++:` comment marks each difference.
#pragma once

#include <atomic>
#include <cstdint>
#include <deque>
#include <list>

#include "pools/core/go/thread_group.h"
#include "pools/core/pool_trace.h"
#include "pools/core/sync.h"
#include "pools/core/thread.h"
#include "pools/phpfpm/fpm_conf.h"
#include "pools/phpfpm/fpm_request.h"
#include "pools/phpfpm/rules.h"

namespace poolscope::phpfpm {

// fpm_process_ctl.h
inline constexpr Nanos FPM_IDLE_SERVER_MAINTENANCE_HEARTBEAT = std::chrono::milliseconds(1000);
enum fpm_pctl_state { FPM_PCTL_STATE_NORMAL = 1, FPM_PCTL_STATE_FINISHING, FPM_PCTL_STATE_TERMINATING };

// struct fpm_child_s, with its scoreboard slot (C++: kept with the child).
struct fpm_child_s {
  WorkerId pid = 0;  // C++: the worker's id in the trace
  Time started{};    // fork time
  bool idle_kill = false;
  // the scoreboard proc slot
  int request_stage = 0;
  Time tv{};  // the last stage change
  int requests = 0;
  // C++: SIGQUIT (or SIGTERM) received: the listening socket is closed for
  // this child, it exits after its current request. `quit_rule` says why.
  bool quit = false;
  Label quit_rule = kNoLabel;
};

class fpm_worker_pool_s {
 public:
  // The pool starts: fpm_children_create_initial, then the master's
  // maintenance heartbeat. `config` must have passed fpm_conf_process_all_pools.
  fpm_worker_pool_s(fpm_worker_pool_config_s config, const TraceTarget& target);
  ~fpm_worker_pool_s();  // C++: shuts down as fpm_pctl_(false) does
  fpm_worker_pool_s(const fpm_worker_pool_s&) = delete;
  fpm_worker_pool_s& operator=(const fpm_worker_pool_s&) = delete;

  // C++: a client's connect(): the connection waits in the listen backlog
  // until a child accepts it; refused (kBacklogFull) when the backlog is
  // full. For ondemand, each connection is one accept event on the
  // listening socket (fpm_pctl_on_socket_accept runs here, at once).
  // Returns kNoLabel when the connection was queued.
  Label connect_(Job job);

  // C++: poolscope's shutdown, after fpm_pctl. graceful ("finishing",
  // SIGQUIT): no more forks; the children serve the backlog, then exit.
  // now ("terminating"): the backlog's connections are reset (dropped),
  // every child exits after its current request. Returns those dropped.
  int fpm_pctl_(bool terminating);

  // C++: the state: children, children in a request, connections in the backlog.
  Counters counters_() const;
  int idle_() const;  // C++: children whose stage is FPM_REQUEST_ACCEPTING
  int idle_spawn_rate_() const;
  int max_children_reached_() const;  // the scoreboard's "max children reached"
  const fpm_worker_pool_config_s& config_() const { return config; }
  PoolTrace& trace_() { return trace; }
  const PoolTrace& trace_() const { return trace; }

 private:
  // fpm_children.c
  int fpm_children_make(bool in_event_loop, int nb_to_spawn, Label rule);
  void fpm_children_create_initial();
  void fpm_children_bury(fpm_child_s& child, Label why);
  // fpm_process_ctl.c
  bool fpm_pctl_can_spawn_children() const { return fpm_state == FPM_PCTL_STATE_NORMAL; }
  void fpm_pctl_kill_idle_child(fpm_child_s& child, Label rule, Time now);
  void fpm_pctl_perform_idle_server_maintenance(Time now);
  void fpm_pctl_perform_idle_server_maintenance_heartbeat(Time first);
  void fpm_pctl_on_socket_accept();
  // fpm_main.c: the child's request loop
  void fpm_child_main(fpm_child_s& child);
  // C++: fork() as a thread; false if the OS refused it ("fork() failed").
  bool fork_(Label rule);

  PoolTrace trace;
  const fpm_worker_pool_config_s config;

  // struct fpm_worker_pool_s
  std::list<fpm_child_s> children;  // new children at the head (fpm_child_link)
  int running_children = 0;
  int idle_spawn_rate = 1;
  int warn_max_children = 0;
  std::deque<Job> listening_socket;  // C++: its listen backlog, accept() takes the front
  int max_children_reached = 0;      // the scoreboard's counter
  int fpm_state = FPM_PCTL_STATE_NORMAL;

  // C++: one lock for what the master, the children and connect() share
  // (php-fpm's master is single-threaded; the scoreboard is shared memory).
  mutable Mutex m_;
  CondVar accept_;  // children waiting in accept()
  CondVar master_;  // the master waiting for its next heartbeat
  bool master_stop_ = false;
  int busy_ = 0;  // C++: children in a request
  go::ThreadGroup children_threads_;
  Thread master_thread_;
};

}  // namespace poolscope::phpfpm
