// `spawn` behind the Pool interface, and its registry entry.
#include "pools/core/registry.h"
#include "pools/core/submit_gate.h"
#include "pools/spawn/thread_per_task.h"

namespace poolscope::spawn {
namespace {

class SpawnPool final : public Pool {
 public:
  explicit SpawnPool(const TraceTarget& target) : impl_(target) {}
  ~SpawnPool() override { shutdown(ShutdownMode::graceful); }

  std::string_view design() const override { return "spawn"; }

  SubmitResult submit(Task task, const SubmitOptions&) override {
    return gate_.pass(impl_.trace(), [&] {
      return impl_.go(std::move(task)) ? SubmitResult::accept() : SubmitResult::refuse(rules::thread_create_failed());
    });
  }

  // Nothing ever waits in a queue here, so both modes only wait for the
  // running threads.
  void shutdown(ShutdownMode mode) override {
    const bool first = gate_.shut();
    impl_.wait();
    if (first) impl_.trace().stopped(stopped_rule(mode), 0);
  }

  Counters state() const override {
    auto n = static_cast<std::uint32_t>(impl_.running());
    return Counters{n, n, 0, 0};
  }
  json params() const override { return json::object(); }
  const PoolTrace& trace() const override { return impl_.trace(); }

 private:
  ThreadPerTask impl_;
  SubmitGate gate_;
};

Design spawn_design() {
  return Design{
      .name = "spawn",
      .summary = "a new thread per task, no reuse and no limit (net/http's go-per-connection): the baseline",
      .docs = "docs/pools/spawn.md",
      .origin = "baseline",
      .runtime = "goroutines",
      .params = {},
      .make = [](const Params&, const TraceTarget& target) { return std::make_unique<SpawnPool>(target); },
  };
}

}  // namespace

POOLSCOPE_REGISTER_DESIGN(spawn_design);

}  // namespace poolscope::spawn
