// Your lab 04 pool behind the Pool interface, registered as `lab04-student`.
// Nothing to change here: the lab is in thread_pool.cpp.
#include <stdexcept>

#include "labs/04-overload/rules.h"
#include "labs/04-overload/thread_pool.h"
#include "pools/core/registry.h"
#include "pools/core/submit_gate.h"

namespace poolscope::lab04 {
namespace {

OnFull on_full(const std::string& choice) {
  return choice == "block" ? OnFull::block : choice == "caller-runs" ? OnFull::caller_runs : OnFull::refuse;
}

class OverloadPool final : public Pool {
 public:
  OverloadPool(const Params& p, const TraceTarget& target)
      : config_(p.config_json()),
        impl_(static_cast<int>(p.integer("threads")), static_cast<int>(p.integer("max_queue")),
              on_full(p.choice("on_full")), static_cast<int>(p.integer("max_blocking_tasks")), target) {}
  ~OverloadPool() override { shutdown(ShutdownMode::graceful); }

  std::string_view design() const override { return "lab04-student"; }

  SubmitResult submit(Task task, const SubmitOptions&) override {
    // C++: nginx's ngx_thread_task_post never gets a NULL task; here an empty one would reach a worker, which takes it for the exit signal. Refused at the call, before it is counted (the frame's
    // check, not the lab's: tests/conformance/null_task_test.cpp).
    if (!task) throw std::invalid_argument("lab04-student: submit needs a task");
    SubmitGate::Entry entry(gate_);
    if (!entry) {
      impl_.trace().refused(impl_.trace().submitted(), rules::pool_closed());
      return SubmitResult::closed();
    }
    Status s = impl_.task_post(std::move(task));
    if (s == kNoLabel) return SubmitResult::accept();
    return s == rules::pool_closed() ? SubmitResult::closed() : SubmitResult::refuse(s);
  }

  void shutdown(ShutdownMode mode) override {
    bool first = gate_.close();
    impl_.close();  // blocked submitters leave with closed before the gate waits for them
    gate_.wait_empty();
    int dropped = mode == ShutdownMode::now ? impl_.drop_queued() : 0;
    impl_.destroy();
    if (first) impl_.trace().stopped(mode == ShutdownMode::graceful ? rules::graceful() : rules::now(), dropped);
  }

  Counters state() const override {
    auto workers = static_cast<std::uint32_t>(impl_.threads_alive());
    auto idle = static_cast<std::uint32_t>(std::max(impl_.idle(), 0));
    return Counters{workers, workers - std::min(idle, workers), static_cast<std::uint32_t>(impl_.queued()),
                    static_cast<std::uint32_t>(impl_.blocked())};
  }
  json params() const override { return config_; }
  const PoolTrace& trace() const override { return impl_.trace(); }

 private:
  const json config_;
  ThreadPool impl_;
  SubmitGate gate_;
};

Design lab04_student_design() {
  return Design{
      .name = "lab04-student",
      .summary =
          "lab 04 (your copy): lab 01's fixed pool, which on a full queue refuses (nginx), blocks the "
          "submitter up to max_blocking_tasks (ants) or runs the task in the caller (Java's CallerRuns)",
      .docs = "docs/labs/04-overload.md",
      .origin = "lab",
      .params =
          {
              ParamSpec{.name = "threads",
                        .type = ParamType::integer,
                        .default_value = 8,
                        .min = 1,
                        .max = 8192,
                        .unit = "threads",
                        .help = "threads started with the pool, never more, never fewer (nginx: threads=32)"},
              ParamSpec{.name = "max_queue",
                        .type = ParamType::integer,
                        .default_value = 64,
                        .min = 0,
                        .max = 1 << 24,
                        .unit = "tasks",
                        .help = "tasks that may wait beyond the idle threads before the queue is full"},
              ParamSpec{.name = "on_full",
                        .type = ParamType::choice,
                        .default_value = "block",
                        .choices = {"refuse", "block", "caller-runs"},
                        .help = "when the queue is full: refuse (nginx), block the submitter (ants), or run the "
                                "task in the submitting thread (Java's CallerRunsPolicy)"},
              ParamSpec{.name = "max_blocking_tasks",
                        .type = ParamType::integer,
                        .default_value = 0,
                        .min = 0,
                        .max = 1 << 20,
                        .unit = "submitters",
                        .help = "with block: how many submitters may wait at once, 0 for no limit; the next is "
                                "refused (ants' MaxBlockingTasks, ErrPoolOverload)"},
          },
      .make = [](const Params& p, const TraceTarget& target) -> std::unique_ptr<Pool> {
        return std::make_unique<OverloadPool>(p, target);
      },
  };
}

}  // namespace

POOLSCOPE_REGISTER_DESIGN(lab04_student_design);

}  // namespace poolscope::lab04
