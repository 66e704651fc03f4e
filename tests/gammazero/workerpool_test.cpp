// gammazero/workerpool: the upstream tests of workerpool_test.go (v1.2,
// pool-semantics.md §6.2) on a manual clock, plus the dispatcher's rules.
// Upstream waits on channels and sleeps; here tasks wait at a Gate and the
// tests wait for trace events, so nothing depends on how fast threads run.
#include "pools/gammazero/workerpool.h"

#include <algorithm>
#include <atomic>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <vector>

#include "tests/gammazero/rig.h"

using namespace poolscope;
using namespace poolscope::gammazero;
using namespace std::chrono_literals;
using test::await_condition;
using test::Background;
using test::Gate;
using test::Rig;
using test::rule_of;

namespace {

constexpr int kMax = 20;  // upstream's `max`

// Ready workers: the ones waiting on workerQueue (upstream's countReady).
std::uint32_t ready(const WorkerPool& wp) { return wp.counters().idle(); }

void await_ready(const WorkerPool& wp, std::uint32_t n) {
  await_condition([&] { return ready(wp) == n; }, std::to_string(n) + " ready workers");
}

// Submits `n` tasks that each wait at `gate`, then count themselves in `finished`.
void submit_gated(WorkerPool& wp, Gate& gate, std::atomic<int>& finished, int n) {
  for (int i = 0; i < n; ++i)
    REQUIRE_FALSE(wp.submit([&] {
      gate.pass();
      ++finished;
    }));
}

}  // namespace

TEST_CASE("gammazero: StopWait handles every submitted request (TestExample)") {
  Rig rig;
  WorkerPool wp(2, {}, rig.target());
  std::mutex m;
  std::vector<std::string> handled;
  for (std::string r : {"alpha", "beta", "gamma", "delta", "epsilon"}) {
    REQUIRE_FALSE(wp.submit([&, r] {
      std::lock_guard g(m);
      handled.push_back(r);
    }));
  }
  wp.stop_wait();
  std::sort(handled.begin(), handled.end());
  CHECK(handled == std::vector<std::string>{"alpha", "beta", "delta", "epsilon", "gamma"});
}

TEST_CASE("gammazero: New(0) gets one worker, maxWorkers tasks run at once and the next one waits (TestMaxWorkers)") {
  Rig rig;
  CHECK(WorkerPool(0, {}, rig.target()).size() == 1);
  CHECK(WorkerPool(-3, {}, rig.target()).size() == 1);

  WorkerPool wp(kMax, {}, rig.target());
  CHECK(wp.size() == kMax);
  Gate gate;
  for (int i = 0; i < kMax; ++i) REQUIRE_FALSE(wp.submit(gate.task()));
  gate.await_arrivals(kMax);  // all 20 run concurrently
  CHECK(wp.waiting_queue_size() == 0);
  REQUIRE_FALSE(wp.submit(gate.task()));
  // Submit returned once the dispatcher had the task (an unbuffered send); it queues it next.
  await_condition([&] { return wp.waiting_queue_size() == 1; }, "the 21st task queued");
  CHECK(wp.counters() == Counters{kMax, kMax, 1, 0});
  rig.await_count(EventKind::worker_spawned, "new-worker", kMax);
  gate.open();
  wp.stop_wait();
  CHECK(rig.count(EventKind::task_finished) == kMax + 1);
}

TEST_CASE("gammazero: a ready worker is reused rather than a new one started (TestReuseWorkers)") {
  Rig rig;
  WorkerPool wp(5, {}, rig.target());
  for (int i = 0; i < 10; ++i) {
    Gate gate;
    REQUIRE_FALSE(wp.submit(gate.task()));
    gate.open();
    rig.await(EventKind::worker_idle, "the worker is ready again after task " + std::to_string(i));
  }
  await_ready(wp, 1);
  CHECK(rig.count(EventKind::worker_spawned) == 1);
  CHECK(rig.count(EventKind::task_handoff, "ready-worker") == 9);
}

TEST_CASE(
    "gammazero: the idle timer stops one worker per period, after a whole period without tasks "
    "(TestWorkerTimeout)") {
  Rig rig;
  WorkerPool wp(kMax, {WithIdleTimeout(1s)}, rig.target());
  std::stop_source ctx;
  wp.pause(ctx.get_token());  // 20 pause tasks: 20 workers, all busy
  await_condition([&] { return wp.counters() == Counters{kMax, kMax, 0, 0}; }, "counters() == Counters{kMax, kMax, 0, 0}");
  await_ready(wp, 0);
  ctx.request_stop();
  await_ready(wp, kMax);

  // 1 s: the pause tasks arrived during this period, so the tick stops nobody.
  rig.clock.advance(1s);
  Event tick = rig.await(EventKind::cleaner_pass, "tick at 1s");
  CHECK(rule_of(tick) == "tick-after-task");
  CHECK(tick.arg2 == 0);
  await_ready(wp, kMax);

  // 2 s: a whole period without a task: one worker stops, the one that has
  // waited longest (they all wait since 0 s).
  // The dispatcher traces the tick; the worker that took the nil traces its
  // own reap, so the two may come in either order.
  rig.clock.advance(1s);
  tick = rig.await(EventKind::cleaner_pass, "tick at 2s");
  rig.await_count(EventKind::worker_reaped, "idle-tick", 1);
  Event reaped{};
  for (const Event& e : rig.log.events())
    if (e.kind == EventKind::worker_reaped) reaped = e;
  CHECK(rule_of(reaped) == "idle-tick");
  CHECK(reaped.arg == Nanos(2s).count());  // idle for
  CHECK(rule_of(tick) == "idle-tick");
  CHECK(tick.arg == kMax);   // ready workers the tick saw
  CHECK(tick.arg2 == 1);     // stopped
  rig.clock.advance(500ms);  // 2.5 x timeout
  await_condition([&] { return wp.counters() == Counters{kMax - 1, 0, 0, 0}; }, "counters() == Counters{kMax - 1, 0, 0, 0}");

  // 3 s: one more, and only one.
  rig.clock.advance(500ms);
  tick = rig.await(EventKind::cleaner_pass, "tick at 3s");
  CHECK(tick.arg2 == 1);
  rig.clock.advance(500ms);  // 3.5 x timeout
  await_condition([&] { return wp.counters() == Counters{kMax - 2, 0, 0, 0}; }, "counters() == Counters{kMax - 2, 0, 0, 0}");
  rig.await_count(EventKind::worker_exited, "idle-tick", 2);
}

TEST_CASE("gammazero: the idle tick never stops a busy worker") {
  Rig rig;
  WorkerPool wp(3, {WithIdleTimeout(1s)}, rig.target());
  std::stop_source ctx;
  wp.pause(ctx.get_token());
  for (int period = 1; period <= 3; ++period) {
    rig.clock.advance(1s);
    Event tick = rig.await(EventKind::cleaner_pass, "tick " + std::to_string(period));
    CHECK(tick.arg == 0);   // no worker waits on workerQueue
    CHECK(tick.arg2 == 0);  // so killIdleWorker's non-blocking send fails
  }
  CHECK(wp.counters().workers == 3);
  ctx.request_stop();
}

TEST_CASE("gammazero: a burst of 50 workers takes 50 idle ticks to drain") {
  Rig rig;
  constexpr int kBurst = 50;
  WorkerPool wp(kBurst, {WithIdleTimeout(1s)}, rig.target());
  Gate gate;
  for (int i = 0; i < kBurst; ++i) REQUIRE_FALSE(wp.submit(gate.task()));
  gate.await_arrivals(kBurst);
  gate.open();
  await_ready(wp, kBurst);

  rig.clock.advance(1s);
  CHECK(rig.await(EventKind::cleaner_pass, "first tick").arg2 == 0);  // the burst arrived in this period
  for (int left = kBurst - 1; left >= 0; --left) {
    rig.clock.advance(1s);
    Event tick = rig.await(EventKind::cleaner_pass, "tick with " + std::to_string(left) + " left");
    REQUIRE(tick.arg2 == 1);
    REQUIRE(wp.counters().workers == static_cast<std::uint32_t>(left));
  }
  rig.clock.advance(1s);
  Event last = rig.await(EventKind::cleaner_pass, "tick with no worker left");
  CHECK(last.arg2 == 0);
  CHECK(rig.clock.now() == Time(kBurst * 1s + 2s));
}

TEST_CASE("gammazero: one task in a period spares every idle worker at the next tick") {
  Rig rig;
  WorkerPool wp(4, {WithIdleTimeout(1s)}, rig.target());
  Gate gate;
  for (int i = 0; i < 4; ++i) REQUIRE_FALSE(wp.submit(gate.task()));
  gate.await_arrivals(4);
  gate.open();
  await_ready(wp, 4);
  rig.clock.advance(1s);
  CHECK(rule_of(rig.await(EventKind::cleaner_pass, "tick at 1s")) == "tick-after-task");
  rig.clock.advance(500ms);
  REQUIRE_FALSE(wp.submit([] {}));  // the timer is not reset by a task...
  rig.clock.advance(500ms);
  Event tick = rig.await(EventKind::cleaner_pass, "tick at 2s");
  CHECK(rig.clock.now() == Time(2s));  // ...it stays on its period
  CHECK(rule_of(tick) == "tick-after-task");
  CHECK(tick.arg2 == 0);
  rig.clock.advance(1s);
  CHECK(rig.await(EventKind::cleaner_pass, "tick at 3s").arg2 == 1);
}

TEST_CASE("gammazero: a negative idle timeout disables reaping (TestWorkerNoTimeout)") {
  Rig rig;
  WorkerPool wp(kMax, {WithIdleTimeout(-1s)}, rig.target());
  CHECK(wp.idle_timeout() < Nanos::zero());
  std::stop_source ctx;
  wp.pause(ctx.get_token());
  ctx.request_stop();
  await_ready(wp, kMax);
  CHECK(rig.clock.waiters() == 0);  // no timer at all: the dispatcher waits only for tasks
  rig.clock.advance(1h);
  await_ready(wp, kMax);
  rig.clock.advance(1h);
  await_ready(wp, kMax);
  CHECK(rig.count(EventKind::cleaner_pass) == 0);
}

TEST_CASE("gammazero: a zero idle timeout keeps the default of 2 s") {
  Rig rig;
  WorkerPool wp(1, {WithIdleTimeout(0s)}, rig.target());
  CHECK(wp.idle_timeout() == DefaultIdleTimeout);
  CHECK(WorkerPool(1, {}, rig.target()).idle_timeout() == 2s);
  REQUIRE(rig.clock.await_waiters(1));
  rig.clock.advance(1999ms);
  REQUIRE(rig.clock.await_waiters(1));             // still asleep on its timer
  CHECK(rig.count(EventKind::cleaner_pass) == 0);  // not yet; and the tick below comes at 2 s, not 1.999 s
  rig.clock.advance(1ms);
  CHECK(rig.await(EventKind::cleaner_pass, "tick at 2s").time == Nanos(2s).count());
}

TEST_CASE("gammazero: Stop finishes the running tasks and abandons the queue (TestStop)") {
  Rig rig;
  {
    WorkerPool wp(kMax, {}, rig.target());
    std::stop_source ctx;
    wp.pause(ctx.get_token());
    ctx.request_stop();
    CHECK_FALSE(wp.is_stopped());
    wp.stop();
    CHECK(wp.counters() == Counters{});  // no ready workers after Stop
    CHECK(wp.is_stopped());
  }

  WorkerPool wp(5, {}, rig.target());
  Gate gate;
  std::atomic<int> finished{0};
  submit_gated(wp, gate, finished, kMax);
  gate.await_arrivals(5);
  rig.log.mark();
  Background stop([&] { wp.stop(); });
  // The queue is abandoned before Stop waits for the running tasks.
  rig.await_count(EventKind::task_dropped, "abandoned", kMax - 5);
  CHECK(finished == 0);
  gate.open();
  stop.join();
  CHECK(finished == 5);  // only the running tasks completed
  CHECK(wp.trace().accounting().dropped == kMax - 5);
  CHECK(wp.trace().accounting().balanced());
  CHECK(wp.waiting_queue_size() == kMax - 5);  // Go's count still includes the abandoned tasks
  CHECK(wp.counters().queued == 0);
  wp.stop();  // a second Stop is fine
  Event stopped = rig.await(EventKind::pool_stopped, "pool stopped");
  CHECK(stopped.rule == poolscope::rules::now());
  CHECK(stopped.arg == kMax - 5);
}

TEST_CASE("gammazero: StopWait runs every queued task (TestStopWait)") {
  Rig rig;
  {
    WorkerPool wp(5, {}, rig.target());
    Gate gate;
    std::atomic<int> finished{0}, after_return{0};
    std::atomic<bool> returned{false};
    for (int i = 0; i < kMax; ++i)
      REQUIRE_FALSE(wp.submit([&] {
        gate.pass();
        ++finished;
        if (returned) ++after_return;
      }));
    gate.await_arrivals(5);
    Background stop_wait([&] {
      wp.stop_wait();
      returned = true;
    });
    await_condition([&] { return wp.is_stopped(); }, "StopWait began");
    stop_wait.await_blocked("StopWait waits for the tasks");
    CHECK_FALSE(stop_wait.done());
    CHECK(finished == 0);
    await_condition([&] { return wp.waiting_queue_size() == kMax - 5; }, "waiting_queue_size() == kMax - 5");
    gate.open();
    stop_wait.join();
    CHECK(finished == kMax);
    CHECK(after_return == 0);  // every task, queued ones included, ran before StopWait returned
    CHECK(wp.counters() == Counters{});
    CHECK(wp.is_stopped());
    CHECK(rig.await(EventKind::pool_stopped, "stopped").rule == poolscope::rules::graceful());
  }
  WorkerPool wp(5, {}, rig.target());
  wp.stop_wait();  // nothing queued: fine
  CHECK(wp.counters() == Counters{});
  wp.stop_wait();  // again: fine
}

TEST_CASE(
    "gammazero: Submit returns at once, SubmitWait once the task has run; nil tasks are no-ops "
    "(TestSubmitWait)") {
  Rig rig;
  WorkerPool wp(1, {}, rig.target());
  CHECK_FALSE(wp.submit(nullptr));
  CHECK_FALSE(wp.submit_wait(nullptr));
  CHECK(rig.count(EventKind::task_submitted) == 0);

  Gate first;
  std::atomic<bool> done1{false};
  REQUIRE_FALSE(wp.submit([&] {
    first.pass();
    done1 = true;
  }));
  CHECK_FALSE(done1);  // Submit did not wait for the task: it is still at the gate
  first.open();

  Gate second;
  std::atomic<bool> done2{false}, done_at_return{false};
  Background submit_wait([&] {
    // No Catch assertions off the main thread: record, check below.
    (void)wp.submit_wait([&] {
      second.pass();
      done2 = true;
    });
    done_at_return = done2.load();
  });
  second.await_arrivals(1);
  CHECK_FALSE(submit_wait.done());
  second.open();
  submit_wait.join();
  CHECK(done_at_return);
}

TEST_CASE("gammazero: SubmitWait returns when its task throws or is abandoned") {
  Rig rig;
  WorkerPool wp(1, {}, rig.target());
  CHECK_FALSE(wp.submit_wait([] { throw std::runtime_error("task failed"); }));
  CHECK(rig.count(EventKind::task_threw) == 1);

  Gate gate;
  REQUIRE_FALSE(wp.submit(gate.task()));
  gate.await_arrivals(1);
  std::atomic<bool> ran{false}, accepted{false};
  Background submit_wait([&] { accepted = !wp.submit_wait([&] { ran = true; }); });
  await_condition([&] { return wp.waiting_queue_size() == 1; }, "the task waits in the queue");
  Background stop([&] { wp.stop(); });
  submit_wait.join();  // returns once Stop abandoned the task, not never (as in Go)
  gate.open();
  stop.join();
  CHECK(accepted);
  CHECK_FALSE(ran);
}

TEST_CASE("gammazero: Stop leaves 62 of 64 tasks unrun, counted as dropped (TestOverflow)") {
  Rig rig;
  WorkerPool wp(2, {}, rig.target());
  Gate gate;
  std::atomic<int> ran{0};
  submit_gated(wp, gate, ran, 64);
  gate.await_arrivals(2);
  Thread opener("opener", [&] {
    rig.await_count(EventKind::task_dropped, "abandoned", 62);
    gate.open();
  });
  wp.stop();
  opener.join();
  // As in Go: the queue's length is still reported after Stop ("Expected 62
  // tasks in waiting queue"). poolscope counts each as dropped, and the pool's
  // state no longer shows them queued.
  CHECK(wp.waiting_queue_size() == 62);
  CHECK(wp.counters().queued == 0);
  CHECK(rig.count(EventKind::task_dropped, "abandoned") == 62);
  CHECK(wp.trace().accounting().dropped == 62);
  CHECK(ran == 2);
}

TEST_CASE("gammazero: concurrent Stops all wait for the running tasks, then all return (TestStopRace)") {
  Rig rig;
  WorkerPool wp(kMax, {}, rig.target());
  Gate gate;
  for (int i = 0; i < kMax; ++i) REQUIRE_FALSE(wp.submit(gate.task()));
  gate.await_arrivals(kMax);

  constexpr int kCallers = 5;
  std::vector<std::atomic<long>> tids(kCallers);
  std::atomic<int> returned{0};
  std::vector<Thread> stoppers;
  for (std::size_t i = 0; i < kCallers; ++i)
    stoppers.emplace_back("stopper", [&, i] {
      tids[i] = test::current_tid();
      wp.stop();
      ++returned;
    });
  await_condition([&] { return std::all_of(tids.begin(), tids.end(), [](auto& t) { return t != 0; }); },
                  "every Stop called");
  await_condition([&] { return wp.is_stopped(); }, "the stop began");
  for (std::size_t i = 0; i < kCallers; ++i)
    test::await_blocked(tids[i], "Stop " + std::to_string(i) + " waits for the running tasks");
  CHECK(returned == 0);  // the tasks still run
  gate.open();
  for (auto& t : stoppers) t.join();
  CHECK(returned == kCallers);
  CHECK(rig.count(EventKind::pool_stopped) == 1);
}

TEST_CASE("gammazero: WaitingQueueSize is safe to read while tasks pour in (TestWaitingQueueSizeRace)") {
  Rig rig;
  constexpr int kGoroutines = 10, kTasks = 20, kWorkers = 5;
  WorkerPool wp(kWorkers, {}, rig.target());
  Gate gate;
  std::vector<int> max_seen(kGoroutines);
  std::vector<Thread> submitters;
  for (int g = 0; g < kGoroutines; ++g)
    submitters.emplace_back("submitter", [&, g] {
      for (int i = 0; i < kTasks; ++i) {
        (void)wp.submit(gate.task());
        max_seen[static_cast<std::size_t>(g)] =
            std::max(max_seen[static_cast<std::size_t>(g)], wp.waiting_queue_size());
      }
    });
  for (auto& t : submitters) t.join();
  // The workers hold the gate, so every task but theirs ends up queued; a
  // submitter may read the size just before the dispatcher pushes its task.
  CHECK(*std::max_element(max_seen.begin(), max_seen.end()) <= kGoroutines * kTasks - kWorkers);
  await_condition([&] { return wp.waiting_queue_size() == kGoroutines * kTasks - kWorkers; }, "all the rest queued");
  CHECK(wp.trace().accounting().submitted == kGoroutines * kTasks);
  gate.open();
  wp.stop_wait();
}

TEST_CASE(
    "gammazero: Pause waits for earlier tasks, and tasks submitted while paused wait for the cancel (TestPause)") {
  Rig rig;
  WorkerPool wp(3, {}, rig.target());
  Gate gate;
  std::atomic<bool> first_ran{false};
  REQUIRE_FALSE(wp.submit([&] {
    gate.pass();
    first_ran = true;
  }));
  gate.await_arrivals(1);

  std::stop_source ctx;
  Background pause([&] { wp.pause(ctx.get_token()); });
  // Two pause tasks run; the third waits for the first task's worker.
  await_condition([&] { return wp.waiting_queue_size() == 1; }, "a pause task queued");
  CHECK_FALSE(pause.done());
  gate.open();
  pause.join();
  CHECK(first_ran);  // Pause returned only after the earlier task ran
  // The dispatcher updates its queue's length just after the hand-off.
  await_condition([&] { return wp.counters() == Counters{3, 3, 0, 0}; }, "three paused workers");

  std::atomic<bool> ran{false};
  REQUIRE_FALSE(wp.submit([&] { ran = true; }));
  await_condition([&] { return wp.waiting_queue_size() == 1; }, "the task queued");  // every worker is paused
  CHECK_FALSE(ran);
  ctx.request_stop();
  await_condition([&] { return ran.load(); }, "the task runs after the cancel");
  rig.await_count(EventKind::pool_state, "pause", 1);
  rig.await_count(EventKind::pool_state, "resume", 1);
}

TEST_CASE("gammazero: a second Pause waits until the first is cancelled (TestPause)") {
  Rig rig;
  WorkerPool wp(2, {}, rig.target());
  std::stop_source ctx1, ctx2;
  wp.pause(ctx1.get_token());
  Background second([&] { wp.pause(ctx2.get_token()); });
  await_condition([&] { return wp.waiting_queue_size() == 2; }, "the second Pause's tasks queued");
  CHECK_FALSE(second.done());
  ctx1.request_stop();
  second.join();
  await_condition([&] { return wp.counters() == Counters{2, 2, 0, 0}; }, "two paused workers");
  ctx2.request_stop();
}

TEST_CASE("gammazero: two concurrent Pauses do not deadlock (TestPause)") {
  Rig rig;
  WorkerPool wp(2, {}, rig.target());
  std::stop_source ctx_a, ctx_b;
  Background a([&] { wp.pause(ctx_a.get_token()); });
  Background b([&] { wp.pause(ctx_b.get_token()); });
  await_condition([&] { return a.done() || b.done(); }, "one Pause returned");
  const bool a_first = a.done();
  Background& other = a_first ? b : a;
  CHECK_FALSE(other.done());  // the other one waits for the first to be cancelled...
  (a_first ? ctx_a : ctx_b).request_stop();
  other.join();  // ...and then returns
  (a_first ? ctx_b : ctx_a).request_stop();
}

TEST_CASE("gammazero: StopWait on a doubly paused pool unpauses it and runs the queued tasks (TestPause)") {
  Rig rig;
  WorkerPool wp(2, {}, rig.target());
  std::stop_source ctx1, ctx2;  // never cancelled
  wp.pause(ctx1.get_token());
  Background second([&] { wp.pause(ctx2.get_token()); });
  await_condition([&] { return wp.waiting_queue_size() == 2; }, "the second Pause's tasks queued");
  std::atomic<bool> ran{false};
  REQUIRE_FALSE(wp.submit([&] { ran = true; }));
  wp.stop_wait();
  CHECK(ran);
  second.join();

  // Pause after stop returns at once.
  wp.pause(std::stop_source().get_token());
  CHECK(rig.count(EventKind::pool_state, "pause") == 2);
}

TEST_CASE("gammazero: Stop leaves no thread behind (TestWorkerLeak)") {
  Rig rig;
  const test::OsThreads os_before;  // by id: a thread joined just before may still be listed
  const std::size_t live_before = live_threads();
  {
    WorkerPool wp(100, {}, rig.target());
    Gate gate;
    for (int i = 0; i < 100; ++i) REQUIRE_FALSE(wp.submit(gate.task()));
    gate.await_arrivals(100);
    gate.open();
    wp.stop();  // returns once the dispatcher and every worker are joined
    CHECK(live_threads() == live_before);
    // A joined thread can linger in /proc/self/task while the kernel reaps it.
    os_before.await_none_added("the OS has reaped every thread");
  }
}

TEST_CASE(
    "gammazero: after Stop, Do, Submit and SubmitWait report ErrStopped and never run the task "
    "(TestPanicDo)") {
  Rig rig;
  WorkerPool wp(2, {}, rig.target());
  wp.stop();
  std::atomic<bool> ran{false};
  std::error_code d = wp.do_([&] { ran = true; });
  CHECK(d == ErrStopped);
  CHECK(d.message() == "submitting work to stopped workerpool");
  CHECK(wp.submit([&] { ran = true; }) == ErrStopped);  // Go's Submit panics here
  CHECK(wp.submit_wait([&] { ran = true; }) == ErrStopped);
  CHECK_FALSE(ran);
  CHECK(rig.count(EventKind::task_refused, "err-stopped") == 3);
  CHECK(wp.trace().accounting().balanced());
}

TEST_CASE("gammazero: the waiting queue is FIFO, and a new task goes behind it") {
  Rig rig;
  WorkerPool wp(1, {}, rig.target());
  Gate gate;
  REQUIRE_FALSE(wp.submit(gate.task()));
  gate.await_arrivals(1);
  std::mutex m;
  std::vector<int> order;
  for (int i = 0; i < 10; ++i)
    REQUIRE_FALSE(wp.submit([&, i] {
      std::lock_guard g(m);
      order.push_back(i);
    }));
  gate.open();
  wp.stop_wait();
  CHECK(order == std::vector<int>{0, 1, 2, 3, 4, 5, 6, 7, 8, 9});
  CHECK(rig.count(EventKind::task_queued, "waiting-queue") == 1);         // the first, because no worker was free
  CHECK(rig.count(EventKind::task_queued, "behind-waiting-queue") == 9);  // then behind it
  CHECK(rig.count(EventKind::task_handoff, "waiting-queue-head") == 10);  // and out in that order
}

// Tasks queue only once maxWorkers run, and no worker stops while the queue is
// non-empty, so with tasks waiting the pool is always at its max: that no
// worker starts then needs no rule of its own (the doc says so too). What
// this shows is that the dispatcher stops watching the idle timer.
TEST_CASE("gammazero: while tasks wait (the pool at maxWorkers), the idle timer is not served") {
  Rig rig;
  WorkerPool wp(1, {WithIdleTimeout(1s)}, rig.target());
  Gate gate;
  REQUIRE_FALSE(wp.submit(gate.task()));
  gate.await_arrivals(1);
  for (int i = 0; i < 3; ++i) REQUIRE_FALSE(wp.submit([] {}));
  // The dispatcher now waits only for a ready worker or a new task: not on the
  // clock (it left its timed wait to take the first queued task).
  await_condition([&] { return wp.waiting_queue_size() == 3; }, "three tasks queued");
  await_condition([&] { return rig.clock.waiters() == 0; }, "the dispatcher off the clock");
  rig.clock.advance(3s);
  CHECK(rig.count(EventKind::cleaner_pass) == 0);
  REQUIRE_FALSE(wp.submit([] {}));
  await_condition([&] { return wp.waiting_queue_size() == 4; }, "four tasks queued");
  CHECK(wp.counters().workers == static_cast<std::uint32_t>(wp.size()));  // at the max, as always with tasks waiting

  // Once the queue is empty, the tick that fell due at 1 s fires at once; a
  // task arrived in its period, so it stops nobody, and the next is due at 4 s.
  gate.open();
  Event tick = rig.await(EventKind::cleaner_pass, "the overdue tick");
  CHECK(tick.time == Nanos(3s).count());
  CHECK(rule_of(tick) == "tick-after-task");
  await_ready(wp, 1);
  rig.clock.advance(1s);
  tick = rig.await(EventKind::cleaner_pass, "tick at 4s");
  CHECK(tick.arg2 == 1);
}

TEST_CASE("gammazero: every dispatch decision is traced with its rule") {
  Rig rig;
  WorkerPool wp(2, {}, rig.target());
  Gate gate;
  for (int i = 0; i < 4; ++i) REQUIRE_FALSE(wp.submit(gate.task()));
  gate.await_arrivals(2);
  test::await_event(rig.log, test::has_rule(EventKind::task_queued, "behind-waiting-queue"), "the fourth task");
  // Each new worker traces its own spawn, on its own thread: the spawns and
  // the dispatcher's queueing decisions are in order among themselves. The
  // log may not have drained a worker's spawn when the fourth task's
  // queueing shows: sync first (a fresh machine's ASan run saw one spawn).
  rig.log.sync();
  std::vector<std::string_view> spawns, queued;
  for (const Event& e : rig.log.events()) {
    if (e.kind == EventKind::worker_spawned) spawns.push_back(rule_of(e));
    if (e.kind == EventKind::task_queued) queued.push_back(rule_of(e));
  }
  CHECK(spawns == std::vector<std::string_view>{"new-worker", "new-worker"});
  CHECK(queued == std::vector<std::string_view>{"waiting-queue", "behind-waiting-queue"});
  CHECK(rig.log.last_counters(wp.trace().id()).queued == 2);
  gate.open();
  rig.await_count(EventKind::task_handoff, "waiting-queue-head", 2);
  await_ready(wp, 2);  // (only now: both could be ready before the dispatcher hands them the queue)
  REQUIRE_FALSE(wp.submit([] {}));
  rig.await_count(EventKind::task_handoff, "ready-worker", 1);
  wp.stop_wait();
  CHECK(rig.count(EventKind::worker_exited, "stop-nil") == 2);
  CHECK(rig.count(EventKind::pool_state, "stop-wait") == 1);
}

TEST_CASE("gammazero: a task that throws is recorded and its worker carries on") {
  Rig rig;
  WorkerPool wp(1, {}, rig.target());
  REQUIRE_FALSE(wp.submit([] { throw std::runtime_error("task failed"); }));
  std::atomic<bool> ran{false};
  REQUIRE_FALSE(wp.submit([&] { ran = true; }));
  wp.stop_wait();
  CHECK(ran);
  CHECK(rig.count(EventKind::task_threw) == 1);
  CHECK(rig.count(EventKind::worker_spawned) == 1);
}

namespace {

// A capture whose destructor takes the pool's lock (counters() does), as a
// task's captures may call back into the pool: the pool must destroy a task
// holding one without its lock held, or the destroying thread deadlocks.
class LocksPoolOnDestroy {
 public:
  LocksPoolOnDestroy(const WorkerPool& wp, std::atomic<int>& destroyed) : wp_(&wp), destroyed_(&destroyed) {}
  LocksPoolOnDestroy(LocksPoolOnDestroy&& other) noexcept
      : wp_(other.wp_), destroyed_(std::exchange(other.destroyed_, nullptr)) {}
  LocksPoolOnDestroy& operator=(LocksPoolOnDestroy&&) = delete;
  ~LocksPoolOnDestroy() {
    if (!destroyed_) return;
    (void)wp_->counters();
    ++*destroyed_;
  }

 private:
  const WorkerPool* wp_;
  std::atomic<int>* destroyed_;
};

// Disarms testing::refuse_threads however the test ends.
struct RefuseThreads {
  explicit RefuseThreads(std::size_t n) { testing::refuse_threads("gammazero-", n); }
  ~RefuseThreads() { testing::refuse_threads("", 0); }
};

}  // namespace

TEST_CASE("gammazero: a worker thread the OS refuses: the task waits in the queue and runs on the next try") {
  Rig rig;
  WorkerPool wp(2, {}, rig.target());
  std::atomic<bool> ran{false};
  {
    RefuseThreads refuse(2);  // the worker for the task, and the dispatcher's retry at once
    REQUIRE_FALSE(wp.submit([&ran] { ran = true; }));  // Submit returns once the dispatcher has the task
    rig.await_count(EventKind::task_queued, "thread-create-failed", 1);
    await_condition([&] { return rig.clock.waiters() == 0 && wp.counters() == Counters{0, 0, 1, 0}; },
                    "the retry refused too");
  }
  CHECK_FALSE(ran);
  CHECK(rig.count(EventKind::worker_spawned) == 0);
  CHECK(rig.count(EventKind::task_handoff) == 0);
  CHECK(wp.counters() == Counters{0, 0, 1, 0});

  // The next task brings the dispatcher round again: it starts a worker for
  // the queued one, which is traced spawned, then handed its task, then running it.
  REQUIRE_FALSE(wp.submit_wait([] {}));
  await_condition([&] { return ran.load(); }, "the queued task ran too");  // on a worker of its own
  rig.log.sync();
  std::vector<EventKind> kinds;  // of the first worker (the second one runs beside it)
  WorkerId first = 0;
  for (const Event& e : rig.log.events()) {
    if (e.worker != 0 && first == 0) first = e.worker;
    if (e.worker != 0 && e.worker == first) kinds.push_back(e.kind);
  }
  REQUIRE(kinds.size() >= 3);
  CHECK(kinds[0] == EventKind::worker_spawned);
  CHECK(kinds[1] == EventKind::task_handoff);
  CHECK(kinds[2] == EventKind::task_started);
  wp.stop_wait();
  CHECK(rig.count(EventKind::task_finished) == 2);
  CHECK(wp.trace().accounting().balanced());
}

TEST_CASE("gammazero: Pause returns even if the OS refuses a worker for one of its pause tasks") {
  Rig rig;
  WorkerPool wp(3, {}, rig.target());
  std::stop_source ctx;
  {
    RefuseThreads refuse(1);
    wp.pause(ctx.get_token());  // the refused one's task waits, and its worker is started on the next try
  }
  CHECK(rig.count(EventKind::task_queued, "thread-create-failed") == 1);
  await_condition([&] { return wp.counters() == Counters{3, 3, 0, 0}; }, "counters() == Counters{3, 3, 0, 0}");  // all three pause tasks hold their workers
  ctx.request_stop();
  rig.await_count(EventKind::pool_state, "resume", 1);
  CHECK_FALSE(wp.submit_wait([] {}));
  wp.stop();
  CHECK(wp.trace().accounting().balanced());
}

TEST_CASE("gammazero: Stop releases the abandoned tasks without holding the pool's lock") {
  Rig rig;
  WorkerPool wp(1, {}, rig.target());
  Gate gate;
  REQUIRE_FALSE(wp.submit(gate.task()));
  gate.await_arrivals(1);
  std::atomic<int> destroyed{0};
  for (int i = 0; i < 3; ++i) REQUIRE_FALSE(wp.submit([probe = LocksPoolOnDestroy(wp, destroyed)] {}));
  await_condition([&] { return wp.waiting_queue_size() == 3; }, "three tasks queued");
  Background stop([&] { wp.stop(); });
  // Released at once, while the running task still holds the only worker.
  await_condition([&] { return destroyed == 3; }, "the abandoned tasks released");
  CHECK(rig.count(EventKind::task_dropped, "abandoned") == 3);
  CHECK_FALSE(stop.done());
  gate.open();
  stop.join();
  CHECK(wp.trace().accounting().dropped == 3);
  CHECK(wp.trace().accounting().balanced());
}
