// `weedge` behind the Pool interface, and its registry entry.
#include <algorithm>
#include <limits>
#include <mutex>
#include <string>

#include "pools/core/duration.h"
#include "pools/core/registry.h"
#include "pools/core/submit_gate.h"
#include "pools/core/sync.h"
#include "pools/weedge/workerpool.h"

namespace poolscope::weedge {
namespace {

int clampInt(std::int64_t v) {
  return static_cast<int>(std::clamp<std::int64_t>(v, 0, std::numeric_limits<std::int32_t>::max()));
}

std::unique_ptr<WorkerPool> make(const Params& p, const TraceTarget& target) {
  const int min = clampInt(p.integer("minWorkerNum"));
  const int max = clampInt(p.integer("maxWorkerNum"));
  const int size = clampInt(p.integer("taskChSize"));
  auto wp = NewWorkerPool(min, max, size, target, p.boolean("go123_timers"));
  if (!wp && (min <= 0 || min > max))
    throw ConfigError("/minWorkerNum", "worker pool init error , the min number: " + std::to_string(min) +
                                           " the max number: " + std::to_string(max) + " (weedge NewWorkerPool)");
  if (!wp) throw ConfigError("/taskChSize", "worker pool init error , the nChan : " + std::to_string(size));
  return wp;
}

class WeedgePool final : public Pool {
 public:
  WeedgePool(const Params& p, const TraceTarget& target) : impl_(make(p, target)), timeOut_(p.duration("TimeOut")) {
    impl_->Run();
  }
  ~WeedgePool() override { shutdown(ShutdownMode::graceful); }

  std::string_view design() const override { return "weedge"; }

  // AddTask with the scenario's task as Do and the design's TimeOut; no
  // ChIsTimeOut (a scenario has nobody to read it), no OnTimeOut. InParam
  // and OutParam must not be nil: they carry nothing here.
  SubmitResult submit(poolscope::Task task, const SubmitOptions&) override {
    return gate_.pass(impl_->trace_(), [&] {
      // An empty task is Go's nil Do func, which AddTask refuses ("add task
      // Do func is nil"); wrapped, it would reach a worker and be called.
      decltype(weedge::Task::Do) run;
      if (task)
        run = [fn = std::move(task)](std::any&, std::any&) mutable {
          fn();
          return true;
        };
      const Label refused = impl_->AddTask(weedge::Task{
          .Do = std::move(run),
          .InParam = true,
          .OutParam = true,
          .TimeOut = timeOut_,
      });
      return refused == kNoLabel ? SubmitResult::accept() : SubmitResult::refuse(refused);
    });
  }

  // graceful is Stop without its 30 s poll for blocked AddTasks (they are
  // refused at once: the channel closes under them); now also drops what
  // the channel holds. A pool with no worker left stops anyway.
  void shutdown(ShutdownMode mode) override {
    std::lock_guard g(shutdownLock_);
    const bool first = gate_.shut([&] { impl_->beginStop_(); });
    const int dropped = impl_->stop_(mode == ShutdownMode::now);
    if (first) impl_->trace_().stopped(stopped_rule(mode), dropped);
  }

  Counters state() const override { return impl_->counters_(); }
  json params() const override {
    return {{"minWorkerNum", impl_->minWorkerNum_()},
            {"maxWorkerNum", impl_->maxWorkerNum_()},
            {"taskChSize", impl_->taskChSize_()},
            {"TimeOut", format_duration(timeOut_)},
            {"go123_timers", impl_->go123_()}};
  }
  const PoolTrace& trace() const override { return impl_->trace_(); }

 private:
  std::unique_ptr<WorkerPool> impl_;
  const Nanos timeOut_;
  SubmitGate gate_;
  Mutex shutdownLock_;
};

Design weedge_design() {
  return Design{
      .name = "weedge",
      .summary =
          "weedge/lib workerpool (seed 002's author): min..max workers share one buffered channel that "
          "blocks when full; each task runs on its own goroutine against a per-task timeout; grows on "
          "backlog, shrinks after 30 s, with its quirks kept",
      .docs = "docs/pools/weedge.md",
      .origin = "design",
      .runtime = "goroutines",
      .params =
          {
              {.name = "minWorkerNum",
               .type = ParamType::integer,
               .default_value = 3,
               .min = 1,
               .unit = "workers",
               .help = "NewWorkerPool's min: Run starts this many; above it, a worker may exit after a task "
                       "(3 in the package's examples)"},
              {.name = "maxWorkerNum",
               .type = ParamType::integer,
               .default_value = 5,
               .min = 1,
               .unit = "workers",
               .help = "NewWorkerPool's max: the Worker slots made at init; growth stops here, and in fact after "
                       "max - min starts in the pool's life (5 in the examples)"},
              {.name = "taskChSize",
               .type = ParamType::integer,
               .default_value = 3,
               .min = 1,
               .unit = "tasks",
               .help = "chWorkTask's capacity: AddTask blocks while it is full; more than 1 and more than min/2 "
                       "waiting sends a growth token (3 in the examples)"},
              {.name = "TimeOut",
               .type = ParamType::duration,
               .default_value = "3s",
               .min = "0s",
               .help = "each task's TimeOut, from pickup: then ChIsTimeOut gets true and the worker moves on "
                       "while the task runs on (a task that panics sends no result: its worker waits for this too); "
                       "0: no Reset, the worker's timer still runs 30 s from init (3s in the examples)"},
              {.name = "go123_timers",
               .type = ParamType::boolean,
               .default_value = false,
               .help = "Go 1.23 timers: Reset drops a tick that fired unseen; false (go.mod's go 1.15): the stale "
                       "tick times out the worker's next task at once"},
          },
      .make = [](const Params& p, const TraceTarget& target) { return std::make_unique<WeedgePool>(p, target); },
  };
}

}  // namespace

POOLSCOPE_REGISTER_DESIGN(weedge_design);

}  // namespace poolscope::weedge
