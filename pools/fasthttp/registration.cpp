// `fasthttp` behind the Pool interface (and, with flavor=rulego, rulego's
// copy behind its engine's SubmitTask), and its registry entry.
#include <string>

#include "pools/core/duration.h"
#include "pools/core/registry.h"
#include "pools/core/submit_gate.h"
#include "pools/fasthttp/rulego.h"
#include "pools/fasthttp/worker_pool.h"

namespace poolscope::fasthttp {
namespace {

Config config_from(const Params& p) {
  const std::string& cap = p.choice("workerChanCap");
  return Config{
      .MaxWorkersCount = static_cast<int>(p.integer("MaxWorkersCount")),
      .MaxIdleWorkerDuration = p.duration("MaxIdleWorkerDuration"),
      .workerChanCap_ = cap == "auto" ? workerChanCap(go::gomaxprocs()) : std::stoi(cap),
  };
}

class FasthttpPool final : public Pool {
 public:
  // Server.Serve starts its workerPool before accepting the first connection.
  FasthttpPool(const Params& params, const TraceTarget& target) : params_(params), wp_(config_from(params), target) {
    wp_.start();
  }
  ~FasthttpPool() override { shutdown(ShutdownMode::graceful); }

  std::string_view design() const override { return "fasthttp"; }

  SubmitResult submit(Task task, const SubmitOptions&) override {
    return gate_.pass(wp_.trace(), [&] {
      auto served = wp_.serve(std::move(task));
      return served ? SubmitResult::accept() : SubmitResult::refuse(served.error());
    });
  }

  // fasthttp never queues: a task is refused or handed to a worker, which
  // runs it. So both modes stop the pool and wait for the busy workers, and
  // neither drops anything.
  void shutdown(ShutdownMode mode) override {
    const bool first = gate_.shut();
    std::lock_guard g(shutdown_);  // stop() is not safe to call concurrently (nor is Go's Stop)
    wp_.stop();
    wp_.join();
    if (first) wp_.trace().stopped(stopped_rule(mode), 0);
  }

  Counters state() const override { return wp_.state(); }
  json params() const override { return params_.config_json(); }
  const PoolTrace& trace() const override { return wp_.trace(); }

 private:
  Params params_;
  WorkerPool wp_;
  SubmitGate gate_;
  Mutex shutdown_;
};

// flavor=rulego: rulego's WorkerPool, submitted to as rulego's engine does
// (DefaultRuleContext.SubmitTask), so a refused task runs on a goroutine of
// its own (rulego v0.31.3 on), or is lost (rulego-version v0.31.2).
class RulegoPool final : public Pool {
 public:
  RulegoPool(const Params& params, const TraceTarget& target)
      : params_(params),
        wp_(config_from(params), target),
        ctx_(wp_, params.choice("rulego-version") == "v0.31.2" ? rulego::Fallback::none : rulego::Fallback::goroutine) {
    wp_.Start();
  }
  ~RulegoPool() override { shutdown(ShutdownMode::graceful); }

  std::string_view design() const override { return "fasthttp"; }

  SubmitResult submit(Task task, const SubmitOptions&) override {
    return gate_.pass(wp_.trace(), [&] {
      auto submitted = ctx_.SubmitTask(std::move(task));
      return submitted ? SubmitResult::accept() : SubmitResult::refuse(submitted.error());
    });
  }

  // As fasthttp's: nothing waits, so nothing is dropped; the fallback
  // goroutines run their tasks to the end.
  void shutdown(ShutdownMode mode) override {
    const bool first = gate_.shut();
    std::lock_guard g(shutdown_);
    wp_.Stop();
    wp_.join();
    ctx_.join();
    if (first) wp_.trace().stopped(stopped_rule(mode), 0);
  }

  // The fallback goroutines count as workers, each busy with its task.
  Counters state() const override {
    Counters c = wp_.state();
    c.workers += ctx_.goroutines();
    c.busy += ctx_.goroutines();
    return c;
  }
  json params() const override { return params_.config_json(); }
  const PoolTrace& trace() const override { return wp_.trace(); }

 private:
  Params params_;
  rulego::WorkerPool wp_;
  rulego::DefaultRuleContext ctx_;
  SubmitGate gate_;
  Mutex shutdown_;
};

Design fasthttp_design() {
  return Design{
      .name = "fasthttp",
      .summary =
          "LIFO stack of ready workers, each with a 1-slot channel; no queue: refused when MaxWorkersCount are "
          "busy; a cleaner stops the workers idle longer than MaxIdleWorkerDuration, oldest first",
      .docs = "docs/pools/fasthttp.md",
      .origin = "design",
      .runtime = "goroutines",
      .params =
          {
              {.name = "MaxWorkersCount",
               .type = ParamType::integer,
               .default_value = kDefaultMaxWorkersCount,
               .min = 1,
               .max = kDefaultConcurrency,
               .unit = "workers",
               .help = "most workers alive at once; with all of them busy, a task is refused (fasthttp's "
                       "Server.Concurrency, default 256*1024 there)"},
              {.name = "MaxIdleWorkerDuration",
               .type = ParamType::duration,
               .default_value = format_duration(kDefaultMaxIdleWorkerDuration),
               .help = "the cleaner's period, and how long a worker may stay idle before it stops; 0 or less means "
                       "10s, as in Go"},
              {.name = "workerChanCap",
               .type = ParamType::choice,
               .default_value = "auto",
               .choices = {"auto", "0", "1"},
               .help = "each worker's channel capacity: 0 makes serve wait until the worker takes the task; auto is "
                       "Go's rule (0 on one CPU, else 1)"},
              {.name = "flavor",
               .type = ParamType::choice,
               .default_value = "fasthttp",
               .choices = {"fasthttp", "rulego"},
               .help = "rulego's copy (seed 000): Start runs once (after Stop, no cleaner again) and a refusal is "
                       "the error \"no idle workers\", which rulego's engine handles (rulego-version); the pool's rules "
                       "are otherwise fasthttp's"},
              {.name = "rulego-version",
               .type = ParamType::choice,
               .default_value = "v0.37.0",
               .choices = {"v0.37.0", "v0.31.2"},
               .help = "flavor=rulego only: what rulego's engine (SubmitTask) does with a task the pool refuses. "
                       "v0.37.0 (any of v0.31.3 to v0.37.0, the current releases): go task(), outside the pool; "
                       "v0.31.2 (any of v0.18.0 to v0.31.2): logged, and the task never runs"},
          },
      .make = [](const Params& p, const TraceTarget& target) -> std::unique_ptr<Pool> {
        if (p.choice("flavor") == "rulego") return std::make_unique<RulegoPool>(p, target);
        return std::make_unique<FasthttpPool>(p, target);
      },
  };
}

}  // namespace

POOLSCOPE_REGISTER_DESIGN(fasthttp_design);

}  // namespace poolscope::fasthttp
