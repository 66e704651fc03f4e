// Lab 02's reference solution behind the Pool interface, registered as
// `lab02-reaping`.
#include <stdexcept>

#include "labs/solutions/02-reaping/rules.h"
#include "labs/solutions/02-reaping/worker_pool.h"
#include "pools/core/registry.h"
#include "pools/core/submit_gate.h"

namespace poolscope::lab02::solution {
namespace {

class ReapingPool final : public Pool {
 public:
  ReapingPool(const Params& p, const TraceTarget& target)
      : config_(p.config_json()),
        impl_(static_cast<int>(p.integer("MaxWorkersCount")), p.duration("MaxIdleWorkerDuration"), target) {
    impl_.Start();
  }
  ~ReapingPool() override { shutdown(ShutdownMode::graceful); }

  std::string_view design() const override { return "lab02-reaping"; }

  SubmitResult submit(Task task, const SubmitOptions&) override {
    // C++: fasthttp's Serve never gets a nil conn; here an empty task would reach a worker, which takes it for the stop signal. Refused at the call, before it is counted (the frame's
    // check, not the lab's: tests/conformance/null_task_test.cpp).
    if (!task) throw std::invalid_argument("lab02-reaping: submit needs a task");
    SubmitGate::Entry entry(gate_);
    if (!entry) {
      impl_.trace().refused(impl_.trace().submitted(), rules::pool_closed());
      return SubmitResult::closed();
    }
    return impl_.Serve(std::move(task)) ? SubmitResult::accept() : SubmitResult::refuse(kConcurrencyLimit);
  }

  // Nothing waits in a queue: a task is handed to its worker at once, so both
  // modes only wait for the running tasks.
  void shutdown(ShutdownMode mode) override {
    bool first = gate_.close();
    gate_.wait_empty();
    impl_.Stop();
    impl_.join();
    if (first) impl_.trace().stopped(mode == ShutdownMode::graceful ? rules::graceful() : rules::now(), 0);
  }

  Counters state() const override {
    auto workers = static_cast<std::uint32_t>(impl_.workers_count());
    auto ready = static_cast<std::uint32_t>(impl_.ready_count());
    return Counters{workers, workers - std::min(ready, workers), 0, 0};
  }
  json params() const override { return config_; }
  const PoolTrace& trace() const override { return impl_.trace(); }

 private:
  const json config_;
  WorkerPool impl_;
  SubmitGate gate_;
};

Design lab02_design() {
  return Design{
      .name = "lab02-reaping",
      .summary =
          "lab 02 solution: the fixed pool made elastic fasthttp's way, a LIFO ready stack and a cleaner "
          "that stops workers idle longer than MaxIdleWorkerDuration",
      .docs = "docs/labs/02-reaping.md",
      .origin = "lab",
      .params =
          {
              ParamSpec{.name = "MaxWorkersCount",
                        .type = ParamType::integer,
                        .default_value = 256,
                        .min = 1,
                        .max = 1 << 20,
                        .unit = "workers",
                        .help = "workers allowed at once; with none ready and this many running, Serve refuses"},
              ParamSpec{.name = "MaxIdleWorkerDuration",
                        .type = ParamType::duration,
                        .default_value = "10s",
                        .min = "1ms",
                        .max = "1h",
                        .help = "the cleaner's period, and how long a ready worker may stay idle before it is "
                                "stopped (fasthttp's default: 10s)"},
          },
      .make = [](const Params& p, const TraceTarget& target) -> std::unique_ptr<Pool> {
        return std::make_unique<ReapingPool>(p, target);
      },
  };
}

}  // namespace

POOLSCOPE_REGISTER_DESIGN(lab02_design);

}  // namespace poolscope::lab02::solution
