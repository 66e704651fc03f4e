// The cleaner, on a manual clock: when it passes, whom it reaps, in what order.
#include <array>

#include "tests/fasthttp/rig.h"

using namespace poolscope;
using namespace poolscope::fasthttp;
using namespace std::chrono_literals;
using test::await_event;
using test::Gate;
using test::of_worker;
using test::Rig;

namespace {

constexpr Nanos kIdle = 10s;

TraceLog::Pred is_pass() { return is_kind(EventKind::cleaner_pass, kCleanerPass); }

}  // namespace

TEST_CASE("cleaner: first pass at start, then one pass per MaxIdleWorkerDuration") {
  Rig rig({.MaxIdleWorkerDuration = kIdle});
  Event first = await_event(rig.log, is_pass(), "the pass at start");
  CHECK(first.time == 0);
  CHECK(first.arg == 0);
  CHECK(first.arg2 == 0);
  for (int k = 1; k <= 3; ++k) {
    REQUIRE(rig.clock.await_waiters(1));  // the cleaner, asleep
    rig.clock.advance(kIdle - 1ns);
    CHECK(rig.clock.waiters() == 1);  // not woken before its time
    CHECK(rig.events(is_pass()).size() == static_cast<std::size_t>(k));
    rig.clock.advance(1ns);
    Event pass = await_event(rig.log, is_pass(), "pass " + std::to_string(k));
    CHECK(pass.time == (k * kIdle).count());
  }
  rig.wp.stop();  // wakes the sleeping cleaner: the clock need not move
  CHECK(rig.clock.waiters() == 0);
}

TEST_CASE("cleaner: exactly the workers idle longer than MaxIdleWorkerDuration go, oldest first") {
  Rig rig({.MaxWorkersCount = 8, .MaxIdleWorkerDuration = kIdle});
  await_event(rig.log, is_pass(), "the pass at start");
  std::array<Gate, 5> gates;
  std::array<WorkerId, 5> w{};
  for (std::size_t i = 0; i < 5; ++i) w[i] = rig.serve(gates[i].task()).worker;
  auto release_at = [&](std::size_t i, Time t) {
    rig.clock.advance_to(t);
    gates[i].open();
    await_event(rig.log, of_worker(EventKind::worker_idle, w[i]), "worker released");
  };
  auto reaps = [&] { return rig.events(is_kind(EventKind::worker_reaped, kCleanerPass)); };

  release_at(0, 1s);
  release_at(1, 3s);
  rig.clock.advance_to(10s);
  Event pass = await_event(rig.log, is_pass(), "pass at 10s");
  CHECK(pass.arg == 2);   // looked at the two idle workers...
  CHECK(pass.arg2 == 0);  // ...idle 9s and 7s: not long enough
  release_at(2, 10s);     // just after the pass at 10s
  release_at(3, 12s);
  release_at(4, 15s);

  // At 20s the ready stack holds workers idle 19, 17, 10, 8 and 5 seconds.
  rig.clock.advance_to(20s);
  pass = await_event(rig.log, is_pass(), "pass at 20s");
  CHECK(pass.time == Time(20s).count());
  CHECK(pass.arg == 5);
  CHECK(pass.arg2 == 2);
  auto r = reaps();
  REQUIRE(r.size() == 2);
  CHECK(r[0].worker == w[0]);  // the least recently used first
  CHECK(r[0].arg == Nanos(19s).count());
  CHECK(r[1].worker == w[1]);
  CHECK(r[1].arg == Nanos(17s).count());
  // Idle exactly MaxIdleWorkerDuration is not "more than": worker 2 stays, as in Go.
  for (std::size_t i = 0; i < 2; ++i) CHECK(rig.exited(w[i]).rule == kNilReceived);
  test::await_condition([&] { return rig.wp.state() == Counters{.workers = 3}; }, "three workers left, all idle");

  rig.clock.advance_to(30s);
  pass = await_event(rig.log, is_pass(), "pass at 30s");
  CHECK(pass.arg == 3);
  CHECK(pass.arg2 == 3);
  r = reaps();
  REQUIRE(r.size() == 5);
  CHECK(r[2].worker == w[2]);
  CHECK(r[2].arg == Nanos(20s).count());  // 2x: released just after a pass, reaped two passes later
  CHECK(r[3].worker == w[3]);
  CHECK(r[4].worker == w[4]);
  // Every worker lived between 1x and 2x MaxIdleWorkerDuration after its last task.
  for (const Event& e : r) {
    CHECK(e.arg > kIdle.count());
    CHECK(e.arg <= (2 * kIdle).count());
  }
  test::await_condition([&] { return rig.wp.state() == Counters{}; }, "every worker gone");
}

TEST_CASE("cleaner: a reaped worker is gone for good, the next task starts a new one on a recycled channel") {
  Rig rig({.MaxWorkersCount = 2, .MaxIdleWorkerDuration = kIdle});
  await_event(rig.log, is_pass(), "the pass at start");
  const std::size_t live = live_threads();
  const WorkerId old = rig.serve([] {}).worker;
  await_event(rig.log, of_worker(EventKind::worker_idle, old), "idle");
  rig.clock.advance(kIdle);
  await_event(rig.log, is_pass(), "pass at 10s: idle exactly 10s, kept");
  rig.clock.advance(kIdle);
  await_event(rig.log, of_worker(EventKind::worker_reaped, old), "reaped at 20s");
  // Its thread has ended, and putting its workerChan back was the thread's last step.
  test::await_condition([&] { return live_threads() == live; }, "the reaped worker's thread ended");

  Event e = rig.serve([] {});
  CHECK(e.worker != old);
  CHECK(e.rule == kNewWorker);
  CHECK(rig.wp.worker_chans() == 1);
}
