// fpm_conf.c (PHP 8.2.32, Debian 12's source package; 8.2.33 to 8.2.36,
// the version measured, are security releases): the defaults, then the checks in fpm_conf_process_all_pools' order,
// with its texts ("[pool %s] ..." filled in).
#include "pools/phpfpm/fpm_conf.h"

#include <string>

namespace poolscope::phpfpm {

fpm_worker_pool_config_s fpm_worker_pool_config_alloc() {
  fpm_worker_pool_config_s c;  // memset(wp->config, 0, ...)
  c.listen_backlog = FPM_BACKLOG_DEFAULT;
  c.pm_max_spawn_rate = 32;
  c.pm_process_idle_timeout = 10;
  return c;
}

const char* pm_style_name(pm_style pm) {
  switch (pm) {
    case PM_STYLE_STATIC:
      return "static";
    case PM_STYLE_DYNAMIC:
      return "dynamic";
    case PM_STYLE_ONDEMAND:
      return "ondemand";
    default:
      return "";
  }
}

conf_check fpm_conf_process_all_pools(fpm_worker_pool_config_s& c) {
  conf_check r;
  const std::string pool = "[pool " + c.name + "] ";
  auto d = [](int v) { return std::to_string(v); };

  if (c.pm == PM_STYLE_UNSET) {
    r.error = pool + "the process manager is missing (static, dynamic or ondemand)";
    return r;
  }
  if (c.pm_max_children < 1) {
    r.error = pool + "pm.max_children must be a positive value";
    return r;
  }
  if (c.pm == PM_STYLE_DYNAMIC) {
    if (c.pm_min_spare_servers <= 0) {
      r.error = pool + "pm.min_spare_servers(" + d(c.pm_min_spare_servers) + ") must be a positive value";
      return r;
    }
    if (c.pm_max_spare_servers <= 0) {
      r.error = pool + "pm.max_spare_servers(" + d(c.pm_max_spare_servers) + ") must be a positive value";
      return r;
    }
    if (c.pm_min_spare_servers > c.pm_max_children || c.pm_max_spare_servers > c.pm_max_children) {
      r.error = pool + "pm.min_spare_servers(" + d(c.pm_min_spare_servers) + ") and pm.max_spare_servers(" +
                d(c.pm_max_spare_servers) + ") cannot be greater than pm.max_children(" + d(c.pm_max_children) + ")";
      return r;
    }
    if (c.pm_max_spare_servers < c.pm_min_spare_servers) {
      r.error = pool + "pm.max_spare_servers(" + d(c.pm_max_spare_servers) +
                ") must not be less than pm.min_spare_servers(" + d(c.pm_min_spare_servers) + ")";
      return r;
    }
    if (c.pm_start_servers <= 0) {
      c.pm_start_servers = c.pm_min_spare_servers + ((c.pm_max_spare_servers - c.pm_min_spare_servers) / 2);
      r.notices.push_back(pool + "pm.start_servers is not set. It's been set to " + d(c.pm_start_servers) + ".");
    } else if (c.pm_start_servers < c.pm_min_spare_servers || c.pm_start_servers > c.pm_max_spare_servers) {
      r.error = pool + "pm.start_servers(" + d(c.pm_start_servers) + ") must not be less than pm.min_spare_servers(" +
                d(c.pm_min_spare_servers) + ") and not greater than pm.max_spare_servers(" + d(c.pm_max_spare_servers) +
                ")";
      return r;
    }
    if (c.pm_max_spawn_rate < 1) {
      r.error = pool + "pm.max_spawn_rate must be a positive value";
      return r;
    }
  } else if (c.pm == PM_STYLE_ONDEMAND) {
    // C++: the events.mechanism check (epoll or kqueue) has nothing to check here.
    if (c.pm_process_idle_timeout < 1) {
      r.error = pool + "pm.process_idle_timeout(" + d(c.pm_process_idle_timeout) + "s) must be greater than 0s";
      return r;
    }
    // 8.2: only a backlog below -1 is "too low" (FPM_BACKLOG_DEFAULT is -1
    // since 8.2), so no backlog a user sets to 0 or more is ever warned of.
    if (c.listen_backlog < FPM_BACKLOG_DEFAULT) {
      r.notices.push_back(pool + "listen.backlog(" + d(c.listen_backlog) +
                          ") was too low for the ondemand process manager. I updated it for you to " +
                          d(FPM_BACKLOG_DEFAULT) + ".");
      c.listen_backlog = FPM_BACKLOG_DEFAULT;
    }
    // certainly useless but proper
    c.pm_start_servers = 0;
    c.pm_min_spare_servers = 0;
    c.pm_max_spare_servers = 0;
  }
  return r;
}

}  // namespace poolscope::phpfpm
