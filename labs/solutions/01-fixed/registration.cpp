// Lab 01's reference solution behind the Pool interface, registered as
// `lab01-fixed`.
#include <stdexcept>

#include "labs/solutions/01-fixed/rules.h"
#include "labs/solutions/01-fixed/thread_pool.h"
#include "pools/core/registry.h"
#include "pools/core/submit_gate.h"

namespace poolscope::lab01::solution {
namespace {

class FixedPool final : public Pool {
 public:
  FixedPool(const Params& p, const TraceTarget& target)
      : config_(p.config_json()),
        impl_(static_cast<int>(p.integer("threads")), static_cast<int>(p.integer("max_queue")), target) {}
  ~FixedPool() override { shutdown(ShutdownMode::graceful); }

  std::string_view design() const override { return "lab01-fixed"; }

  SubmitResult submit(Task task, const SubmitOptions&) override {
    // C++: nginx's ngx_thread_task_post never gets a NULL task; here an empty one would reach a worker, which takes it for the exit signal. Refused at the call, before it is counted (the frame's
    // check, not the lab's: tests/conformance/null_task_test.cpp).
    if (!task) throw std::invalid_argument("lab01-fixed: submit needs a task");
    SubmitGate::Entry entry(gate_);
    if (!entry) {
      impl_.trace().refused(impl_.trace().submitted(), rules::pool_closed());
      return SubmitResult::closed();
    }
    Status s = impl_.task_post(std::move(task));
    return s == kNoLabel ? SubmitResult::accept() : SubmitResult::refuse(s);
  }

  void shutdown(ShutdownMode mode) override {
    bool first = gate_.close();
    gate_.wait_empty();
    int dropped = mode == ShutdownMode::now ? impl_.drop_queued() : 0;
    impl_.destroy();
    if (first) impl_.trace().stopped(mode == ShutdownMode::graceful ? rules::graceful() : rules::now(), dropped);
  }

  Counters state() const override {
    auto workers = static_cast<std::uint32_t>(impl_.threads_alive());
    auto idle = static_cast<std::uint32_t>(std::max(impl_.idle(), 0));
    return Counters{workers, workers - std::min(idle, workers), static_cast<std::uint32_t>(impl_.queued()), 0};
  }
  json params() const override { return config_; }
  const PoolTrace& trace() const override { return impl_.trace(); }

 private:
  const json config_;
  ThreadPool impl_;
  SubmitGate gate_;
};

Design lab01_design() {
  return Design{
      .name = "lab01-fixed",
      .summary = "lab 01 solution: nginx's thread pool, N threads and one FIFO queue refused past max_queue",
      .docs = "docs/labs/01-fixed.md",
      .origin = "lab",
      .params =
          {
              ParamSpec{.name = "threads",
                        .type = ParamType::integer,
                        .default_value = 32,
                        .min = 1,
                        .max = 8192,
                        .unit = "threads",
                        .help = "threads started with the pool, never more, never fewer (nginx: threads=32)"},
              ParamSpec{
                  .name = "max_queue",
                  .type = ParamType::integer,
                  .default_value = 65536,
                  .min = 0,
                  .max = 1 << 24,
                  .unit = "tasks",
                  .help = "tasks that may wait beyond the idle threads before posts fail (nginx: max_queue=65536)"},
          },
      .make = [](const Params& p, const TraceTarget& target) -> std::unique_ptr<Pool> {
        return std::make_unique<FixedPool>(p, target);
      },
  };
}

}  // namespace

POOLSCOPE_REGISTER_DESIGN(lab01_design);

}  // namespace poolscope::lab01::solution
