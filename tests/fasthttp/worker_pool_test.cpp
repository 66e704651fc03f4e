// getCh, release, workerFunc and Stop: which worker gets a task, when a task
// is refused, how workers leave. The manual clock never moves here.
#include <array>
#include <stdexcept>

#include "tests/fasthttp/rig.h"

using namespace poolscope;
using namespace poolscope::fasthttp;
using test::await_event;
using test::Gate;
using test::of_worker;
using test::Rig;

TEST_CASE("getCh: the next task goes to the worker released last (LIFO)") {
  const int cap = GENERATE(0, 1);  // both channel kinds of the workerChanCap rule
  CAPTURE(cap);
  Rig rig({.MaxWorkersCount = 3, .workerChanCap_ = cap});
  std::array<Gate, 3> gates;
  std::array<WorkerId, 3> w{};
  for (std::size_t i = 0; i < 3; ++i) {
    Event e = rig.serve(gates[i].task());
    CHECK(e.rule == kNewWorker);
    w[i] = e.worker;
  }
  // Tasks on A, B, C finish in that order: the ready stack is A, B, C (top).
  for (std::size_t i = 0; i < 3; ++i) {
    gates[i].open();
    await_event(rig.log, of_worker(EventKind::worker_idle, w[i]), "worker back on the ready stack");
  }
  Gate hold;
  for (WorkerId expected : {w[2], w[1], w[0]}) {
    Event e = rig.serve(hold.task());
    CHECK(e.worker == expected);
    CHECK(e.rule == kReadyStackPop);
  }
  CHECK_FALSE(rig.wp.serve([] {}));  // all three busy again, and no more may start
  hold.open();
  rig.wp.stop();
  rig.wp.join();
  CHECK(rig.events(is_kind(EventKind::worker_spawned)).size() == 3);
  CHECK(rig.wp.trace().accounting().completed == 6);
}

TEST_CASE("getCh: with MaxWorkersCount busy, serve refuses at once, after one finishes it is accepted") {
  Rig rig({.MaxWorkersCount = 4});
  std::array<Gate, 4> gates;
  std::array<WorkerId, 4> w{};
  for (std::size_t i = 0; i < 4; ++i) w[i] = rig.serve(gates[i].task()).worker;
  CHECK(rig.wp.state() == Counters{.workers = 4, .busy = 4});

  std::atomic<int> refused_ran{0};
  for (int i = 0; i < 5; ++i) {
    auto served = rig.wp.serve([&] { refused_ran++; });
    REQUIRE_FALSE(served);
    CHECK(served.error() == kNoIdleWorkers);
  }
  rig.await_count(is_kind(EventKind::task_refused, kNoIdleWorkers), 5, "five refusals traced");
  CHECK(rig.wp.trace().counters().queued == 0);  // refused, never queued

  gates[1].open();
  await_event(rig.log, of_worker(EventKind::worker_idle, w[1]), "the second worker is idle");
  Gate hold;
  Event e = rig.serve(hold.task());
  CHECK(e.worker == w[1]);
  CHECK(e.rule == kReadyStackPop);
  CHECK_FALSE(rig.wp.serve([] {}));

  for (Gate& g : gates) g.open();
  hold.open();
  rig.wp.stop();
  rig.wp.join();
  CHECK(refused_ran == 0);
  Accounting acc = rig.wp.trace().accounting();
  CHECK(acc.submitted == 11);
  CHECK(acc.completed == 5);
  CHECK(acc.refused == 6);
  CHECK(acc.balanced());
}

TEST_CASE("stop: sends nil to idle workers, busy ones finish their task and exit, no thread leaks") {
  const std::size_t live_before = live_threads();
  {
    Rig rig({.MaxWorkersCount = 4});
    const test::OsThreads os_before;  // the trace's drainer and the cleaner run already
    Gate first_two, last_two;
    std::array<WorkerId, 4> w{};
    for (std::size_t i = 0; i < 4; ++i) w[i] = rig.serve(i < 2 ? first_two.task() : last_two.task()).worker;
    first_two.open();
    for (std::size_t i = 0; i < 2; ++i) rig.await_count(of_worker(EventKind::worker_idle, w[i]), 1, "idle");
    CHECK(rig.wp.state() == Counters{.workers = 4, .busy = 2});

    last_two.await_arrivals(2);
    rig.wp.stop();  // returns with two workers still busy at the gate
    rig.await_count(is_kind(EventKind::pool_state, kMustStop), 1, "mustStop set");
    for (std::size_t i = 0; i < 2; ++i) {
      auto reaped = rig.events(of_worker(EventKind::worker_reaped, w[i]));
      REQUIRE(reaped.size() == 1);
      CHECK(reaped[0].rule == kStopReady);
      CHECK(rig.exited(w[i]).rule == kNilReceived);
    }
    CHECK(rig.wp.state() == Counters{.workers = 2, .busy = 2});

    last_two.open();
    for (std::size_t i = 2; i < 4; ++i) CHECK(rig.exited(w[i]).rule == kMustStop);  // after its task
    rig.wp.join();
    // A joined thread may linger in /proc for a moment: wait for the OS to agree.
    os_before.await_none_added("no worker thread left");
    CHECK(rig.events(is_kind(EventKind::worker_idle)).size() == 2);  // the busy two never went idle
    CHECK(rig.wp.state() == Counters{});
    CHECK(rig.wp.trace().counters() == Counters{});
    Accounting acc = rig.wp.trace().accounting();
    CHECK(acc.completed == 4);
    CHECK(acc.balanced());
  }
  CHECK(live_threads() == live_before);  // nor the cleaner, once the pool is gone
}

TEST_CASE("workerFunc: a task that throws is reported as threw, and its worker carries on") {
  Rig rig({.MaxWorkersCount = 2});
  const WorkerId w = rig.serve([] { throw std::runtime_error("handler failed"); }).worker;
  await_event(rig.log, of_worker(EventKind::task_threw, w), "the task threw");
  await_event(rig.log, of_worker(EventKind::worker_idle, w), "released as if the task had returned");
  Event e = rig.serve([] {});
  CHECK(e.worker == w);
  CHECK(e.rule == kReadyStackPop);
  rig.wp.stop();
  rig.wp.join();
  Accounting acc = rig.wp.trace().accounting();
  CHECK(acc.threw == 1);
  CHECK(acc.completed == 1);
  CHECK(rig.events(is_kind(EventKind::worker_spawned)).size() == 1);
}

TEST_CASE("quirk: serve after stop still starts a worker, which serves that one task and exits") {
  Rig rig({.MaxWorkersCount = 2});
  rig.wp.stop();
  std::atomic<bool> ran{false};
  Event e = rig.serve([&] { ran = true; });
  CHECK(e.rule == kNewWorker);
  CHECK(rig.exited(e.worker).rule == kMustStop);
  CHECK(ran);
  rig.wp.join();
  CHECK(rig.events(is_kind(EventKind::worker_idle)).empty());
}

TEST_CASE("quirk: start after stop keeps mustStop, so each worker serves one task, workerChans are reused") {
  Rig rig({.MaxWorkersCount = 2});
  Gate gate;
  const WorkerId a = rig.serve(gate.task()).worker;
  const WorkerId b = rig.serve(gate.task()).worker;
  CHECK(rig.wp.worker_chans() == 2);
  gate.open();
  rig.await_count(is_kind(EventKind::worker_idle), 2, "both idle");
  rig.wp.stop();
  rig.wp.join();  // both got nil and every thread is joined
  for (WorkerId w : {a, b}) CHECK(rig.exited(w).rule == kNilReceived);

  rig.wp.start();
  CHECK(rig.events(is_kind(EventKind::pool_state, kStartCleaner)).size() == 2);
  for (int i = 0; i < 3; ++i) {
    Event e = rig.serve([] {});
    CHECK(e.rule == kNewWorker);  // never a ready worker: none goes back on the stack
    rig.wp.join();
    CHECK(rig.exited(e.worker).rule == kMustStop);
  }
  CHECK(rig.events(is_kind(EventKind::worker_idle)).size() == 2);
  CHECK(rig.wp.worker_chans() == 2);  // the sync.Pool handed back the stopped workers' channels
  CHECK(rig.wp.trace().accounting().completed == 5);
}

TEST_CASE("state(): workersCount and len(ready), agreeing with the trace when the pool is still") {
  Rig rig({.MaxWorkersCount = 3});
  Gate gate;
  for (int i = 0; i < 3; ++i) rig.serve(gate.task());
  test::await_condition(
      [&] {
        rig.log.sync();
        return rig.wp.state() == rig.log.last_counters(rig.wp.trace().id());
      },
      "state() agrees with the trace while all are busy");
  CHECK(rig.wp.state() == Counters{.workers = 3, .busy = 3});
  gate.open();
  rig.await_count(is_kind(EventKind::worker_idle), 3, "all idle");
  rig.log.sync();
  CHECK(rig.wp.state() == Counters{.workers = 3, .busy = 0});
  CHECK(rig.log.last_counters(rig.wp.trace().id()) == rig.wp.state());
}
