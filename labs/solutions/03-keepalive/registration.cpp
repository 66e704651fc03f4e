// Lab 03's reference solution behind the Pool interface, registered as
// `lab03-keepalive`.
#include <stdexcept>

#include "labs/solutions/03-keepalive/pool.h"
#include "pools/core/registry.h"
#include "pools/core/submit_gate.h"

namespace poolscope::lab03::solution {
namespace {

class CoremaxPool final : public poolscope::Pool {
 public:
  CoremaxPool(const Params& p, const TraceTarget& target)
      : config_(p.config_json()),
        impl_(static_cast<int>(p.integer("coreSize")), static_cast<int>(p.integer("maxSize")),
              static_cast<int>(p.integer("taskQueueCap")),
              Options{.isPreAllocation = p.boolean("isPreAllocation"),
                      .allocationNum = static_cast<int>(p.integer("allocationNum")),
                      .isBlocking = p.boolean("isBlocking"),
                      .blockMaxNum = static_cast<int>(p.integer("blockMaxNum")),
                      .keepAliveTime = p.duration("keepAliveTime"),
                      .allowCoreThreadTimeOut = p.boolean("allowCoreThreadTimeOut")},
              target) {}
  ~CoremaxPool() override { shutdown(ShutdownMode::graceful); }

  std::string_view design() const override { return "lab03-keepalive"; }

  SubmitResult submit(Task task, const SubmitOptions&) override {
    // C++: the seed's worker takes a nil task for the pool's stop signal; an empty one from outside would stop a worker. Refused at the call, before it is counted (the frame's
    // check, not the lab's: tests/conformance/null_task_test.cpp).
    if (!task) throw std::invalid_argument("lab03-keepalive: submit needs a task");
    SubmitGate::Entry entry(gate_);
    if (!entry) {
      impl_.trace().refused(impl_.trace().submitted(), rules::pool_closed());
      return SubmitResult::closed();
    }
    std::error_code err = impl_.submit(std::move(task));
    if (!err) return SubmitResult::accept();
    return err == ErrPoolClosed ? SubmitResult::closed() : SubmitResult::refuse(refusal(err));
  }

  // close() wakes blocked submitters (they get ErrPoolClosed) before the
  // gate waits for them.
  void shutdown(ShutdownMode mode) override {
    bool first = gate_.close();
    // Graceful: close() drops only what no worker would ever take (coreSize 0).
    int dropped = mode == ShutdownMode::now ? impl_.close_now() : impl_.close();
    gate_.wait_empty();
    impl_.join();
    if (first) impl_.trace().stopped(mode == ShutdownMode::graceful ? rules::graceful() : rules::now(), dropped);
  }

  Counters state() const override {
    auto workers = static_cast<std::uint32_t>(impl_.running_size());
    auto idle = static_cast<std::uint32_t>(impl_.idle_size());
    return Counters{workers, workers - std::min(idle, workers), static_cast<std::uint32_t>(impl_.queue_size()),
                    static_cast<std::uint32_t>(impl_.block_size())};
  }
  json params() const override { return config_; }
  const PoolTrace& trace() const override { return impl_.trace(); }

 private:
  const json config_;    // nothing is live: the seed's pool has no setters
  solution::Pool impl_;  // (plain `Pool` here would name the base class)
  SubmitGate gate_;
};

ParamSpec int_param(std::string name, int def, int min, std::string unit, std::string help) {
  return ParamSpec{.name = std::move(name),
                   .type = ParamType::integer,
                   .default_value = def,
                   .min = min,
                   .max = 1 << 20,
                   .unit = std::move(unit),
                   .help = std::move(help)};
}

ParamSpec bool_param(std::string name, std::string help) {
  return ParamSpec{
      .name = std::move(name), .type = ParamType::boolean, .default_value = false, .help = std::move(help)};
}

Design lab03_design() {
  return Design{
      .name = "lab03-keepalive",
      .summary =
          "lab 03 solution: seed 001's core/max pool fixed: workers beyond core expire after keepAliveTime, "
          "and with allowCoreThreadTimeOut core workers too",
      .docs = "docs/labs/03-keepalive.md",
      .origin = "lab",
      .params =
          {
              int_param("coreSize", 4, 0, "workers", "workers started for tasks before any task is queued"),
              int_param("maxSize", 8, 1, "workers", "workers allowed in all, once the task queue is full"),
              int_param("taskQueueCap", 16, 0, "tasks", "the task queue's capacity"),
              bool_param("isPreAllocation", "start allocationNum idle workers when the pool is made"),
              int_param("allocationNum", 4, 0, "workers", "how many workers isPreAllocation starts"),
              bool_param("isBlocking",
                         "when the pool is full, the submitter waits for an idle worker instead of being rejected"),
              int_param("blockMaxNum", 0, 0, "submitters",
                        "with isBlocking, how many submitters may wait at once (0: no limit); the rest are rejected"),
              ParamSpec{
                  .name = "keepAliveTime",
                  .type = ParamType::duration,
                  .default_value = "10s",
                  .min = "1ms",
                  .max = "1h",
                  .help = "how long a worker beyond coreSize may stay idle before it exits (Java's keepAliveTime)"},
              bool_param("allowCoreThreadTimeOut",
                         "core workers time out after keepAliveTime too, so an idle pool shrinks to zero (Java's "
                         "allowCoreThreadTimeOut)"),
          },
      .make = [](const Params& p, const TraceTarget& target) -> std::unique_ptr<poolscope::Pool> {
        auto core = p.integer("coreSize"), max = p.integer("maxSize");
        if (core > max)
          throw ConfigError("/coreSize", "coreSize (" + std::to_string(core) + ") must not exceed maxSize (" +
                                             std::to_string(max) + ")");
        if (p.boolean("isPreAllocation") && p.integer("allocationNum") > max)
          throw ConfigError("/allocationNum", "allocationNum (" + std::to_string(p.integer("allocationNum")) +
                                                  ") must not exceed maxSize (" + std::to_string(max) + ")");
        return std::make_unique<CoremaxPool>(p, target);
      },
  };
}

}  // namespace

POOLSCOPE_REGISTER_DESIGN(lab03_design);

}  // namespace poolscope::lab03::solution
