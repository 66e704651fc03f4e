// The explorer (scenarios/engine/explore.h) against a pool with a planted
// race: a fixed pool whose submitter checks, before taking the lock, whether
// a worker is waiting, and signals only if one was (check-then-act outside
// the lock). A worker that goes to sleep between the check and the append is
// never signalled, and the last task of a burst waits for ever. Real runs
// almost never show it; the explorer finds a schedule that does, prints its
// seed, and the seed replays it.
#include <atomic>
#include <deque>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "pools/core/registry.h"
#include "pools/core/submit_gate.h"
#include "pools/core/sync.h"
#include "pools/core/thread.h"
#include "scenarios/engine/explore.h"

using namespace poolscope;
using namespace poolscope::scenario;

namespace {

const Label kQueue = intern_label("planted.queue", "planted-race");

template <bool kPlanted>
class FixedPool final : public Pool {
 public:
  FixedPool(int threads, const TraceTarget& target) : trace_(target, kPlanted ? "planted-race" : "planted-fixed") {
    for (int i = 0; i < threads; ++i) {
      WorkerId w = trace_.new_worker_id();
      threads_.emplace_back("fixed-" + std::to_string(w), [this, w] { work(w); });
      trace_.spawned(w, kQueue);
    }
  }
  ~FixedPool() override { shutdown(ShutdownMode::graceful); }

  std::string_view design() const override { return kPlanted ? "planted-race" : "planted-fixed"; }

  SubmitResult submit(Task fn, const SubmitOptions&) override {
    return gate_.pass(trace_, [&] {
      Job job{trace_.submitted(), std::move(fn)};
      // The planted race: whether anyone waits is read before the lock.
      const bool someone_waits = kPlanted ? sleepers_.load() > 0 : true;
      std::lock_guard g(m_);
      queue_.push_back(std::move(job));
      trace_.queued(queue_.back().id, kQueue, static_cast<std::int64_t>(queue_.size()));
      if (someone_waits) cv_.notify_one();
      return SubmitResult::accept();
    });
  }

  void shutdown(ShutdownMode mode) override {
    const bool first = gate_.shut();
    {
      std::lock_guard g(m_);
      stopping_ = true;
      if (mode == ShutdownMode::now)
        for (Job& j : std::exchange(queue_, {})) trace_.dropped(j.id, kQueue);
      cv_.notify_all();
    }
    for (Thread& t : threads_) t.join();
    threads_.clear();
    if (first) trace_.stopped(stopped_rule(mode), 0);
  }

  Counters state() const override { return {}; }
  json params() const override { return json::object(); }
  const PoolTrace& trace() const override { return trace_; }

 private:
  void work(WorkerId w) {
    for (;;) {
      std::unique_lock lock(m_);
      while (queue_.empty() && !stopping_) {
        trace_.idle(w, kQueue);
        sleepers_++;
        cv_.wait(lock);
        sleepers_--;
      }
      if (queue_.empty()) {
        trace_.exited(w, kQueue);
        return;
      }
      Job job = std::move(queue_.front());
      queue_.pop_front();
      trace_.handoff(job.id, w, kQueue, true);
      lock.unlock();
      trace_.run(w, job);
    }
  }

  PoolTrace trace_;
  SubmitGate gate_;
  Mutex m_;
  CondVar cv_;
  std::deque<Job> queue_;
  std::atomic<int> sleepers_{0};
  bool stopping_ = false;
  std::vector<Thread> threads_;
};

template <bool kPlanted>
Design fixed_design() {
  return Design{
      .name = kPlanted ? "planted-race" : "planted-fixed",
      .summary = "a test's fixed pool, with (planted-race) or without a check-then-act outside its lock",
      .docs = "tests/sim/explore_test.cpp",
      .origin = "test",
      .params = {},
      .make = [](const Params&, const TraceTarget& target) { return std::make_unique<FixedPool<kPlanted>>(2, target); },
  };
}

struct Registered {
  Registered() {
    Registry::global().add(fixed_design<true>());
    Registry::global().add(fixed_design<false>());
  }
};

Scenario bursts(const std::string& design) {
  static Registered once;
  json j = {{"format", "poolscope-scenario/1"},
            {"name", "bursts"},
            {"lesson", "a task arrives as two end, on a fixed pool of two"},
            {"seed", 1},
            {"submitters", 2},
            {"watchdog", "2s"},
            {"task", {{"kind", "sleep"}, {"duration", "1ms"}}},
            // Two tasks at 0 that end together at 1 ms, when a third arrives: the
            // order of the three at that instant is the schedule's.
            {"phases",
             {{{"duration", "1ms"}, {"arrival", {{"kind", "burst"}, {"count", 2}}}},
              {{"duration", "10ms"}, {"arrival", {{"kind", "burst"}, {"count", 1}}}}}},
            {"pools", {{{"design", design}}}},
            {"simulation", {{"costs", "free"}}}};
  return parse_scenario(j, "bursts", ".");
}

}  // namespace

TEST_CASE("the explorer finds the planted check-then-act race, and its seed replays it") {
  Scenario s = bursts("planted-race");
  ExploreResult r = explore(s, ExploreOptions{.schedules = 1000});
  INFO("ran " << r.ran << " schedules");
  REQUIRE(r.failure);
  CHECK_THAT(r.failure->problem, Catch::Contains("stalled"));
  // The same schedule in every build, the browser's included (tests/web/).
  CHECK(r.ran == 29);
  INFO("found after " << r.ran << " schedules, seed " << r.failure->settings.seed);

  RunOptions again;
  again.simulation = r.failure->settings;
  RunResult replay = run_scenario(s, again);
  CHECK(run_problem(replay.outcome, replay.metrics) == r.failure->problem);

  // Its moment, where the GUI opens it: the watchdog firing, 2 s after the
  // last task ended (the stranded one never started).
  const ProblemMoment moment = problem_moment(replay.outcome, replay.metrics);
  const PoolOutcome& pool = replay.outcome.pools.at(0);
  REQUIRE(pool.stall);
  CHECK(moment.at == pool.stall->at);
  CHECK(moment.since == pool.stall->last_progress);
  CHECK(moment.at - moment.since >= std::chrono::seconds(2));
}

TEST_CASE("the same pool without the race passes every explored schedule") {
  ExploreResult r = explore(bursts("planted-fixed"), ExploreOptions{.schedules = 300});
  CHECK(r.ran == 300);
  CHECK_FALSE(r.failure);
}
