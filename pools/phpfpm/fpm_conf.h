// fpm_conf.c: a pool's process-manager settings, their defaults
// (fpm_worker_pool_config_alloc) and their checks
// (fpm_conf_process_all_pools), with php-fpm's texts.
#pragma once

#include <string>
#include <vector>

#include "pools/core/clock.h"

namespace poolscope::phpfpm {

// fpm_conf.h: PM_STYLE_STATIC 1, PM_STYLE_DYNAMIC 2, PM_STYLE_ONDEMAND 3 (0: not set).
enum pm_style { PM_STYLE_UNSET = 0, PM_STYLE_STATIC = 1, PM_STYLE_DYNAMIC = 2, PM_STYLE_ONDEMAND = 3 };

// fpm_sockets.h: FPM_BACKLOG_DEFAULT on Linux, FreeBSD, OpenBSD and macOS
// since PHP 8.2 ("Changed default for listen.backlog on Linux to -1"; 511
// before): listen() truncates a negative backlog to net.core.somaxconn.
inline constexpr int FPM_BACKLOG_DEFAULT = -1;

// C++: who connects to the pool's socket, which decides what a full backlog
// does (Linux: unix_stream_connect, tcp_conn_request). Not php-fpm's: its
// client's (docs/pools/phpfpm.md, "The model around php-fpm").
enum fpm_client_ {
  FPM_CLIENT_NONBLOCKING_UNIX_,  // nginx's connect(): EAGAIN at once, refused (502)
  FPM_CLIENT_BLOCKING_UNIX_,     // waits in connect() for room, first come first served
  FPM_CLIENT_TCP_,               // the SYN is dropped; the client's kernel retransmits it
};

// The fields of struct fpm_worker_pool_config_s this design uses, by their C names.
struct fpm_worker_pool_config_s {
  std::string name = "www";  // C++: php-fpm.conf's stock pool, [www]
  pm_style pm = PM_STYLE_UNSET;
  int pm_max_children = 0;
  int pm_start_servers = 0;
  int pm_min_spare_servers = 0;
  int pm_max_spare_servers = 0;
  int pm_max_spawn_rate = 0;
  int pm_process_idle_timeout = 0;  // seconds
  int pm_max_requests = 0;          // 0: a child is never recycled
  int listen_backlog = 0;

  // C++: the model around php-fpm, not php-fpm.conf's; all 0 (or the
  // kernel's) from fpm_worker_pool_config_alloc, the measured values in the
  // registry (docs/pools/phpfpm.md, "The model around php-fpm").
  int somaxconn_ = 4096;  // net.core.somaxconn: listen() caps the backlog at it (Debian 12: 4096)
  fpm_client_ client_ = FPM_CLIENT_NONBLOCKING_UNIX_;
  Nanos fork_time_{0};    // the master's time in fork(), per child it forks in its event loop
  Nanos child_start_{0};  // a child's time from fork() to its first accept(): not idle meanwhile
  Nanos clock_phase_{0};  // CLOCK_MONOTONIC's fraction of a second when the pool starts (t = 0)
};

// fpm_worker_pool_config_alloc: everything 0, except listen_backlog =
// FPM_BACKLOG_DEFAULT, pm_max_spawn_rate = 32, pm_process_idle_timeout = 10.
// C++: the model's fields keep their defaults above (no time spent).
fpm_worker_pool_config_s fpm_worker_pool_config_alloc();

// What fpm_conf_process_all_pools says about one pool: the first error (its
// ALERT text; the pool is refused), else "" and the NOTICE or WARNING lines
// it logged. It completes `c` as php-fpm 8.2 does: pm.start_servers from the
// spare servers when unset, an ondemand listen.backlog below -1 raised to -1,
// the spare servers forced to 0 for ondemand.
struct conf_check {
  std::string error;
  std::vector<std::string> notices;
};
conf_check fpm_conf_process_all_pools(fpm_worker_pool_config_s& c);

// "static", "dynamic", "ondemand".
const char* pm_style_name(pm_style pm);

}  // namespace poolscope::phpfpm
