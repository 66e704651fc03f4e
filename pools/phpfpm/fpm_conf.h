// fpm_conf.c: a pool's process-manager settings, their defaults
// (fpm_worker_pool_config_alloc) and their checks
// (fpm_conf_process_all_pools), with php-fpm's texts.
#pragma once

#include <string>
#include <vector>

namespace poolscope::phpfpm {

// fpm_conf.h: PM_STYLE_STATIC 1, PM_STYLE_DYNAMIC 2, PM_STYLE_ONDEMAND 3 (0: not set).
enum pm_style { PM_STYLE_UNSET = 0, PM_STYLE_STATIC = 1, PM_STYLE_DYNAMIC = 2, PM_STYLE_ONDEMAND = 3 };

// fpm_sockets.h: FPM_BACKLOG_DEFAULT, on Linux (FreeBSD and OpenBSD: -1).
inline constexpr int FPM_BACKLOG_DEFAULT = 511;

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
};

// fpm_worker_pool_config_alloc: everything 0, except listen_backlog =
// FPM_BACKLOG_DEFAULT, pm_max_spawn_rate = 32, pm_process_idle_timeout = 10.
fpm_worker_pool_config_s fpm_worker_pool_config_alloc();

// What fpm_conf_process_all_pools says about one pool: the first error (its
// ALERT text; the pool is refused), else "" and the NOTICE or WARNING lines
// it logged. It completes `c` as php-fpm does: pm.start_servers from the
// spare servers when unset, the spare servers forced to 0 for ondemand.
struct conf_check {
  std::string error;
  std::vector<std::string> notices;
};
conf_check fpm_conf_process_all_pools(fpm_worker_pool_config_s& c);

// "static", "dynamic", "ondemand".
const char* pm_style_name(pm_style pm);

}  // namespace poolscope::phpfpm
