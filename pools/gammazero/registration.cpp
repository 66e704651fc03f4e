// `gammazero` behind the Pool interface, and its registry entry.
#include <algorithm>
#include <limits>

#include "pools/core/duration.h"
#include "pools/core/registry.h"
#include "pools/core/submit_gate.h"
#include "pools/gammazero/workerpool.h"

namespace poolscope::gammazero {
namespace {

class GammazeroPool final : public Pool {
 public:
  GammazeroPool(int max_workers, Nanos idle_timeout, const TraceTarget& target)
      : impl_(max_workers, {WithIdleTimeout(idle_timeout)}, target) {}
  ~GammazeroPool() override { shutdown(ShutdownMode::graceful); }

  std::string_view design() const override { return "gammazero"; }

  SubmitResult submit(Task task, const SubmitOptions&) override {
    return gate_.pass(impl_.trace(), [&] {
      return impl_.do_(std::move(task)) ? SubmitResult::refuse(rules::kErrStopped) : SubmitResult::accept();
    });
  }

  // graceful is StopWait (the queue runs), now is Stop (the queue is
  // abandoned: each task a task_dropped event, before the running tasks are
  // waited for). Submits already inside do_ finish first, so none is refused
  // with ErrStopped.
  void shutdown(ShutdownMode mode) override {
    gate_.shut();
    if (mode == ShutdownMode::graceful)
      impl_.stop_wait();
    else
      impl_.stop();
  }

  Counters state() const override { return impl_.counters(); }
  json params() const override {
    return {{"maxWorkers", impl_.size()}, {"idleTimeout", format_duration(impl_.idle_timeout())}};
  }
  const PoolTrace& trace() const override { return impl_.trace(); }

 private:
  WorkerPool impl_;
  SubmitGate gate_;
};

Design gammazero_design() {
  return Design{
      .name = "gammazero",
      .summary =
          "one dispatcher; an unbounded FIFO waiting queue absorbs bursts so Submit never blocks; workers "
          "start up to the max, and one idle worker stops per idle-timeout tick",
      .docs = "docs/pools/gammazero.md",
      .origin = "design",
      .runtime = "goroutines",
      .params =
          {
              {.name = "maxWorkers",
               .type = ParamType::integer,
               .default_value = 16,
               .min = 0,
               .unit = "workers",
               .help = "New(maxWorkers): at most this many tasks run at once; 0 becomes 1"},
              {.name = "idleTimeout",
               .type = ParamType::duration,
               .default_value = "2s",
               .help = "WithIdleTimeout: after each period with no new task, one idle worker stops; 0 = the "
                       "default 2s, < 0 = never"},
          },
      .make =
          [](const Params& p, const TraceTarget& target) {
            auto max_workers = std::min<std::int64_t>(p.integer("maxWorkers"), std::numeric_limits<int>::max());
            return std::make_unique<GammazeroPool>(static_cast<int>(max_workers), p.duration("idleTimeout"), target);
          },
  };
}

}  // namespace

POOLSCOPE_REGISTER_DESIGN(gammazero_design);

}  // namespace poolscope::gammazero
