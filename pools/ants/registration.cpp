// `ants` and `ants-multi` behind the Pool interface, and their registry
// entries. PoolWithFunc is a parameter of both rather than a design of its
// own: it changes the API (one function, tasks as its arguments), not a
// single decision of retrieveWorker, revertWorker or purge, so its curves are
// ants' curves (docs/pools/ants.md).
#include <mutex>
#include <system_error>

#include "pools/ants/multipool.h"
#include "pools/ants/multipool_func.h"
#include "pools/core/registry.h"
#include "pools/core/submit_gate.h"

namespace poolscope::ants {
namespace {

// The engine's tasks are closures; PoolWithFunc's one function runs them.
void runTask(Task task) { task(); }

std::error_code handOut(Pool& p, Task task) { return p.submit(std::move(task)); }
std::error_code handOut(PoolWithFunc<Task>& p, Task task) { return p.invoke(std::move(task)); }
std::error_code handOut(MultiPool& p, Task task) { return p.submit(std::move(task)); }
std::error_code handOut(MultiPoolWithFunc<Task>& p, Task task) { return p.invoke(std::move(task)); }

// The live parameter: a pool's capacity, or each pool's in a multi-pool.
int capacity(const PoolCommon& p) { return p.cap(); }
int capacity(const MultiPool& m) { return m.pools().front()->cap(); }
int capacity(const MultiPoolWithFunc<Task>& m) { return m.pools().front()->cap(); }

template <class Native>
class Adapter final : public poolscope::Pool {
 public:
  Adapter(std::string_view design, std::unique_ptr<Native> impl, const Params& params, std::string live)
      : design_(design), impl_(std::move(impl)), config_(params.config_json()), live_(std::move(live)) {}
  ~Adapter() override { shutdown(ShutdownMode::graceful); }

  std::string_view design() const override { return design_; }

  SubmitResult submit(Task task, const SubmitOptions&) override {
    return gate_.pass(impl_->trace(), [&] {
      const std::error_code err = handOut(*impl_, std::move(task));
      if (!err) return SubmitResult::accept();
      if (err == ErrPoolClosed) return SubmitResult::closed();
      return SubmitResult::refuse(impl_->refusal(err));
    });
  }

  // Nothing waits in a queue in ants (a task goes straight to a worker, or
  // its submitter waits), so both modes release, let the blocked submitters
  // return ErrPoolClosed, and wait for the busy workers.
  void shutdown(ShutdownMode mode) override {
    std::lock_guard g(shutdown_m_);
    const bool first = gate_.shut([&] { impl_->release(); });
    impl_->release_and_join();
    if (first) impl_->trace().stopped(stopped_rule(mode), 0);
  }

  // Running() is every live worker; the idle ones wait in the worker queue.
  Counters state() const override {
    const auto workers = static_cast<std::uint32_t>(impl_->running());
    const auto idle = static_cast<std::uint32_t>(impl_->idle());
    return Counters{workers, workers > idle ? workers - idle : 0, 0, static_cast<std::uint32_t>(impl_->waiting())};
  }

  json params() const override {
    json p = config_;
    p[live_] = capacity(*impl_);
    return p;
  }

  void set_param(std::string_view name, const ParamValue& value) override {
    if (name != live_) return poolscope::Pool::set_param(name, value);
    impl_->tune(static_cast<int>(value.integer()));
  }

  const PoolTrace& trace() const override { return impl_->trace(); }

 private:
  std::string design_;
  std::unique_ptr<Native> impl_;
  json config_;
  std::string live_;
  SubmitGate gate_;
  Mutex shutdown_m_;
};

// The original's error as a config error on the parameter that caused it;
// a thread the OS refused is no config error: std::system_error, as any
// refused thread is (the runner's thread-refused).
[[noreturn]] void throwConfigError(std::error_code err) {
  if (err == errBackgroundThreadFailed || err == errThreadCreateFailed)
    throw std::system_error(
        std::make_error_code(std::errc::resource_unavailable_try_again),
        "ants: " + err.message() + " (" + std::string(error_name(static_cast<Error>(err.value()))) + ")");
  std::string path;
  switch (static_cast<Error>(err.value())) {
    case ErrInvalidPoolExpiry:
      path = "/ExpiryDuration";
      break;
    case ErrInvalidPreAllocSize:
      path = "/PreAlloc";
      break;
    case ErrInvalidMultiPoolSize:
      path = "/size";
      break;
    default:
      break;
  }
  throw ConfigError(path, err.message() + " (ants " + std::string(error_name(static_cast<Error>(err.value()))) + ")");
}

template <class Native>
std::unique_ptr<poolscope::Pool> adapt(std::string_view design, Made<Native> made, const Params& params,
                                       std::string live) {
  if (!made) throwConfigError(made.error());
  return std::make_unique<Adapter<Native>>(design, std::move(*made), params, std::move(live));
}

Options optionsFrom(const Params& params) {
  Options o{
      .ExpiryDuration = params.duration("ExpiryDuration"),
      .PreAlloc = params.boolean("PreAlloc"),
      .MaxBlockingTasks = static_cast<int>(params.integer("MaxBlockingTasks")),
      .Nonblocking = params.boolean("Nonblocking"),
      .DisablePurge = params.boolean("DisablePurge"),
  };
  if (params.choice("Logger") == "discard") o.Logger = [](const std::string&) {};
  return o;
}

// Options, in options.go's order, then the API choice. PanicHandler is a
// function, so only the native API has it.
std::vector<ParamSpec> optionParams() {
  return {
      {.name = "ExpiryDuration",
       .type = ParamType::duration,
       .default_value = "1s",
       .help = "purge period and idle limit: workers idle this long are stopped at a tick; 0 means 1s, < 0 is "
               "ErrInvalidPoolExpiry unless DisablePurge"},
      {.name = "PreAlloc",
       .type = ParamType::boolean,
       .default_value = false,
       .help = "keep idle workers in a ring of `size` slots (FIFO reuse) instead of a stack (LIFO); needs size > 0, "
               "disables Tune"},
      {.name = "MaxBlockingTasks",
       .type = ParamType::integer,
       .default_value = 0,
       .min = 0,
       .unit = "submitters",
       .help = "how many submitters may wait in a full pool; more get ErrPoolOverload; 0 = no limit"},
      {.name = "Nonblocking",
       .type = ParamType::boolean,
       .default_value = false,
       .help = "never wait: a full pool returns ErrPoolOverload at once (overrides MaxBlockingTasks)"},
      {.name = "Logger",
       .type = ParamType::choice,
       .default_value = "stderr",
       .choices = {"stderr", "discard"},
       .help =
           "where a task's exception is reported (there is no PanicHandler here): ants' default logger, or nowhere"},
      {.name = "DisablePurge",
       .type = ParamType::boolean,
       .default_value = false,
       .help = "no purge ticker: idle workers live until the pool is released"},
      {.name = "PoolWithFunc",
       .type = ParamType::boolean,
       .default_value = false,
       .help = "run tasks through PoolWithFunc.invoke (one function, each task its argument) instead of "
               "Pool.submit"},
  };
}

// A design of the ants family: its own parameters, then the options.
Design antsFamily(std::string name, std::string summary, std::vector<ParamSpec> params, PoolFactory make) {
  for (ParamSpec& p : optionParams()) params.push_back(std::move(p));
  return Design{
      .name = std::move(name),
      .summary = std::move(summary),
      .docs = "docs/pools/ants.md",
      .origin = "design",
      .runtime = "goroutines",
      .params = std::move(params),
      .make = std::move(make),
  };
}

Design antsDesign() {
  return antsFamily(
      "ants",
      "a capacity-bounded pool: idle workers on a LIFO stack (a FIFO ring with PreAlloc); a full pool blocks "
      "submitters on a condition variable or refuses them; a purge ticker stops idle workers",
      {{.name = "size",
        .type = ParamType::integer,
        .default_value = 10,
        .min = -1,
        .unit = "workers",
        .live = true,
        .help = "capacity: the most workers alive at once; <= 0 means unlimited (-1). Live: Tune (ignored when "
                "unlimited or PreAlloc)"}},
      [](const Params& params, const TraceTarget& target) {
        const int size = static_cast<int>(params.integer("size"));
        if (params.boolean("PoolWithFunc"))
          return adapt("ants", new_pool_with_func<Task>(size, runTask, optionsFrom(params), target), params, "size");
        return adapt("ants", new_pool(size, optionsFrom(params), target), params, "size");
      });
}

Design multiDesign() {
  return antsFamily(
      "ants-multi",
      "ants' MultiPool: several ants pools, each with its own lock and workers; tasks go round-robin or to the "
      "least-loaded pool",
      {{.name = "size",
        .type = ParamType::integer,
        .default_value = 2,
        .unit = "pools",
        .help = "how many ants pools; <= 0 is ErrInvalidMultiPoolSize"},
       {.name = "sizePerPool",
        .type = ParamType::integer,
        .default_value = 5,
        .min = -1,
        .unit = "workers",
        .live = true,
        .help = "each pool's capacity; <= 0 means unlimited. Live: Tune, on every pool"},
       {.name = "lbs",
        .type = ParamType::choice,
        .default_value = "RoundRobin",
        .choices = {"RoundRobin", "LeastTasks"},
        .help = "which pool gets a task: in turn (retrying once on the least loaded when overloaded), or the one "
                "with the fewest workers"}},
      [](const Params& params, const TraceTarget& target) {
        const int size = static_cast<int>(params.integer("size"));
        const int sizePerPool = static_cast<int>(params.integer("sizePerPool"));
        const LoadBalancingStrategy lbs = params.choice("lbs") == "LeastTasks" ? LeastTasks : RoundRobin;
        if (params.boolean("PoolWithFunc"))
          return adapt("ants-multi",
                       new_multi_pool_with_func<Task>(size, sizePerPool, runTask, lbs, optionsFrom(params), target),
                       params, "sizePerPool");
        return adapt("ants-multi", new_multi_pool(size, sizePerPool, lbs, optionsFrom(params), target), params,
                     "sizePerPool");
      });
}

}  // namespace

POOLSCOPE_REGISTER_DESIGN(antsDesign);
POOLSCOPE_REGISTER_DESIGN(multiDesign);

}  // namespace poolscope::ants
