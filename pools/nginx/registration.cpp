// `nginx` behind the Pool interface, and its registry entry. The adapter is
// the nginx worker process's caller: submit allocates a task and posts it;
// graceful shutdown is ngx_quit, shutdown-now ngx_terminate.
#include <mutex>

#include "pools/core/duration.h"
#include "pools/core/registry.h"
#include "pools/core/submit_gate.h"
#include "pools/nginx/thread_pool.h"

namespace poolscope::nginx {
namespace {

class NginxPool final : public Pool {
 public:
  NginxPool(const Params& p, const TraceTarget& target)
      : tp_(Config{.threads = static_cast<ngx_uint_t>(p.integer("threads")),
                   .max_queue = p.integer("max_queue"),
                   .completion_ = p.duration("completion_cost"),
                   .network_events_ = p.integer("network_events"),
                   .network_event_ = p.duration("network_event_cost")},
            target) {}
  ~NginxPool() override { shutdown(ShutdownMode::graceful); }

  std::string_view design() const override { return "nginx"; }

  SubmitResult submit(Task task, const SubmitOptions&) override {
    return gate_.pass(tp_.trace(), [&] {
      return tp_.ngx_thread_task_post(tp_.ngx_thread_task_alloc(std::move(task))) == NGX_OK
                 ? SubmitResult::accept()
                 : SubmitResult::refuse(kQueueOverflow);
    });
  }

  // graceful: ngx_quit, every accepted task runs and completes; now:
  // ngx_terminate, the queue is dropped and the running tasks finish.
  void shutdown(ShutdownMode mode) override {
    const bool first = gate_.shut();
    std::lock_guard g(shutdown_);
    const std::size_t dropped = mode == ShutdownMode::graceful ? (tp_.quit(), 0) : tp_.terminate();
    if (first) tp_.trace().stopped(stopped_rule(mode), static_cast<std::int64_t>(dropped));
  }

  Counters state() const override { return tp_.state(); }
  json params() const override {
    return {{"threads", tp_.config().threads},
            {"max_queue", tp_.config().max_queue},
            {"completion_cost", format_duration(tp_.config().completion_)},
            {"network_events", tp_.config().network_events_},
            {"network_event_cost", format_duration(tp_.config().network_event_)}};
  }
  const PoolTrace& trace() const override { return tp_.trace(); }

 private:
  ThreadPool tp_;
  SubmitGate gate_;
  Mutex shutdown_;
};

Design nginx_design() {
  return Design{
      .name = "nginx",
      .summary = "a fixed set of threads started at init and one FIFO queue; a post is refused once max_queue tasks "
                 "wait; finished tasks go back to the one event-loop thread, which runs their completions",
      .docs = "docs/pools/nginx.md",
      .origin = "design",
      .runtime = "os-threads",
      .params =
          {
              {.name = "threads",
               .type = ParamType::integer,
               .default_value = kDefaultThreads,
               .min = 1,
               .max = 4096,
               .unit = "threads",
               .help = "thread_pool's threads=N, per worker process: all started with it, never more, never fewer "
                       "(the pool \"default\" gets 32)"},
              {.name = "max_queue",
               .type = ParamType::integer,
               .default_value = kDefaultMaxQueue,
               .min = 0,
               .unit = "tasks",
               .help = "thread_pool's max_queue=M: a post is refused once this many tasks wait beyond the idle "
                       "threads (default 65536; 0: hand to an idle thread or refuse)"},
              {.name = "completion_cost",
               .type = ParamType::duration,
               .default_value = "0s",
               .help = "CPU the event loop spends in each task's completion handler (the request goes on there); "
                       "not an nginx setting: the work the one loop does per task"},
              {.name = "network_events",
               .type = ParamType::integer,
               .default_value = 0,
               .min = 0,
               .max = 10000000,
               .unit = "per second",
               .help = "other connections' events the same event loop serves, evenly spaced; a completion waits "
                       "behind those ready before it"},
              {.name = "network_event_cost",
               .type = ParamType::duration,
               .default_value = "0s",
               .help = "CPU the event loop spends on each of those network events"},
          },
      .make = [](const Params& p, const TraceTarget& target) { return std::make_unique<NginxPool>(p, target); },
  };
}

}  // namespace

POOLSCOPE_REGISTER_DESIGN(nginx_design);

}  // namespace poolscope::nginx
