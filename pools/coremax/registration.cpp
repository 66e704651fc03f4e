// `coremax` behind the Pool interface, and its registry entry.
#include "pools/core/registry.h"
#include "pools/core/submit_gate.h"
#include "pools/coremax/pool.h"

namespace poolscope::coremax {
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
                      .blockMaxNum = static_cast<int>(p.integer("blockMaxNum"))},
              target) {}
  ~CoremaxPool() override { shutdown(ShutdownMode::graceful); }

  std::string_view design() const override { return "coremax"; }

  SubmitResult submit(Task task, const SubmitOptions&) override {
    return gate_.pass(impl_.trace(), [&] {
      std::error_code err = impl_.submit(std::move(task));
      if (!err) return SubmitResult::accept();
      return err == ErrPoolClosed ? SubmitResult::closed() : SubmitResult::refuse(refusal(err));
    });
  }

  // close() wakes blocked submitters (they get ErrPoolClosed) before the
  // gate waits for them.
  void shutdown(ShutdownMode mode) override {
    int dropped = 0;
    // Graceful: close() drops only what no worker would ever take (coreSize 0).
    const bool first = gate_.shut([&] { dropped = mode == ShutdownMode::now ? impl_.close_now() : impl_.close(); });
    impl_.join();
    if (first) impl_.trace().stopped(stopped_rule(mode), dropped);
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
  const json config_;   // nothing is live: the seed's pool has no setters
  coremax::Pool impl_;  // (plain `Pool` here would name the base class)
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

Design coremax_design() {
  return Design{
      .name = "coremax",
      .summary =
          "seed 001's Go pool on Java's logic (idle worker or core worker, then the task queue, then up to "
          "max, then reject or block), flaw included: workers never expire",
      .docs = "docs/pools/coremax.md",
      .origin = "design",
      .runtime = "goroutines",
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

POOLSCOPE_REGISTER_DESIGN(coremax_design);

}  // namespace poolscope::coremax
