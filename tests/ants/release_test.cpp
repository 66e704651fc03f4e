// ants_test.go's Release / ReleaseTimeout / Reboot and panic behaviours.
#include <atomic>
#include <functional>
#include <mutex>
#include <stdexcept>
#include <vector>

#include "pools/ants/rules.h"
#include "pools/core/thread.h"
#include "tests/ants/rig.h"

using namespace poolscope;
using namespace poolscope::ants;
using namespace poolscope::ants::test;

TEST_CASE(
    "ants: Release returns every blocked submitter ErrPoolClosed while a task still runs "
    "(TestReleaseWhenRunningPool)") {
  Rig rig;
  auto p = rig.pool(1);
  Gate gate;
  std::atomic<int> accepted{0}, closed{0};
  auto submitter = [&] {
    for (int i = 0; i < 30; ++i) {
      std::error_code err = p->submit(gate.task());
      (err == ErrPoolClosed ? closed : accepted)++;
    }
  };
  BoundedThread a("submitter-a", submitter), b("submitter-b", submitter);
  gate.await_arrivals(1);
  // Both wait: the one whose task runs, on its second submit, and the other.
  // (A submitter that checked IsClosed just before Release and reaches
  // cond.Wait just after its Broadcast would wait for a worker to finish:
  // ants has that race too. Waiting for both to be asleep avoids it here.)
  await_waiting(*p, 2);

  p->release();
  a.join();  // no hang: the waiters woke with ErrPoolClosed, later submits fail at once
  b.join();
  CHECK(accepted == 1);
  CHECK(closed == 59);
  CHECK(p->is_closed());
  CHECK(p->running() == 1);  // the busy worker finishes its task first

  gate.open();
  Event exited = await_event(rig.log, is_kind(EventKind::worker_exited), "the busy worker exits after its task");
  CHECK(exited.rule == ants::rules::kRelease);
  CHECK(p->running() == 0);
  CHECK(p->trace().accounting().balanced());
}

TEST_CASE("ants: Release stops the idle workers, and a second Release does nothing") {
  Rig rig;
  auto p = rig.pool(5);
  Gate gate;
  for (int i = 0; i < 3; ++i) REQUIRE_FALSE(p->submit(gate.task()));
  gate.open();
  await_idle(*p, 3);
  p->release();
  p->release();
  await_count(rig.log, is_kind(EventKind::worker_exited, ants::rules::kRelease), 3, "the idle workers exit");
  CHECK(rig.log.count(is_kind(EventKind::worker_exited, ants::rules::kRelease)) == 3);
  CHECK(p->running() == 0);
  CHECK(rig.log.count(is_kind(EventKind::pool_state, ants::rules::kRelease)) == 1);
}

TEST_CASE("ants: ReleaseTimeout is nil once every worker has ended (TestReleaseTimeout)") {
  const bool disablePurge = GENERATE(false, true);
  CAPTURE(disablePurge);
  Rig rig;
  auto p = rig.pool(10, {.DisablePurge = disablePurge});
  Gate gate;
  for (int i = 0; i < 5; ++i) REQUIRE_FALSE(p->submit(gate.task()));
  std::error_code err = ErrPoolOverload;
  BoundedThread releaser("releaser", [&] { err = p->release_timeout(2s); });
  await_event(rig.log, is_kind(EventKind::pool_state, ants::rules::kRelease), "released");
  gate.open();
  releaser.join();
  CHECK_FALSE(err);
  CHECK(p->running() == 0);
  CHECK(p->release_timeout(2s) == ErrPoolClosed);
}

TEST_CASE("ants: ReleaseTimeout gives ErrTimeout when a worker outlives the timeout on the pool's clock") {
  Rig rig;
  auto p = rig.pool(10);
  Gate gate;
  REQUIRE_FALSE(p->submit(gate.task()));
  std::error_code err;
  std::atomic<bool> returned{false};
  BoundedThread releaser("releaser", [&] {
    err = p->release_timeout(2s);
    returned = true;
  });
  await_event(rig.log, is_kind(EventKind::pool_state, ants::rules::kRelease), "released");
  rig.clock.advance(2s - Nanos(1));
  // Purge and ticktock end; the releaser's timer is left, one nanosecond short.
  await_condition([&] { return rig.clock.waiters() == 1; }, "only the releaser waits on the clock");
  CHECK_FALSE(returned);
  rig.clock.advance(Nanos(1));
  releaser.join();
  CHECK(err == ErrTimeout);
  gate.open();
}

TEST_CASE("ants: Reboot opens a released pool again (TestRebootNewPool, ...Calc, PreAlloc: v2.11.2)") {
  const bool withFunc = GENERATE(false, true);
  const bool preAlloc = GENERATE(false, true);
  CAPTURE(withFunc, preAlloc);
  Rig rig;
  std::atomic<long> sum{0};
  auto p = new_pool_with_func<int>(
      10, [&](int i) { sum += i; }, {.PreAlloc = preAlloc}, rig.target());
  auto q = rig.pool(10, {.PreAlloc = preAlloc});
  auto run = [&](int i) { return withFunc ? (*p)->invoke(i) : q->submit([&sum, i] { sum += i; }); };
  PoolCommon& pool = withFunc ? static_cast<PoolCommon&>(**p) : *q;

  pool.reboot();  // an open pool: nothing happens
  for (int i = 0; i < 1000; ++i) REQUIRE_FALSE(run(i));
  await_condition([&] { return sum == 499500; }, "sum 0..999");

  CHECK_FALSE(pool.release_timeout(1s));
  CHECK(run(1) == ErrPoolClosed);
  pool.reboot();
  CHECK_FALSE(pool.is_closed());
  sum = 0;
  for (int i = 0; i < 1000; ++i) REQUIRE_FALSE(run(i));
  await_condition([&] { return sum == 499500; }, "sum 0..999 after the reboot");
  rig.log.sync();
  CHECK(rig.log.count(is_kind(EventKind::pool_state, ants::rules::kReboot)) == 1);
}

TEST_CASE("ants: a task that throws reaches the PanicHandler after its worker is counted out (TestPanicHandler)") {
  const bool withFunc = GENERATE(false, true);
  const bool preAlloc = GENERATE(false, true);
  CAPTURE(withFunc, preAlloc);
  Rig rig;
  std::atomic<int> panics{0};
  std::atomic<int> runningInHandler{-1};
  std::atomic<PoolCommon*> pool{nullptr};
  Options options{.PreAlloc = preAlloc, .PanicHandler = [&](std::exception_ptr e) {
                    runningInHandler = pool.load()->running();
                    try {
                      std::rethrow_exception(e);
                    } catch (const std::runtime_error& err) {
                      if (std::string_view(err.what()) == "Oops!") panics++;
                    }
                  }};
  auto oops = [] { throw std::runtime_error("Oops!"); };
  auto p = rig.pool(10, options);
  auto f = new_pool_with_func<int>(
      10, [&](int) { oops(); }, options, rig.target());
  if (withFunc) {
    pool = f->get();
    REQUIRE_FALSE((*f)->invoke(1));
  } else {
    pool = p.get();
    REQUIRE_FALSE(p->submit(oops));
  }
  await_condition([&] { return panics == 1; }, "the handler ran");
  CHECK(runningInHandler == 0);
  CHECK(pool.load()->running() == 0);
  Event exited = await_event(rig.log, is_kind(EventKind::worker_exited), "the worker exits");
  CHECK(exited.rule == ants::rules::kPanic);
  CHECK(pool.load()->trace().accounting().threw == 1);
}

TEST_CASE(
    "ants: without a PanicHandler the Logger reports what the task threw (TestPoolPanicWithoutHandler, "
    "...WithPreAlloc)") {
  const bool preAlloc = GENERATE(false, true);
  CAPTURE(preAlloc);
  Rig rig;
  std::mutex m;
  std::vector<std::string> lines;
  auto p = rig.pool(10, {.PreAlloc = preAlloc, .Logger = [&](const std::string& line) {
                           std::lock_guard g(m);
                           lines.push_back(line);
                         }});
  REQUIRE_FALSE(p->submit([] { throw std::runtime_error("Oops!"); }));
  await_condition(
      [&] {
        std::lock_guard g(m);
        return !lines.empty();
      },
      "the panic is logged");
  {
    std::lock_guard g(m);
    CHECK(lines.size() == 1);
    CHECK(lines.front() == "worker exits from panic: Oops!\n");
  }
  Event exited = await_event(rig.log, is_kind(EventKind::worker_exited), "the worker exits");
  CHECK(exited.rule == ants::rules::kPanic);
  CHECK(p->running() == 0);
}

namespace {

// A manual clock that can hold one thread inside now(): a gate in the trace's
// clock. A submitter reads it for its submitter_blocked event, after its
// capacity check and before cond.Wait, with the pool's lock held.
class HoldingClock final : public Clock {
 public:
  Time now() const override {
    if (holdThisThread && hold_if_ && hold_if_()) {
      held_.store(true);
      release_.pass();
    }
    return inner_.now();
  }
  std::cv_status wait_until(CondVar& cv, LockRef lock, Time deadline) override {
    return inner_.wait_until(cv, lock, deadline);
  }

  // From now on, holds the calling thread in every now() for which `hold_if`
  // is true, until release().
  void hold_here(std::function<bool()> hold_if) {
    hold_if_ = std::move(hold_if);
    holdThisThread = true;
  }
  void await_held() const {
    await_condition([&] { return held_.load(); }, "a thread held in the clock");
  }
  void release() { release_.open(); }

 private:
  static thread_local bool holdThisThread;
  ManualClock inner_;
  std::function<bool()> hold_if_;  // set and read by the held thread only
  mutable std::atomic<bool> held_{false};
  mutable Gate release_;
};
thread_local bool HoldingClock::holdThisThread = false;

}  // namespace

// The deviation in retrieveWorker: its cond ticket is taken before the
// capacity check. Here the submitter is held after that check (the pool is
// full) and before cond.Wait, while the last worker panics and its exit path
// signals without the lock. Were the ticket taken in Wait, that Signal would
// reach nobody, and with DisablePurge nothing else would ever wake it.
TEST_CASE("ants: a Signal between a submitter's capacity check and its Wait still wakes it (DisablePurge)") {
  HoldingClock clock;
  TraceStream stream;
  TraceLog log{stream};
  auto made = new_pool(1, {.Logger = [](const std::string&) {}, .DisablePurge = true},
                       TraceTarget{.clock = &clock, .stream = &stream, .name = "ants"});
  REQUIRE(made);
  ants::Pool& p = **made;
  Gate gate;
  REQUIRE_FALSE(p.submit([&] {
    gate.pass();
    throw std::runtime_error("Oops!");
  }));
  std::error_code err = ErrTimeout;
  std::atomic<bool> ran{false};
  BoundedThread submitter("submitter", [&] {
    clock.hold_here([&] { return p.waiting() == 1; });  // its submitter_blocked stamp
    err = p.submit([&] { ran = true; });
  });
  clock.await_held();
  CHECK(p.parked() == 0);
  const std::size_t threads = live_threads();
  gate.open();  // the task throws; the exit path: running--, then Signal
  await_condition([&] { return live_threads() == threads - 1; }, "the worker's thread ended, after its Signal");
  clock.release();
  submitter.join();
  CHECK_FALSE(err);
  await_condition([&] { return ran.load(); }, "the submitter's task ran");
  log.sync();
  CHECK(log.count(is_kind(EventKind::worker_exited, ants::rules::kPanic)) == 1);
  CHECK(log.count(is_kind(EventKind::worker_spawned)) == 2);
}

// The exit path signals without the lock. With DisablePurge no dormant
// Broadcast would ever come: a lost Signal would leave the waiter asleep.
TEST_CASE("ants: a worker that panics wakes a waiting submitter, which starts a new worker") {
  const bool disablePurge = GENERATE(false, true);
  CAPTURE(disablePurge);
  Rig rig;
  auto p = rig.pool(1, {.Logger = [](const std::string&) {}, .DisablePurge = disablePurge});
  Gate gate;
  REQUIRE_FALSE(p->submit([&] {
    gate.pass();
    throw std::runtime_error("Oops!");
  }));
  std::error_code err = ErrTimeout;
  std::atomic<bool> ran{false};
  BoundedThread waiter("waiter", [&] { err = p->submit([&] { ran = true; }); });
  await_parked(*p, 1);  // asleep with its ticket: the exit path's Signal comes after it
  gate.open();
  waiter.join();
  CHECK_FALSE(err);
  await_condition([&] { return ran.load(); }, "the waiter's task ran");
  rig.log.sync();
  CHECK(rig.log.count(is_kind(EventKind::worker_spawned)) == 2);
  CHECK(rig.log.count(is_kind(EventKind::worker_exited, ants::rules::kPanic)) == 1);
}
