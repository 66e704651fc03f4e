// Lab 03 checks: seed 001's core/max pool given Java's keep-alive. Parameters
// every lab 03 pool takes: coremax's (coreSize, maxSize, taskQueueCap...) plus
// `keepAliveTime` and `allowCoreThreadTimeOut`.
#include <atomic>
#include <string>
#include <thread>

#include "labs/checks/lab_check.h"
#include "pools/core/spin.h"

using namespace poolscope;
using namespace std::chrono_literals;
using lab::Rig;
using lab::ScopedGate;
using test::await_condition;
using test::await_event;

namespace {

std::string pool03() { return lab::pool_under_test("03", "lab03-keepalive"); }

json config(bool core_timeout) {
  return {{"coreSize", 2},
          {"maxSize", 4},
          {"taskQueueCap", 0},
          {"keepAliveTime", "1s"},
          {"allowCoreThreadTimeOut", core_timeout}};
}

// Grows the pool to maxSize (4) with gated tasks, then lets them all end, so
// four workers sit idle.
void burst_then_idle(Rig& rig, ScopedGate& gate) {
  for (int i = 0; i < 4; ++i) REQUIRE(rig.pool->submit(gate.task()).accepted());
  gate.await_arrivals(4);
  gate.open();
  for (int i = 0; i < 4; ++i) await_event(rig.log, is_kind(EventKind::worker_idle), "a worker went idle");
  rig.settle();
  REQUIRE(lab::show(rig.pool->state()) == lab::show(Counters{4, 0, 0, 0}));
}

int count_rule(Rig& rig, EventKind kind, std::string_view code) {
  rig.log.sync();
  return static_cast<int>(rig.log.count([&](const Event& e) { return e.kind == kind && label_code(e.rule) == code; }));
}

}  // namespace

LAB_CHECK("[lab03]", "03.1 a burst grows the pool past coreSize up to maxSize",
          "submit: an idle worker or a new one below coreSize, then the task queue, then a new worker below "
          "maxSize, then reject (the seed's order; nothing to change here)") {
  Rig rig(pool03(), config(false));
  ScopedGate gate;
  for (int i = 0; i < 4; ++i) REQUIRE(rig.pool->submit(gate.task()).accepted());
  gate.await_arrivals(4);
  SubmitResult r = rig.pool->submit([] {});
  CHECK(r.fate == Fate::refused);
  rig.settle();
  CHECK(lab::show(rig.pool->state()) == lab::show(Counters{4, 4, 0, 0}));
}

LAB_CHECK("[lab03][starter-fails]", "03.2 workers beyond coreSize exit after keepAliveTime idle and core workers stay",
          "an idle worker beyond coreSize waits on its chan with a deadline (go::select(go::recv(task, t), "
          "go::after(clock, lastUse + keepAliveTime)) on the pool's clock, from the time it went idle); on time-out, under the pool's lock, it leaves the idle "
          "queue and exits (trace.reaped with the keep-alive rule, then trace.exited), unless the pool is down to "
          "coreSize") {
  Rig rig(pool03(), config(false));
  ScopedGate gate;
  burst_then_idle(rig, gate);
  REQUIRE(rig.clock.await_waiters(4, lab::kExpectLimit));  // every idle worker waits with a deadline
  rig.clock.advance(std::chrono::seconds(1));
  for (int i = 0; i < 2; ++i) REQUIRE(lab::expect_event(rig.log, is_kind(EventKind::worker_exited)));
  // The two left are core workers now: they wait without a deadline.
  await_condition([&] { return rig.clock.waiters() == 0; }, "core workers wait untimed");
  rig.clock.advance(std::chrono::seconds(10));
  rig.settle();
  CHECK(lab::show(rig.pool->state()) == lab::show(Counters{2, 0, 0, 0}));
  CHECK(count_rule(rig, EventKind::worker_reaped, "keep-alive") == 2);
  rig.log.sync();
  for (const Event& e : rig.log.events())
    if (e.kind == EventKind::worker_reaped) CHECK(e.arg >= std::chrono::nanoseconds(std::chrono::seconds(1)).count());
}

LAB_CHECK("[lab03][starter-fails]",
          "03.3 with allowCoreThreadTimeOut every idle worker expires and the pool grows again",
          "with allowCoreThreadTimeOut every idle worker waits with a deadline, and a core worker that times out "
          "exits too (its own rule, core-time-out); the next submit starts a new worker below coreSize") {
  Rig rig(pool03(), config(true));
  ScopedGate gate;
  burst_then_idle(rig, gate);
  REQUIRE(rig.clock.await_waiters(4, lab::kExpectLimit));
  rig.clock.advance(std::chrono::seconds(1));
  for (int i = 0; i < 4; ++i) REQUIRE(lab::expect_event(rig.log, is_kind(EventKind::worker_exited)));
  rig.settle();
  CHECK(lab::show(rig.pool->state()) == lab::show(Counters{}));
  CHECK(count_rule(rig, EventKind::worker_reaped, "keep-alive") == 2);
  CHECK(count_rule(rig, EventKind::worker_reaped, "core-time-out") == 2);
  std::atomic<bool> ran{false};
  REQUIRE(rig.pool->submit([&] { ran = true; }).accepted());
  await_condition([&] { return ran.load(); }, "a task runs on a new worker");
}

LAB_CHECK("[lab03]", "03.4 an idle worker that gets a task before its keepAliveTime lives on",
          "the deadline counts from when the worker last went idle, and a worker a submitter took from the idle "
          "queue must not exit") {
  Rig rig(pool03(), config(false));
  ScopedGate gate;
  burst_then_idle(rig, gate);
  rig.clock.advance(std::chrono::milliseconds(900));
  // The FIFO idle queue hands this task to the worker idle longest.
  std::atomic<bool> ran{false};
  REQUIRE(rig.pool->submit([&] { ran = true; }).accepted());
  await_condition([&] { return ran.load(); }, "the task ran");
  rig.settle();
  CHECK(rig.pool->state().workers == 4);
}

// A stress check, on the real clock: submitters race with workers whose
// keep-alive (1 ms) runs out all the time, round after round. Every accepted
// task must run, and no worker may leave while that takes the pool below
// coreSize.
LAB_CHECK("[lab03][stress][starter-fails]", "03.5 time-outs race hand-offs: no task is lost and the pool stays at core",
          "after the select times out, take the pool's lock and re-check BOTH under it: that you are still in the "
          "idle queue (a submitter may have taken you and sent a task: receive it, do not exit) and that the pool "
          "is still above coreSize (another worker may have timed out first); a check made before the lock is "
          "stale") {
  for (int round = 0; round < lab::stress_rounds(); ++round) {
    Rig rig(pool03(),
            {{"coreSize", 1}, {"maxSize", 8}, {"taskQueueCap", 0}, {"keepAliveTime", "1ms"}, {"allowCoreThreadTimeOut", false}},
            true);
    std::atomic<int> ran{0}, accepted{0};
    // Waves: 8 submitters submit together (up to 8 workers), then pause about
    // keepAliveTime, so that the workers time out together, and just as the
    // next wave hands them tasks.
    lab::race(8, [&](int s) {
      for (int wave = 0; wave < 40; ++wave) {
        accepted += rig.pool->submit([&] {
          for (int k = 0; k < 2000; ++k) cpu_relax();  // a short burst of work
          ran++;
        }).accepted();
        std::this_thread::sleep_for(std::chrono::microseconds(900 + 60 * ((s + wave) % 5)));
      }
      // Then a trickle: a task now and then, about keepAliveTime apart, so
      // that hand-offs meet workers whose wait is just timing out.
      for (int i = 0; i < 60; ++i) {
        accepted += rig.pool->submit([&] { ran++; }).accepted();
        if ((i + s) % 3 == 0) std::this_thread::sleep_for(std::chrono::microseconds(700 + 150 * (s % 4)));
      }
    });
    await_condition([&] { return ran.load() == accepted.load(); }, "every accepted task ran (none lost)");
    // The keep-alive exits so far, and those that left the pool below coreSize
    // (the counters after the exit).
    int reaped = 0, below_core = 0;
    auto count_exits = [&] {
      rig.log.sync();
      reaped = below_core = 0;
      for (const Event& e : rig.log.events())
        if (e.kind == EventKind::worker_exited && label_code(e.rule) == "keep-alive")
          reaped++, below_core += e.counters.workers < 1;
      return reaped;
    };
    // On a loaded machine the waves may never leave a worker idle for 1 ms;
    // once the load ends, the workers beyond coreSize time out together. The
    // bound only keeps a pool that never times out from holding the check.
    for (auto deadline = std::chrono::steady_clock::now() + 2s;
         count_exits() == 0 && std::chrono::steady_clock::now() < deadline;)
      std::this_thread::sleep_for(1ms);
    INFO("round " << round << ": " << reaped << " keep-alive exits, " << below_core << " of them left the pool below coreSize");
    REQUIRE(reaped > 0);
    REQUIRE(below_core == 0);
  }
}

// The race of 03.5 without luck: in the simulation, a submitter wakes at the
// very instant the worker it last used times out, and the schedules try both
// orders and the steps between (the worker's time-out, then the submitter's
// hand-off, then the worker's lock). Every accepted task must run.
LAB_CHECK("[lab03][explore]",
          "03.6 in 200 simulated schedules, a task handed to a worker whose keepAliveTime is running out is never lost",
          "after the select times out, take the pool's lock and re-check under it that you are still in the idle "
          "queue: a submitter may have taken you and sent a task meanwhile; then receive it, do not exit. The "
          "failing schedule is named: the same one fails every time") {
  const std::string design = pool03();
  const json config = {{"coreSize", 1}, {"maxSize", 4}, {"taskQueueCap", 0}, {"keepAliveTime", "1ms"}};
  std::string problem = lab::explore_schedules(200, [&]() -> std::string {
    // Each submitter's next task comes as its last one's worker times out.
    lab::SimBurstResult r = lab::sim_burst(design, config, {.submitters = 3, .each = 4, .gap = 1ms});
    if (r.ran == r.accepted) return "";
    return std::to_string(r.accepted - r.ran) + " of " + std::to_string(r.accepted) +
           " accepted tasks never ran (lost), though the pool shut down gracefully";
  });
  INFO(problem);
  CHECK(problem.empty());
}
