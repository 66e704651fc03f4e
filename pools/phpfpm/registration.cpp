// `phpfpm` behind the Pool interface, and its registry entry. The
// parameters keep php-fpm.conf's directive names.
#include <algorithm>
#include <chrono>
#include <limits>
#include <mutex>
#include <stdexcept>
#include <string>

#include "pools/core/duration.h"
#include "pools/core/registry.h"
#include "pools/core/submit_gate.h"
#include "pools/core/sync.h"
#include "pools/phpfpm/fpm_worker_pool.h"

namespace poolscope::phpfpm {
namespace {

int clampInt(std::int64_t v) {
  return static_cast<int>(std::clamp<std::int64_t>(v, 0, std::numeric_limits<std::int32_t>::max()));
}

int signedInt(std::int64_t v) {
  return static_cast<int>(std::clamp<std::int64_t>(v, std::numeric_limits<std::int32_t>::min(),
                                                   std::numeric_limits<std::int32_t>::max()));
}

fpm_client_ clientOf(const std::string& client) {
  return client == "blocking-unix" ? FPM_CLIENT_BLOCKING_UNIX_ : client == "tcp" ? FPM_CLIENT_TCP_ : FPM_CLIENT_NONBLOCKING_UNIX_;
}
const char* client_name(fpm_client_ c) {
  return c == FPM_CLIENT_BLOCKING_UNIX_ ? "blocking-unix" : c == FPM_CLIENT_TCP_ ? "tcp" : "nonblocking-unix";
}

pm_style styleOf(const std::string& pm) {
  return pm == "static" ? PM_STYLE_STATIC : pm == "ondemand" ? PM_STYLE_ONDEMAND : PM_STYLE_DYNAMIC;
}

// The pool's config from the registry's values, checked as php-fpm checks
// it (fpm_conf_process_all_pools), its error the ConfigError's message.
fpm_worker_pool_config_s configOf(const Params& p, std::vector<std::string>& notices, int& backlog_set) {
  fpm_worker_pool_config_s c = fpm_worker_pool_config_alloc();
  c.pm = styleOf(p.choice("pm"));
  c.pm_max_children = clampInt(p.integer("pm.max_children"));
  c.pm_start_servers = clampInt(p.integer("pm.start_servers"));
  c.pm_min_spare_servers = clampInt(p.integer("pm.min_spare_servers"));
  c.pm_max_spare_servers = clampInt(p.integer("pm.max_spare_servers"));
  c.pm_max_spawn_rate = clampInt(p.integer("pm.max_spawn_rate"));
  c.pm_process_idle_timeout =
      clampInt(std::chrono::duration_cast<std::chrono::seconds>(p.duration("pm.process_idle_timeout")).count());
  c.pm_max_requests = clampInt(p.integer("pm.max_requests"));
  c.listen_backlog = signedInt(p.integer("listen.backlog"));
  c.somaxconn_ = clampInt(p.integer("net.core.somaxconn"));
  c.client_ = clientOf(p.choice("client"));
  c.fork_time_ = p.duration("fork_time");
  c.child_start_ = p.duration("child_start");
  c.clock_phase_ = p.duration("clock_phase");
  backlog_set = c.listen_backlog;  // before fpm_conf raises it, for its notice
  conf_check check = fpm_conf_process_all_pools(c);
  if (!check.error.empty()) {
    // The path is the directive the text names first ("[pool www] pm.max_children must ...").
    std::string path = "/pm";
    if (auto at = check.error.find("] pm."); at != std::string::npos) {
      auto end = check.error.find_first_not_of("abcdefghijklmnopqrstuvwxyz_.", at + 2);
      path = "/" + check.error.substr(at + 2, end - (at + 2));
    }
    throw ConfigError(path, check.error);
  }
  notices = std::move(check.notices);
  return c;
}

class PhpFpmPool final : public Pool {
 public:
  PhpFpmPool(fpm_worker_pool_config_s config, const std::vector<std::string>& notices, int backlog_set,
             const TraceTarget& target)
      : impl_(config, target) {
    // The NOTICE and WARNING lines fpm_conf logged, as state events.
    for (const std::string& n : notices) {
      if (n.find("pm.start_servers is not set") != std::string::npos)
        impl_.trace_().emit(EventKind::pool_state, rules::kStartServersNotSet, 0, 0, config.pm_start_servers);
      else
        impl_.trace_().emit(EventKind::pool_state, rules::kBacklogTooLow, 0, 0, backlog_set, FPM_BACKLOG_DEFAULT);
    }
  }
  ~PhpFpmPool() override { shutdown(ShutdownMode::graceful); }

  std::string_view design() const override { return "phpfpm"; }

  SubmitResult submit(Task task, const SubmitOptions&) override {
    // C++: php-fpm's requests are connections, never null; an empty task
    // would be called by a child. Refused here, before it is counted.
    if (!task) throw std::invalid_argument("phpfpm: submit needs a task");
    return gate_.pass(impl_.trace_(), [&] {
      const Label refused = impl_.connect_(Job{impl_.trace_().submitted(), std::move(task)});
      return refused == kNoLabel ? SubmitResult::accept() : SubmitResult::refuse(refused);
    });
  }

  // graceful: "finishing" (SIGQUIT), the backlog served first; now:
  // "terminating" (SIGTERM), the backlog reset. A second call waits for the first.
  void shutdown(ShutdownMode mode) override {
    std::lock_guard g(shutdownLock_);
    const bool first = gate_.shut([&] { impl_.fpm_listen_close_(); });
    const int dropped = impl_.fpm_pctl_(mode == ShutdownMode::now);
    if (first) impl_.trace_().stopped(stopped_rule(mode), dropped);
  }

  Counters state() const override { return impl_.counters_(); }
  json params() const override {
    const fpm_worker_pool_config_s& c = impl_.config_();
    return {{"pm", pm_style_name(c.pm)},
            {"pm.max_children", c.pm_max_children},
            {"pm.start_servers", c.pm_start_servers},
            {"pm.min_spare_servers", c.pm_min_spare_servers},
            {"pm.max_spare_servers", c.pm_max_spare_servers},
            {"pm.max_spawn_rate", c.pm_max_spawn_rate},
            {"pm.process_idle_timeout", format_duration(std::chrono::seconds(c.pm_process_idle_timeout))},
            {"pm.max_requests", c.pm_max_requests},
            {"listen.backlog", c.listen_backlog},
            {"net.core.somaxconn", c.somaxconn_},
            {"client", client_name(c.client_)},
            {"fork_time", format_duration(c.fork_time_)},
            {"child_start", format_duration(c.child_start_)},
            {"clock_phase", format_duration(c.clock_phase_)}};
  }
  const PoolTrace& trace() const override { return impl_.trace_(); }

 private:
  fpm_worker_pool_s impl_;
  SubmitGate gate_;
  Mutex shutdownLock_;
};

Design phpfpm_design() {
  return Design{
      .name = "phpfpm",
      .summary =
          "php-fpm's process manager, children as threads: the listen backlog is the only queue; "
          "static, dynamic (spare servers kept between min and max, forks doubling each second) or "
          "ondemand (a fork per wake-up of the master when no child is idle, idle children stopped after a "
          "timeout)",
      .docs = "docs/pools/phpfpm.md",
      .origin = "design",
      .runtime = "processes",
      .params =
          {
              {.name = "pm",
               .type = ParamType::choice,
               .default_value = "dynamic",
               .choices = {"static", "dynamic", "ondemand"},
               .help = "the process manager: a fixed number of children, spare servers kept between min and max, "
                       "or a child per connection"},
              {.name = "pm.max_children",
               .type = ParamType::integer,
               .default_value = 5,
               .min = 0,
               .unit = "children",
               .help = "the most children at once (static: always this many); must be positive"},
              {.name = "pm.start_servers",
               .type = ParamType::integer,
               .default_value = 2,
               .min = 0,
               .unit = "children",
               .help = "dynamic: children forked at start; 0 = min_spare + (max_spare - min_spare) / 2"},
              {.name = "pm.min_spare_servers",
               .type = ParamType::integer,
               .default_value = 1,
               .min = 0,
               .unit = "children",
               .help = "dynamic: fewer idle children than this at a tick: fork, at the doubling rate"},
              {.name = "pm.max_spare_servers",
               .type = ParamType::integer,
               .default_value = 3,
               .min = 0,
               .unit = "children",
               .help = "dynamic: more idle children than this at a tick: stop the oldest idle one (one per second)"},
              {.name = "pm.max_spawn_rate",
               .type = ParamType::integer,
               .default_value = 32,
               .min = 0,
               .unit = "children",
               .help = "dynamic: the most children forked in one tick; the rate doubles from 1 each tick while "
                       "short"},
              {.name = "pm.process_idle_timeout",
               .type = ParamType::duration,
               .default_value = "10s",
               .min = "0s",
               .help = "ondemand: a child idle longer than this (whole seconds) is stopped at a tick, the oldest "
                       "first, one per second"},
              {.name = "pm.max_requests",
               .type = ParamType::integer,
               .default_value = 0,
               .min = 0,
               .unit = "requests",
               .help = "a child that has served this many requests exits and is replaced at once; 0 = never"},
              {.name = "listen.backlog",
               .type = ParamType::integer,
               .default_value = FPM_BACKLOG_DEFAULT,
               .min = std::numeric_limits<std::int32_t>::min(),
               .unit = "connections",
               .help = "the listening socket's backlog, the only queue; -1 (8.2's default) or above "
                       "net.core.somaxconn: somaxconn; Linux holds one more"},
              // C++: the model around php-fpm (docs/pools/phpfpm.md, "The model around php-fpm").
              {.name = "net.core.somaxconn",
               .type = ParamType::integer,
               .default_value = 4096,
               .min = 0,
               .unit = "connections",
               .help = "model: the kernel's cap on a listen backlog (Debian 12: 4096)"},
              {.name = "client",
               .type = ParamType::choice,
               .default_value = "nonblocking-unix",
               .choices = {"nonblocking-unix", "blocking-unix", "tcp"},
               .help = "model: who connects, which decides what a full backlog does: refused at once (nginx on a "
                       "unix socket), a wait for room in turn, or a SYN sent again after 1 s (TCP)"},
              {.name = "fork_time",
               .type = ParamType::duration,
               .default_value = "600us",
               .min = "0s",
               .help = "model: the master's time in fork() per child it forks in its event loop (no epoll_wait "
                       "meanwhile)"},
              {.name = "child_start",
               .type = ParamType::duration,
               .default_value = "1.5ms",
               .min = "0s",
               .help = "model: a child's time from fork() to its first accept() (measured 1-2 ms); it is not idle "
                       "meanwhile"},
              {.name = "clock_phase",
               .type = ParamType::duration,
               .default_value = "0s",
               .min = "0s",
               .max = "999ms",
               .help = "model: CLOCK_MONOTONIC's fraction of a second when the pool starts; ondemand's idle stop "
                       "compares whole seconds"},
          },
      .make =
          [](const Params& p, const TraceTarget& target) {
            std::vector<std::string> notices;
            int backlog_set = 0;
            fpm_worker_pool_config_s c = configOf(p, notices, backlog_set);
            return std::make_unique<PhpFpmPool>(c, notices, backlog_set, target);
          },
  };
}

}  // namespace

POOLSCOPE_REGISTER_DESIGN(phpfpm_design);

}  // namespace poolscope::phpfpm
