// weedge/lib workerpool: its rules and its quirks (seed-systems.md §5), on a
// manual clock. Tasks wait at Gates; the tests wait for trace events, and
// for the workers to be asleep on the clock before moving it.
#include "pools/weedge/workerpool.h"

#include <atomic>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "pools/core/go/select.h"
#include "pools/core/thread.h"
#include "pools/core/trace_log.h"
#include "tests/support/sync.h"
#include "tests/support/trace_rig.h"

using namespace poolscope;
using weedge::NewWorkerPool;
using weedge::WorkerPool_Stat_Running;
using weedge::WorkerPool_Stat_Start;
using WTask = weedge::Task;
namespace wrules = weedge::rules;
using namespace std::chrono_literals;
using test::await_condition;
using test::Gate;

namespace {

struct Rig : test::TraceRig {
  TraceTarget target() { return TraceRig::target("weedge"); }
};

// A task whose Do waits at `gate`.
WTask gated(Gate& gate, Nanos timeout = 1h, go::Chan<bool>* isTimeOut = nullptr) {
  return WTask{.Do =
                   [&gate](std::any&, std::any&) {
                     gate.pass();
                     return true;
                   },
               .InParam = 1,
               .OutParam = 2,
               .ChIsTimeOut = isTimeOut,
               .TimeOut = timeout};
}

// A task whose Do panics (throws) at once.
WTask throwing(go::Chan<bool>* isTimeOut, Nanos timeout) {
  return WTask{.Do = [](std::any&, std::any&) -> bool { throw std::runtime_error("boom"); },
               .InParam = 1,
               .OutParam = 2,
               .ChIsTimeOut = isTimeOut,
               .TimeOut = timeout};
}

// select { case v := <-ch: ...; default: } : what ch holds now, if anything.
std::optional<bool> poll(go::Chan<bool>& ch) {
  bool v = false;
  if (go::select(go::recv(ch, v), go::default_) == 0) return v;
  return std::nullopt;
}

}  // namespace

TEST_CASE("weedge: NewWorkerPool returns nil for min <= 0, min > max or taskChSize <= 0") {
  Rig rig;
  CHECK(NewWorkerPool(0, 5, 3, rig.target()) == nullptr);
  CHECK(NewWorkerPool(6, 5, 3, rig.target()) == nullptr);
  CHECK(NewWorkerPool(3, 5, 0, rig.target()) == nullptr);
  auto wp = NewWorkerPool(3, 5, 3, rig.target());
  REQUIRE(wp != nullptr);
  CHECK(wp->GetStat() == WorkerPool_Stat_Start);
  CHECK(wp->GetCurrentGoNumber() == 0);  // init makes the slots; Run starts workers
  wp->Run();
  CHECK(wp->GetStat() == WorkerPool_Stat_Running);
  CHECK(wp->GetCurrentGoNumber() == 3);
  CHECK(rig.count(EventKind::worker_spawned, "run-min") == 3);
}

TEST_CASE("weedge: AddTask drops a task with a nil Do or param, or before Run, and says why (Go only logs)") {
  Rig rig;
  auto wp = NewWorkerPool(1, 1, 1, rig.target());
  Gate gate;
  CHECK(wp->AddTask(gated(gate)) == wrules::kNotRunning);
  wp->Run();
  WTask noDo = gated(gate);
  noDo.Do = nullptr;
  CHECK(wp->AddTask(std::move(noDo)) == wrules::kTaskNil);
  WTask noIn = gated(gate);
  noIn.InParam.reset();
  CHECK(wp->AddTask(std::move(noIn)) == wrules::kTaskNil);
  CHECK(rig.count(EventKind::task_refused) == 3);
}

TEST_CASE("weedge: the pool grows by at most max - min workers in its life (the watcher never passes a running slot)") {
  Rig rig;
  auto wp = NewWorkerPool(3, 5, 3, rig.target());
  wp->Run();
  Gate gate;
  for (int i = 0; i < 3; ++i) {  // one at a time: two waiting at once would already send a token
    REQUIRE(wp->AddTask(gated(gate)) == kNoLabel);
    gate.await_arrivals(i + 1);
  }
  REQUIRE(wp->AddTask(gated(gate)) == kNoLabel);  // 1 waits: no token (len must exceed 1)
  CHECK(rig.count(EventKind::worker_spawned, "watch-add-worker") == 0);
  REQUIRE(wp->AddTask(gated(gate)) == kNoLabel);  // 2 wait, 2 > 3/2: a token; slot 3 is free
  gate.await_arrivals(4);
  rig.await_count(EventKind::worker_spawned, "watch-add-worker", 1);
  REQUIRE(wp->AddTask(gated(gate)) == kNoLabel);  // again 2 wait: slot 4
  gate.await_arrivals(5);
  rig.await_count(EventKind::worker_spawned, "watch-add-worker", 2);
  // As in Go, addWorker counts the worker only after it started it.
  await_condition([&] { return wp->GetCurrentGoNumber() == 5; }, "curWorkerNum counts the second growth");
  REQUIRE(wp->AddTask(gated(gate)) == kNoLabel);  // 2 wait, but curWorkerNum == max: no token
  REQUIRE(wp->AddTask(gated(gate)) == kNoLabel);
  CHECK(wp->counters_() == Counters{5, 5, 3, 0});
  gate.open();
  wp->Stop();
  CHECK(rig.count(EventKind::worker_spawned, "watch-add-worker") == 2);
  CHECK(rig.count(EventKind::task_finished) == 8);
}

TEST_CASE("weedge: after 30 s without growth a worker exits after a task, but curWorkerNum keeps counting it") {
  Rig rig;
  auto wp = NewWorkerPool(1, 2, 3, rig.target());
  wp->Run();
  Gate g1, g2, g3;
  REQUIRE(wp->AddTask(gated(g1)) == kNoLabel);
  g1.await_arrivals(1);
  REQUIRE(wp->AddTask(gated(g2)) == kNoLabel);
  REQUIRE(wp->AddTask(gated(g3)) == kNoLabel);  // 2 wait, 2 > 1/2: grow to 2
  g2.await_arrivals(1);
  // addWorker counts the new worker after starting it, as in Go: its task
  // may start first.
  await_condition([&] { return wp->GetCurrentGoNumber() == 2; }, "curWorkerNum counts the growth");

  rig.clock.advance(29s);  // 29 s after the growth: a worker that finishes now stays
  g1.open();               // task 3 still waits: the finisher takes it (the channel was not empty)
  g3.await_arrivals(1);
  CHECK(rig.count(EventKind::worker_exited) == 0);
  rig.clock.advance(1s);  // 30 s
  g3.open();              // the channel is empty, 2 > 1 counted, 30 >= 30: exit
  rig.await_count(EventKind::worker_exited, "destroy-after-task-done", 1);
  CHECK(wp->GetCurrentGoNumber() == 2);
  CHECK(wp->counters_().workers == 1);
  g2.open();  // the last worker, too: the count still says 2
  rig.await_count(EventKind::worker_exited, "destroy-after-task-done", 2);
  CHECK(wp->GetCurrentGoNumber() == 2);
  CHECK(wp->counters_().workers == 0);

  // Nobody is left to take a task, and the count stops any growth.
  Gate never;
  REQUIRE(wp->AddTask(gated(never)) == kNoLabel);
  REQUIRE(wp->AddTask(gated(never)) == kNoLabel);
  CHECK(wp->counters_() == Counters{0, 0, 2, 0});
  CHECK(wp->stop_(false) == 2);  // Go's Stop would hang in wg.Wait()
  CHECK(rig.count(EventKind::pool_state, "stop-would-hang") == 1);
  CHECK(rig.count(EventKind::task_dropped, "no-live-worker") == 2);
}

TEST_CASE("weedge: the timeout counts from pickup: the task runs on, detached, and its worker moves on") {
  Rig rig;
  auto wp = NewWorkerPool(1, 1, 3, rig.target());
  wp->Run();
  go::Chan<bool> isTimeOut(1);
  Gate gate;
  rig.clock.advance(10s);
  REQUIRE(wp->AddTask(gated(gate, 3s, &isTimeOut)) == kNoLabel);
  gate.await_arrivals(1);
  REQUIRE(rig.clock.await_waiters(1));  // the worker waits on its timer (due at 13 s)
  rig.clock.advance(2s);
  CHECK_FALSE(poll(isTimeOut));
  rig.clock.advance(1s);
  CHECK(isTimeOut.recv() == true);
  rig.await_count(EventKind::pool_state, "task-timeout", 1);
  // The worker takes the next task while the first still runs: busy exceeds workers.
  Gate second;
  REQUIRE(wp->AddTask(gated(second, 3s)) == kNoLabel);
  second.await_arrivals(1);
  CHECK(wp->counters_() == Counters{1, 2, 0, 0});
  gate.open();
  second.open();
  wp->Stop();
  CHECK(rig.count(EventKind::task_finished) == 2);
}

TEST_CASE("weedge: a timer that fired unseen times out the worker's next task at once (go 1.15 timers)") {
  for (bool go123 : {false, true}) {
    CAPTURE(go123);
    Rig rig;
    auto wp = NewWorkerPool(1, 1, 3, rig.target(), go123);
    wp->Run();
    go::Chan<bool> isTimeOut(1);
    Gate a;
    REQUIRE(wp->AddTask(gated(a, 3s, &isTimeOut)) == kNoLabel);  // picked up at 0 s: timer due at 3 s
    a.await_arrivals(1);
    REQUIRE(rig.clock.await_waiters(1));
    rig.clock.advance(1s);
    a.open();
    CHECK(isTimeOut.recv() == false);  // done at 1 s; the timer stays armed
    rig.clock.advance(4s);             // 5 s: it fired into its channel, unseen

    std::atomic<int> onTimeOut{0};
    Gate b;
    WTask task = gated(b, 3s, &isTimeOut);
    task.OnTimeOut = [&](std::any&, std::any&) { ++onTimeOut; };
    REQUIRE(wp->AddTask(std::move(task)) == kNoLabel);
    b.await_arrivals(1);
    if (!go123) {
      CHECK(isTimeOut.recv() == true);  // at pickup + 0
      CHECK(onTimeOut == 1);
      CHECK(wp->counters_().busy == 1);  // and b still runs
    } else {
      REQUIRE(rig.clock.await_waiters(1));  // Reset dropped the stale tick: due at 8 s
      CHECK_FALSE(poll(isTimeOut));
      rig.clock.advance(3s);
      CHECK(isTimeOut.recv() == true);
    }
    b.open();
    wp->Stop();
  }
}

TEST_CASE("weedge: a task with no TimeOut is timed by the worker's timer from init (30 s)") {
  Rig rig;
  auto wp = NewWorkerPool(1, 1, 3, rig.target());
  wp->Run();
  rig.clock.advance(20s);
  go::Chan<bool> isTimeOut(1);
  Gate gate;
  REQUIRE(wp->AddTask(gated(gate, 0s, &isTimeOut)) == kNoLabel);
  gate.await_arrivals(1);
  REQUIRE(rig.clock.await_waiters(1));
  rig.clock.advance(10s);  // 30 s after init, 10 s after pickup
  CHECK(isTimeOut.recv() == true);
  gate.open();
  wp->Stop();
}

TEST_CASE("weedge: a task that throws sends no result: its worker waits for its timer and reports a timeout") {
  Rig rig;
  auto wp = NewWorkerPool(1, 1, 3, rig.target());
  wp->Run();
  go::Chan<bool> isTimeOut(1);
  REQUIRE(wp->AddTask(throwing(&isTimeOut, 200ms)) == kNoLabel);
  std::atomic<bool> ran{false};
  REQUIRE(wp->AddTask(WTask{.Do = [&](std::any&, std::any&) { return ran = true; }, .InParam = 1, .OutParam = 2}) ==
          kNoLabel);
  rig.await_count(EventKind::task_threw, "", 1);
  REQUIRE(rig.clock.await_waiters(1));  // GoSafely recovered and sent nothing: the worker waits on its timer
  rig.clock.advance(199ms);
  REQUIRE(rig.clock.await_waiters(1));
  CHECK_FALSE(ran);
  CHECK_FALSE(poll(isTimeOut));
  rig.clock.advance(1ms);
  CHECK(isTimeOut.recv() == true);  // reported timed out at 200 ms
  rig.await_count(EventKind::task_finished, "", 1);
  CHECK(ran);
  CHECK(rig.count(EventKind::pool_state, "task-timeout") == 1);
  CHECK(rig.count(EventKind::pool_state, "no-result") == 0);
  wp->Stop();
}

TEST_CASE("weedge: a task that throws with no timer left loses its worker for ever, until shutdown releases it") {
  Rig rig;
  auto wp = NewWorkerPool(1, 1, 3, rig.target());
  wp->Run();
  rig.clock.advance(30s);  // the timer from init fires, unseen
  Gate gate;
  REQUIRE(wp->AddTask(gated(gate, 0s)) == kNoLabel);  // no TimeOut: the stale tick times it out at once...
  gate.await_arrivals(1);
  rig.await_count(EventKind::pool_state, "task-timeout", 1);  // ...and is received: the timer is spent
  gate.open();
  rig.await_count(EventKind::task_finished, "", 1);

  go::Chan<bool> isTimeOut(1);
  REQUIRE(wp->AddTask(throwing(&isTimeOut, 0s)) == kNoLabel);
  rig.await_count(EventKind::pool_state, "no-result", 1);
  std::atomic<bool> ran{false};
  REQUIRE(wp->AddTask(WTask{.Do = [&](std::any&, std::any&) { return ran = true; }, .InParam = 1, .OutParam = 2}) ==
          kNoLabel);
  rig.clock.advance(1h);  // nothing wakes the worker: in Go, never
  CHECK_FALSE(ran);
  CHECK(wp->GetCurrentGoNumber() == 1);  // still counted
  CHECK(wp->counters_() == Counters{1, 0, 1, 0});
  CHECK_FALSE(poll(isTimeOut));

  wp->Stop();  // Go's would wait for ever; here the worker is released and drains the channel
  CHECK(ran);
  CHECK_FALSE(poll(isTimeOut));  // the worker's own `ok` check: nothing sent
  CHECK(rig.count(EventKind::pool_state, "stop-would-hang") == 1);
  CHECK(rig.count(EventKind::pool_state, "task-timeout") == 1);
}

TEST_CASE("weedge: AddTask blocks on a full channel: Stop waits up to 30 s for it, then closes the channel under it") {
  Rig rig;
  auto wp = NewWorkerPool(1, 1, 1, rig.target());
  wp->Run();
  Gate gate;
  REQUIRE(wp->AddTask(gated(gate)) == kNoLabel);
  gate.await_arrivals(1);
  REQUIRE(wp->AddTask(gated(gate)) == kNoLabel);  // the channel's one slot
  std::atomic<Label> third{kNoLabel};
  Thread adder("adder", [&] { third = wp->AddTask(gated(gate)); });
  rig.await_count(EventKind::submitter_blocked, "", 1);
  CHECK(wp->counters_().blocked == 1);

  Thread stopper("stopper", [&] { wp->Stop(); });
  rig.await_count(EventKind::pool_state, "Stoping", 1);
  // The worker waits on its timer; Stop polls every 10 ms while an AddTask is blocked.
  REQUIRE(rig.clock.await_waiters(2));
  rig.clock.advance(29s);
  REQUIRE(rig.clock.await_waiters(2));
  CHECK(rig.count(EventKind::task_refused) == 0);
  rig.clock.advance(1s);  // 30 s: Stop closes chWorkTask; Go's blocked send panics
  adder.join();
  CHECK(third == wrules::kSendOnClosed);
  gate.open();  // the buffered task still runs
  stopper.join();
  CHECK(rig.count(EventKind::task_finished) == 2);
  CHECK(rig.count(EventKind::pool_state, "Stop") == 1);
  CHECK(rig.count(EventKind::worker_exited, "ch-work-task-closed") == 1);
}
