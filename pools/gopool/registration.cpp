// `gopool` behind the Pool interface, and its registry entry.
#include <algorithm>
#include <limits>
#include <mutex>

#include "pools/core/registry.h"
#include "pools/core/submit_gate.h"
#include "pools/core/sync.h"
#include "pools/gopool/pool.h"

namespace poolscope::gopool {
namespace {

std::int32_t clamp32(std::int64_t v) {
  return static_cast<std::int32_t>(
      std::clamp<std::int64_t>(v, std::numeric_limits<std::int32_t>::min(), std::numeric_limits<std::int32_t>::max()));
}

class GopoolPool final : public Pool {
 public:
  GopoolPool(const Params& p, const TraceTarget& target)
      : impl_("gopool", clamp32(p.integer("cap")), Config{.ScaleThreshold = clamp32(p.integer("ScaleThreshold"))},
              target),
        logger_(p.choice("Logger")) {
    if (logger_ == "discard") impl_.set_logger_([](const Context&, const std::string&) {});
  }
  ~GopoolPool() override { shutdown(ShutdownMode::graceful); }

  std::string_view design() const override { return "gopool"; }

  // Go: every task is accepted; the list has no bound.
  SubmitResult submit(Task task, const SubmitOptions&) override {
    return gate_.pass(impl_.trace_(), [&] {
      impl_.Go(std::move(task));
      return SubmitResult::accept();
    });
  }

  // gopool has no Stop. graceful: the workers empty the list and exit by
  // themselves; now: the list is dropped first. A second call waits for the first.
  void shutdown(ShutdownMode mode) override {
    std::lock_guard g(shutdownLock_);
    const bool first = gate_.shut();
    const int dropped = impl_.shutdown_(mode == ShutdownMode::now);
    if (first) impl_.trace_().stopped(stopped_rule(mode), dropped);
  }

  Counters state() const override { return impl_.counters_(); }
  json params() const override {
    return {{"cap", impl_.cap_()}, {"ScaleThreshold", impl_.config_().ScaleThreshold}, {"Logger", logger_}};
  }
  void set_param(std::string_view name, const ParamValue& value) override {
    if (name != "cap") return Pool::set_param(name, value);
    impl_.SetCap(clamp32(value.integer()));
  }
  const PoolTrace& trace() const override { return impl_.trace_(); }

 private:
  pool impl_;
  std::string logger_;
  SubmitGate gate_;
  Mutex shutdownLock_;
};

Design gopool_design() {
  return Design{
      .name = "gopool",
      .summary =
          "bytedance gopool: an unbounded task list under a lock; a worker starts per task up to cap and "
          "exits the moment the list is empty: never an idle worker",
      .docs = "docs/pools/gopool.md",
      .origin = "design",
      .runtime = "goroutines",
      .params =
          {
              {.name = "cap",
               .type = ParamType::integer,
               .default_value = 10000,
               .min = 0,
               .max = std::numeric_limits<std::int32_t>::max(),
               .unit = "workers",
               .live = true,
               .help = "NewPool's cap: at most this many workers, except that one always starts when none runs; "
                       "SetCap changes it live (it stops nobody). 10000: the default pool's cap until 2023"},
              {.name = "ScaleThreshold",
               .type = ParamType::integer,
               .default_value = defaultScalaThreshold,
               .min = 0,
               .max = std::numeric_limits<std::int32_t>::max(),
               .unit = "tasks",
               .help = "Config.ScaleThreshold: CtxGo starts one more worker when the list holds at least this many "
                       "tasks (1: every task)"},
              {.name = "Logger",
               .type = ParamType::choice,
               .default_value = "stderr",
               .choices = {"stderr", "discard"},
               .help = "where \"GOPOOL: panic in pool: ...\" goes when a task throws (there is no panic handler "
                       "here): gopkg's default logger, or nowhere"},
          },
      .make = [](const Params& p, const TraceTarget& target) { return std::make_unique<GopoolPool>(p, target); },
  };
}

}  // namespace

POOLSCOPE_REGISTER_DESIGN(gopool_design);

}  // namespace poolscope::gopool
