// A small fixed pool registered only in this test binary, to test the engine
// without depending on any real design: `Workers` threads take tasks from an
// unbounded FIFO queue. With 0 workers nothing ever runs: a stuck pool.
#include <deque>

#include "pools/core/registry.h"
#include "pools/core/submit_gate.h"
#include "pools/core/thread.h"

namespace poolscope::test {
namespace {

const Label kQueue = intern_label("fake-queue", "fake pool: every task waits in its FIFO queue");
const Label kStarted = intern_label("fake-fixed", "fake pool: its workers start with it");
const Label kStop = intern_label("fake-stop", "fake pool: shut down");
const Label kDropped = intern_label("fake-shutdown-now", "fake pool: shutdown-now drops the queue");

class FakePool final : public Pool {
 public:
  FakePool(const Params& p, const TraceTarget& t) : trace_(t, "test-fixed") {
    for (std::int64_t i = 0; i < p.integer("Workers"); ++i) {
      WorkerId w = trace_.new_worker_id();
      trace_.spawned(w, kStarted);
      workers_.emplace_back("fake-" + std::to_string(w), [this, w] { work(w); });
    }
  }
  ~FakePool() override { shutdown(ShutdownMode::graceful); }

  std::string_view design() const override { return "test-fixed"; }

  SubmitResult submit(Task task, const SubmitOptions&) override {
    return gate_.pass(trace_, [&] {
      TaskId id = trace_.submitted();
      {
        std::lock_guard g(m_);
        queue_.push_back(Job{id, std::move(task)});
        trace_.queued(id, kQueue, static_cast<std::int64_t>(queue_.size()));
      }
      cv_.notify_one();
      return SubmitResult::accept();
    });
  }

  void shutdown(ShutdownMode mode) override {
    const bool first = gate_.shut();
    std::int64_t dropped = 0;
    {
      std::lock_guard g(m_);
      stopping_ = true;
      if (mode == ShutdownMode::now || workers_.empty()) {
        for (Job& j : queue_) trace_.dropped(j.id, kDropped), ++dropped;
        queue_.clear();
      }
    }
    cv_.notify_all();
    for (Thread& t : workers_) t.join();
    if (first) trace_.stopped(mode == ShutdownMode::now ? rules::now() : rules::graceful(), dropped);
  }

  Counters state() const override {
    std::lock_guard g(m_);
    return Counters{static_cast<std::uint32_t>(live_), busy_, static_cast<std::uint32_t>(queue_.size()), 0};
  }
  json params() const override { return {{"Workers", workers_.size()}}; }
  const PoolTrace& trace() const override { return trace_; }

 private:
  void work(WorkerId w) {
    {
      std::lock_guard g(m_);
      ++live_;
    }
    std::unique_lock lock(m_);
    for (;;) {
      cv_.wait(lock, [&] { return stopping_ || !queue_.empty(); });
      if (queue_.empty()) break;
      Job job = std::move(queue_.front());
      queue_.pop_front();
      trace_.handoff(job.id, w, kQueue, true);
      ++busy_;
      lock.unlock();
      trace_.run(w, job);
      lock.lock();
      --busy_;
    }
    --live_;
    trace_.exited(w, kStop);
  }

  PoolTrace trace_;
  SubmitGate gate_;
  mutable std::mutex m_;
  std::condition_variable cv_;
  std::deque<Job> queue_;
  bool stopping_ = false;
  int live_ = 0;
  std::uint32_t busy_ = 0;
  std::vector<Thread> workers_;
};

Design fake_design() {
  return Design{
      .name = "test-fixed",
      .summary = "a fixed pool for the engine's tests",
      .origin = "lab",
      .params = {{.name = "Workers", .type = ParamType::integer, .default_value = 2, .min = 0, .help = "threads"}},
      .make = [](const Params& p, const TraceTarget& t) { return std::make_unique<FakePool>(p, t); }};
}

}  // namespace

POOLSCOPE_REGISTER_DESIGN(fake_design);

}  // namespace poolscope::test
