// The conformance suite: every registered design (baselines, the four
// designs, lab pools) must keep the Pool contract. Each TEST_CASE runs once
// per registry name. Pools run on a manual clock that is never advanced, so
// no timed behaviour (reaping, keep-alive) fires behind the test's back.
#include <algorithm>
#include <atomic>
#include <memory>
#include <optional>
#include <thread>
#include <stdexcept>
#include <vector>

#include "pools/core/registry.h"
#include "pools/core/thread.h"
#include "tests/support/designs.h"
#include "tests/support/sync.h"

using namespace poolscope;
using test::await_condition;
using test::await_event;
using test::Gate;

namespace {

using test::designs;

struct Rig {
  ManualClock clock;
  // Room for the whole of the largest test (8 submitters x 10,000 tasks, at
  // most 8 events a task, 2 slots each on the manual clock) should its drain
  // thread never run: a drop here is then a defect, not a starved consumer
  // (on a loaded machine 1 << 20 dropped events 1 run in 6). Pages are
  // touched only as blocks are used.
  TraceStream stream{std::size_t{1} << 21};
  TraceLog log{stream};
  std::unique_ptr<Pool> pool;

  explicit Rig(const std::string& design, const json& config = nullptr) { make(design, config); }
  Rig() = default;
  void make(const std::string& design, json config = nullptr) {
    // redis-bio's default puts every task on one of its three threads (in
    // Redis a job's type is its caller's): two threads stay idle while tasks
    // queue behind the third, which the stillness checks below would read as
    // a worker about to take one. Round-robin gives each thread work.
    if (config.is_null() && design == "redis-bio") config = json{{"jobType", "round-robin"}};
    pool = Registry::global().create(design, config, {.clock = &clock, .stream = &stream, .name = design});
  }
  PoolId id() const { return pool->trace().id(); }

  // Quiescent: every accepted task has settled and the design's own state
  // matches the counters of its last trace event.
  void settle() {
    await_condition([&] { return pool->accounting().in_flight() == 0; }, "every task settled");
    await_condition(
        [&] {
          log.sync();
          return pool->state() == log.last_counters(id());
        },
        "state() agrees with the trace");
  }
};

struct Fates {
  std::atomic<int> accepted{0}, refused{0}, closed{0};
  void count(const SubmitResult& r) {
    (r.fate == Fate::accepted ? accepted : r.fate == Fate::refused ? refused : closed)++;
  }
};

// Submits `n` tasks from a thread of its own, so a design that blocks its
// submitters (ants, a full bounded pool) cannot block the test.
class Submitter {
 public:
  Submitter(Pool& pool, int n, std::function<Task(int)> make_task)
      : accepted_(static_cast<std::size_t>(n)),
        thread_("submitter", [this, &pool, n, make_task = std::move(make_task)] {
          for (int i = 0; i < n; ++i) {
            SubmitResult r = pool.submit(make_task(i));
            accepted_[static_cast<std::size_t>(i)] = r.accepted();
            fates.count(r);
          }
          done = true;
        }) {}
  void join() { thread_.join(); }
  bool accepted(int i) const { return accepted_[static_cast<std::size_t>(i)]; }
  Fates fates;
  std::atomic<bool> done{false};

 private:
  std::vector<char> accepted_;
  Thread thread_;  // last: it starts in the constructor and uses the members above
};

// Opens `gate` once `ready` holds: used to release gated workers only after
// shutdown has begun, so that shutdown meets busy workers and waiting tasks.
Thread open_when(Gate& gate, std::function<bool()> ready) {
  return Thread("opener", [&gate, ready = std::move(ready)] {
    auto deadline = std::chrono::steady_clock::now() + test::kSafetyLimit;
    while (!ready() && std::chrono::steady_clock::now() < deadline)
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    gate.open();
  });
}

// Asks `pool` with a no-op task whether it is closed yet. A probe the pool
// accepts runs like any task; `accepted` counts those.
struct Probe {
  Pool& pool;
  std::atomic<int> accepted{0};
  bool says_closed() {
    SubmitResult r = pool.submit([] {});
    accepted += r.accepted();
    return r.fate == Fate::closed;
  }
};

}  // namespace

TEST_CASE("conformance: each accepted task runs exactly once, and every fate is reported") {
  auto design = GENERATE(from_range(designs()));
  CAPTURE(design);
  Rig rig(design);
  constexpr int n = 1000;
  std::vector<std::atomic<int>> ran(n);
  std::vector<SubmitResult> results;
  for (int i = 0; i < n; ++i) results.push_back(rig.pool->submit([&ran, i] { ran[static_cast<std::size_t>(i)]++; }));
  rig.pool->shutdown(ShutdownMode::graceful);

  int accepted = 0, refused = 0;
  for (int i = 0; i < n; ++i) {
    const SubmitResult& r = results[static_cast<std::size_t>(i)];
    CHECK(r.fate != Fate::closed);
    if (r.accepted()) {
      ++accepted;
      CHECK(ran[static_cast<std::size_t>(i)] == 1);
    } else {
      ++refused;
      CHECK(ran[static_cast<std::size_t>(i)] == 0);
      CHECK(r.reason != kNoLabel);
    }
  }
  Accounting acc = rig.pool->accounting();
  CHECK(acc.submitted == n);
  CHECK(acc.completed == static_cast<std::uint64_t>(accepted));
  CHECK(acc.refused == static_cast<std::uint64_t>(refused));
  CHECK(acc.balanced());
  rig.log.sync();
  CHECK(rig.log.count(is_kind(EventKind::task_submitted)) == n);
  CHECK(rig.log.count(is_kind(EventKind::task_started)) == static_cast<std::size_t>(accepted));
  CHECK(rig.log.count(is_kind(EventKind::task_finished)) == static_cast<std::size_t>(accepted));
  CHECK(rig.log.count(is_kind(EventKind::task_refused)) == static_cast<std::size_t>(refused));
  CHECK(rig.log.count(is_kind(EventKind::pool_stopped)) == 1);
}

TEST_CASE("conformance: graceful shutdown runs everything accepted, even what waits") {
  auto design = GENERATE(from_range(designs()));
  CAPTURE(design);
  Rig rig(design);
  Gate gate;
  constexpr int n = 40;
  std::vector<std::atomic<int>> ran(n);
  Submitter submitter(*rig.pool, n, [&](int i) -> Task {
    return [&, i] {
      gate.pass();
      ran[static_cast<std::size_t>(i)]++;
    };
  });
  gate.await_arrivals(1);  // workers are busy at the gate; the rest waits, blocks or is refused
  Probe probe{*rig.pool};
  Thread opener = open_when(gate, [&] { return probe.says_closed(); });
  rig.pool->shutdown(ShutdownMode::graceful);
  opener.join();
  submitter.join();

  for (int i = 0; i < n; ++i) CHECK(ran[static_cast<std::size_t>(i)] == (submitter.accepted(i) ? 1 : 0));
  Accounting acc = rig.pool->accounting();
  CHECK(acc.dropped == 0);
  CHECK(acc.threw == 0);
  CHECK(acc.balanced());
  CHECK(rig.pool->state() == Counters{});
}

TEST_CASE("conformance: shutdown-now drops what waits and accounts for every task") {
  auto design = GENERATE(from_range(designs()));
  CAPTURE(design);
  Rig rig(design);
  Gate gate;
  constexpr int n = 40;
  std::vector<std::atomic<int>> ran(n);
  Submitter submitter(*rig.pool, n, [&](int i) -> Task {
    return [&, i] {
      gate.pass();
      ran[static_cast<std::size_t>(i)]++;
    };
  });
  gate.await_arrivals(1);
  // Wait until the submitter has finished or is blocked and the pool is still:
  // then exactly state().queued tasks wait, and shutdown-now must drop them all.
  // Still means more than one quiet snapshot: every busy worker is parked at
  // the gate (a thread started but not yet at its first wait counts as busy),
  // and no idle worker is about to take a queued task. And every task in
  // flight is somewhere to be seen: running at the gate, queued, or with a
  // blocked submitter (gammazero's Submit returns once its dispatcher holds
  // the task, before it is queued).
  //
  // One worker may still be on its way, unseen: weedge's watcher can hold a
  // growth token when the pool looks still and, as Go's does, starts workers
  // while the pool stops. A waiting task that such a newcomer takes was not
  // there for shutdown-now to drop, and the room it leaves may let a blocked
  // submitter's task in, to be dropped instead. The snapshot's events, read
  // before state() and agreeing with it, name the workers and tasks that
  // existed.
  std::uint32_t waiting = 0, blocked = 0;
  WorkerId last_worker = 0;
  TaskId last_task = 0;
  await_condition(
      [&] {
        const bool submitted_all = submitter.done;  // read first: no submission after the snapshot
        rig.log.sync();
        const std::vector<Event> seen = rig.log.events();
        Counters c = rig.pool->state();
        const auto arrived = static_cast<std::uint64_t>(gate.arrived());
        Counters traced;
        WorkerId workers_seen = 0;
        TaskId tasks_seen = 0;
        for (const Event& e : seen) {
          if (e.pool != rig.id()) continue;
          traced = e.counters;
          if (e.kind == EventKind::worker_spawned) workers_seen = std::max(workers_seen, e.worker);
          if (e.kind == EventKind::task_submitted) tasks_seen = std::max(tasks_seen, e.task);
        }
        if (!((submitted_all || c.blocked > 0) && c == traced && c.busy == arrived &&
              (c.queued == 0 || c.busy == c.workers) &&
              rig.pool->accounting().in_flight() == arrived + c.queued + c.blocked))
          return false;
        waiting = c.queued;
        blocked = c.blocked;
        last_worker = workers_seen;
        last_task = tasks_seen;
        return true;
      },
      "submissions settled");
  const auto taken_by_newcomers = [&] {
    return static_cast<std::uint32_t>(rig.log.count([&](const Event& e) {
      return e.pool == rig.id() && e.kind == EventKind::task_started && e.worker > last_worker && e.task <= last_task;
    }));
  };
  Probe probe{*rig.pool};
  Thread opener = open_when(gate, [&] {
    return rig.log.count(is_kind(EventKind::task_dropped)) + taken_by_newcomers() >= waiting &&
           (waiting > 0 || probe.says_closed());
  });
  rig.pool->shutdown(ShutdownMode::now);
  opener.join();
  submitter.join();

  Accounting acc = rig.pool->accounting();
  rig.log.sync();
  const std::uint32_t taken = taken_by_newcomers();
  // A probe the pool accepted just before it closed may be dropped with the rest.
  const auto probes_dropped = static_cast<std::uint32_t>(rig.log.count(
      [&](const Event& e) { return e.pool == rig.id() && e.kind == EventKind::task_dropped && e.task > last_task; }));
  const std::uint64_t dropped = acc.dropped - probes_dropped;
  CAPTURE(waiting, blocked, taken, probes_dropped);
  CHECK(dropped + taken >= waiting);
  CHECK(dropped + taken <= waiting + std::min(taken, blocked));  // with no newcomer: dropped == waiting
  CHECK(acc.balanced());
  int ran_total = 0;
  for (int i = 0; i < n; ++i) {
    CHECK(ran[static_cast<std::size_t>(i)] <= (submitter.accepted(i) ? 1 : 0));
    ran_total += ran[static_cast<std::size_t>(i)];
  }
  CHECK(acc.completed == static_cast<std::uint64_t>(ran_total + probe.accepted) - probes_dropped);
  CHECK(rig.pool->state() == Counters{});
}

TEST_CASE("conformance: the state counters agree with the trace") {
  auto design = GENERATE(from_range(designs()));
  CAPTURE(design);
  Rig rig(design);
  Gate gate;
  Submitter submitter(*rig.pool, 8, [&](int) -> Task { return gate.task(); });
  gate.await_arrivals(1);
  await_condition(
      [&] {
        rig.log.sync();
        return rig.pool->state() == rig.log.last_counters(rig.id());
      },
      "state() agrees with the trace while workers are busy");
  CHECK(rig.pool->state().busy >= 1);
  gate.open();
  submitter.join();
  for (int i = 0; i < 100; ++i) rig.pool->submit([] {});
  rig.settle();
  rig.pool->shutdown(ShutdownMode::graceful);
}

// 8 submitters of 10,000 tasks each; 2,000 each under a sanitizer, where
// real threads run 5-15 times slower (the designs that start a thread per
// task took 3 minutes at 10,000 under ThreadSanitizer) and the interleavings
// it watches come as well from fewer tasks.
#if defined(__SANITIZE_THREAD__) || defined(__SANITIZE_ADDRESS__)
constexpr int kTasksEach = 2'000;
#else
constexpr int kTasksEach = 10'000;
#endif

TEST_CASE("conformance: the accounting invariant holds under 8 concurrent submitters") {
  auto design = GENERATE(from_range(designs()));
  CAPTURE(design);
  Rig rig(design);
  std::atomic<std::uint64_t> ran{0};
  std::vector<std::unique_ptr<Submitter>> submitters;
  for (int s = 0; s < 8; ++s)
    submitters.push_back(
        std::make_unique<Submitter>(*rig.pool, kTasksEach, [&](int) -> Task { return [&] { ran++; }; }));
  std::uint64_t accepted = 0;
  for (auto& s : submitters) {
    s->join();
    accepted += static_cast<std::uint64_t>(s->fates.accepted.load());
    CHECK(s->fates.closed == 0);
  }
  rig.pool->shutdown(ShutdownMode::graceful);
  Accounting acc = rig.pool->accounting();
  CHECK(acc.submitted == 8u * kTasksEach);
  CHECK(acc.balanced());
  CHECK(acc.completed == ran.load());
  CHECK(acc.completed == accepted);
  CHECK(rig.stream.dropped() == 0);
}

TEST_CASE("conformance: a task that throws neither kills the pool nor loses other tasks") {
  auto design = GENERATE(from_range(designs()));
  CAPTURE(design);
  // weedge's worker gets no result from a task that panics and waits for its
  // timer, as Go's does: here a 1 ms TimeOut, and the clock moved 1 ms at a
  // time while anything waits on it, never as far as weedge's 30 s rule
  // (which would let every worker exit after a task).
  const bool timed = design == "weedge";
  Rig rig(design, timed ? json{{"TimeOut", "1ms"}} : json(nullptr));
  std::atomic<bool> done{false};
  std::optional<Thread> timer;
  if (timed)
    timer.emplace("conformance-timer", [&] {
      while (!done) {
        if (rig.clock.waiters() > 0 && rig.clock.now() < Time(std::chrono::seconds(20)))
          rig.clock.advance(std::chrono::milliseconds(1));
        std::this_thread::sleep_for(std::chrono::microseconds(200));
      }
    });
  constexpr int n = 300;
  std::vector<std::atomic<int>> ran(n);
  std::vector<SubmitResult> results;
  for (int i = 0; i < n; ++i)
    results.push_back(rig.pool->submit([&ran, i] {
      ran[static_cast<std::size_t>(i)]++;
      if (i % 3 == 0) throw std::runtime_error("task failed");
    }));
  rig.settle();
  // The pool still works after its tasks threw.
  std::atomic<bool> after{false};
  SubmitResult last = rig.pool->submit([&] { after = true; });
  rig.pool->shutdown(ShutdownMode::graceful);
  done = true;
  if (timer) timer->join();

  std::uint64_t threw = 0, completed = 0;
  for (int i = 0; i < n; ++i) {
    if (!results[static_cast<std::size_t>(i)].accepted()) continue;
    CHECK(ran[static_cast<std::size_t>(i)] == 1);
    (i % 3 == 0 ? threw : completed)++;
  }
  CHECK(threw > 0);
  Accounting acc = rig.pool->accounting();
  CHECK(acc.threw == threw);
  CHECK(acc.completed == completed + (last.accepted() ? 1 : 0));
  CHECK(after == last.accepted());
  CHECK(acc.balanced());
}

TEST_CASE("conformance: when the OS refuses a thread, no task is lost and nothing hangs") {
  auto design = GENERATE(from_range(designs()));
  CAPTURE(design);
  Rig rig(design);
  constexpr int n = 20;
  std::atomic<int> ran{0};
  int accepted = 0;
  {
    struct Disarm {
      ~Disarm() { testing::refuse_threads("", 0); }
    } disarm;
    testing::refuse_threads("", 1);  // the next thread this process starts: the pool's first worker
    for (int i = 0; i < n; ++i) accepted += rig.pool->submit([&] { ++ran; }).accepted() ? 1 : 0;
  }
  rig.pool->shutdown(ShutdownMode::graceful);
  Accounting acc = rig.pool->accounting();
  CHECK(acc.submitted == n);
  CHECK(acc.completed == static_cast<std::uint64_t>(accepted));
  CHECK(ran == accepted);
  CHECK(acc.balanced());
  CHECK(rig.pool->state() == Counters{});
}

TEST_CASE("conformance: destroying a pool joins every thread it started") {
  auto design = GENERATE(from_range(designs()));
  CAPTURE(design);
  Rig rig;
  const test::OsThreads os_before;  // the trace's drainer runs already
  const std::size_t live_before = live_threads();
  rig.make(design);
  Gate gate;
  Submitter gated(*rig.pool, 4, [&](int) -> Task { return gate.task(); });
  gate.await_arrivals(1);
  gate.open();
  gated.join();
  for (int i = 0; i < 100; ++i) rig.pool->submit([] {});
  rig.pool.reset();  // no shutdown() first: the destructor must do it
  CHECK(live_threads() == live_before);
  // A joined thread can linger in /proc/self/task for a moment while the kernel reaps it.
  os_before.await_none_added("the OS has reaped every thread of the pool");
}

TEST_CASE("conformance: after shutdown, submissions are refused as closed") {
  auto design = GENERATE(from_range(designs()));
  CAPTURE(design);
  Rig rig(design);
  rig.pool->submit([] {});
  rig.pool->shutdown(ShutdownMode::graceful);
  rig.log.mark();
  std::atomic<bool> ran{false};
  SubmitResult r = rig.pool->submit([&] { ran = true; });
  CHECK(r.fate == Fate::closed);
  CHECK(r.reason == rules::pool_closed());
  await_event(rig.log, is_kind(EventKind::task_refused, rules::pool_closed()), "refusal as closed");
  rig.pool->shutdown(ShutdownMode::now);  // a second shutdown is harmless
  CHECK_FALSE(ran);
  CHECK(rig.pool->accounting().balanced());
}
