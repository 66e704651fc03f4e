// php-fpm's process manager (php/php-src sapi/fpm/fpm: fpm_process_ctl.c at
// 8daa1d9, fpm_children.c at 00443c7, fpm_conf.c at 1851e77; checked against
// PHP 8.2.32, Debian 12's source package (8.2.33 to 8.2.36, the version
// measured, are security releases): pm.max_spawn_rate, the SIGKILL of a child chosen
// twice, listen.backlog -1). A master forks children that accept()
// connections straight from the pool's listening socket: the kernel's listen
// backlog is the only queue. Once a second the master reads every child's
// scoreboard stage (idle = waiting in accept) and forks or stops children:
//   static    pm.max_children children, always
//   dynamic   keep the idle children between pm.min_spare_servers and
//             pm.max_spare_servers: one stopped per second when too many are
//             idle; when too few, fork at a rate that doubles every second
//             while still short (1, 2, 4 ... up to pm.max_spawn_rate)
//   ondemand  the listening socket's edge-triggered event wakes the master:
//             if no child is idle, it forks one, once per wake-up (not per
//             connection); the oldest idle child is stopped once idle past
//             pm.process_idle_timeout, in whole seconds of CLOCK_MONOTONIC
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
// What a fork() and a child's start cost, and what the kernel and the client
// do with a full backlog, are the model's parameters (fpm_conf.h, C++).
//
// Read the .cpp files beside php-fpm's: fpm_children.cpp (fpm_children.c),
// fpm_process_ctl.cpp (fpm_process_ctl.c), fpm_events.cpp (fpm_events.c's
// loop, the master's), fpm_main.cpp (the child's request loop of fpm_main.c),
// fpm_sockets.cpp (the kernel's side of the listening socket, and the
// client's), fpm_conf.cpp (fpm_conf.c). The C names are kept; what C++ adds
// ends in an underscore; a `// C++:` comment marks each difference.
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

  // C++: a client's connect() (fpm_sockets.cpp): the connection waits in
  // the listen backlog until a child accepts it. The backlog holds
  // min(listen.backlog as unsigned, somaxconn) + 1 connections, as Linux's;
  // when it is full, the client decides: refused (kBacklogFull, a
  // non-blocking unix socket), a wait for room (a blocking one), or a SYN
  // retransmitted later (TCP). For ondemand, a connection raises the
  // listening socket's edge-triggered event; the master handles it.
  // Returns kNoLabel when the connection was taken.
  Label connect_(Job job);
  // C++: the listening socket closes (the pool shuts down): a client waiting
  // in connect() is refused.
  void fpm_listen_close_();

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
  int listen_queue_limit_() const;    // C++: the connections the backlog holds
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
  void fpm_pctl_perform_idle_server_maintenance_heartbeat(Time now);
  void fpm_pctl_on_socket_accept();
  // fpm_events.c: the master's event loop, its only thread
  void fpm_event_loop(Time first_heartbeat);
  // fpm_main.c: the child's request loop
  void fpm_child_main(fpm_child_s& child);
  // C++: fork() as a thread; false if the OS refused it ("fork() failed").
  bool fork_(Label rule);
  // fpm_request_is_idle: the child waits in accept(). C++: and its
  // child_start_ since its fork has passed (a thread has no start-up).
  bool fpm_request_is_idle_(const fpm_child_s& child, Time now) const;
  // C++: fpm_clock_get()'s tv_sec at pool time t (clock_phase_ after a whole second at t = 0).
  std::int64_t fpm_clock_sec_(Time t) const;
  // C++: the kernel's side (fpm_sockets.cpp): a connection into the backlog;
  // is it full; the TCP client's kernel retransmitting dropped SYNs.
  void listen_queue_push_(Job job);
  bool listen_queue_full_() const;
  void tcp_client_retransmit_();

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

  // The listening socket's event (fpm_children_create_initial registers it
  // for ondemand, FPM_EV_READ | FPM_EV_EDGE). C++: epoll's ready list: a
  // connection sets it, the master's wake-up takes it; connections that
  // arrive before the master takes it make no second event.
  bool ondemand_event_ready_ = false;

  // C++: one lock for what the master, the children and connect() share
  // (php-fpm's master is single-threaded; the scoreboard is shared memory).
  mutable Mutex m_;
  CondVar accept_;  // children waiting in accept()
  CondVar master_;  // the master waiting in epoll_wait: the socket's event or its next heartbeat
  bool master_stop_ = false;
  int busy_ = 0;   // C++: children in a request
  int forks_ = 0;  // C++: every fork, so the master can spend fork_time_ per child it forked
  // C++: the client's side (fpm_sockets.cpp). A blocking unix connect()
  // waits its turn (tickets: first come first served) for room; a TCP
  // connection whose SYN was dropped waits in the client's kernel for its
  // retransmission.
  struct syn_sent_ {
    Job job;
    Time retransmit;
    int attempts = 0;
  };
  CondVar room_;
  std::uint64_t next_ticket_ = 0, now_serving_ = 0;
  bool listen_closed_ = false;
  std::deque<syn_sent_> syn_sent;
  CondVar tcp_client_;
  go::ThreadGroup children_threads_;
  Thread master_thread_;
  Thread tcp_client_thread_;
};

}  // namespace poolscope::phpfpm
