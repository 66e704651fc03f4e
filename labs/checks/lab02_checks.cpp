// Lab 02 checks: elastic growth and idle reaping, fasthttp-style. Parameters
// every lab 02 pool takes: `MaxWorkersCount`, `MaxIdleWorkerDuration`.
#include <algorithm>
#include <atomic>
#include <set>
#include <string>

#include "labs/checks/lab_check.h"

using namespace poolscope;
using lab::Rig;
using lab::ScopedGate;
using test::await_condition;
using test::await_event;
using namespace std::chrono_literals;

namespace {

std::string pool02() { return lab::pool_under_test("02", "lab02-reaping"); }

json config(int max_workers) { return {{"MaxWorkersCount", max_workers}, {"MaxIdleWorkerDuration", "1s"}}; }

// Starts `n` workers with gated tasks and lets them all go idle; returns the
// ids in the order they went idle (the order of the ready stack, bottom first).
std::vector<WorkerId> grow_then_idle(Rig& rig, ScopedGate& gate, int n) {
  for (int i = 0; i < n; ++i) REQUIRE(rig.pool->submit(gate.task()).accepted());
  gate.await_arrivals(n);
  gate.open();
  std::vector<WorkerId> order;
  for (int i = 0; i < n; ++i)
    order.push_back(await_event(rig.log, is_kind(EventKind::worker_idle), "a worker went idle").worker);
  rig.settle();
  return order;
}

// The cleaner's next pass (it runs at start, then every MaxIdleWorkerDuration).
Event next_pass(Rig& rig) {
  auto e = rig.log.wait_for(is_kind(EventKind::cleaner_pass), lab::kExpectLimit);
  REQUIRE(e.has_value());
  return *e;
}

// Runs one task and waits until its worker is back in the ready stack.
WorkerId run_one(Rig& rig) {
  REQUIRE(rig.pool->submit([] {}).accepted());
  return await_event(rig.log, is_kind(EventKind::worker_idle), "the worker is ready again").worker;
}

}  // namespace

LAB_CHECK("[lab02]", "02.1 with MaxWorkersCount workers busy, the next task is refused",
          "getCh: a ready worker, else a new one while workersCount < MaxWorkersCount, else nil (Serve returns "
          "false and the task is refused)") {
  Rig rig(pool02(), config(3));
  ScopedGate gate;
  for (int i = 0; i < 3; ++i) REQUIRE(rig.pool->submit(gate.task()).accepted());
  gate.await_arrivals(3);
  SubmitResult r = rig.pool->submit([] {});
  CHECK(r.fate == Fate::refused);
  rig.settle();
  CHECK(lab::show(rig.pool->state()) == lab::show(Counters{3, 3, 0, 0}));
}

LAB_CHECK("[lab02][starter-fails]", "02.2 a worker starts only when a task finds none ready, up to MaxWorkersCount",
          "the pool starts empty (Start starts no worker), and a ready worker is reused before a new one starts; "
          "in getCh, with `ready` empty and workersCount < MaxWorkersCount, start a new worker (trace_.spawned "
          "with kNewWorker) and hand it the task") {
  Rig rig(pool02(), config(3));
  rig.settle();
  CHECK(rig.pool->state().workers == 0);  // fasthttp starts no worker before a task needs one
  WorkerId first = run_one(rig);
  CHECK(run_one(rig) == first);  // the worker of the first task is ready again: no new one
  ScopedGate gate;
  for (int i = 0; i < 3; ++i) REQUIRE(rig.pool->submit(gate.task()).accepted());
  gate.await_arrivals(3);
  rig.settle();
  CHECK(lab::show(rig.pool->state()) == lab::show(Counters{3, 3, 0, 0}));
  rig.log.sync();
  CHECK(rig.log.count([](const Event& e) {
    return e.kind == EventKind::worker_spawned && label_code(e.rule) == "new-worker";
  }) == 3);
}

LAB_CHECK("[lab02][starter-fails]", "02.3 the most recently released worker serves the next task (LIFO)",
          "getCh pops the top of `ready` (its back): the worker released last, whose cache is still warm") {
  Rig rig(pool02(), config(3));
  ScopedGate gate;
  std::vector<WorkerId> order = grow_then_idle(rig, gate, 3);
  CHECK(run_one(rig) == order.back());
  CHECK(run_one(rig) == order.back());
}

LAB_CHECK("[lab02][starter-fails]", "02.4 a cleaner pass stops the workers idle longer than MaxIdleWorkerDuration",
          "clean(): criticalTime = now - MaxIdleWorkerDuration; a worker is stopped when lastUseTime is strictly "
          "before it, so a worker dies between one and two periods after it went idle") {
  Rig rig(pool02(), config(3));
  ScopedGate gate;
  next_pass(rig);  // the pass at Start
  grow_then_idle(rig, gate, 3);
  rig.clock.advance(1s);
  Event first = next_pass(rig);  // idle for exactly 1s: not yet
  CHECK(first.arg == 3);
  CHECK(first.arg2 == 0);
  rig.clock.advance(1s);
  Event second = next_pass(rig);
  CHECK(second.arg == 3);
  CHECK(second.arg2 == 3);
  REQUIRE(lab::expect_count(rig.log, is_kind(EventKind::worker_exited), 3));
  rig.settle();
  CHECK(lab::show(rig.pool->state()) == lab::show(Counters{}));
  rig.log.sync();
  CHECK(rig.log.count([](const Event& e) {
    return e.kind == EventKind::worker_reaped && label_code(e.rule) == "cleaner-pass" && e.arg == 2'000'000'000;
  }) == 3);
}

LAB_CHECK("[lab02][starter-fails]", "02.5 under a light steady load the cold workers expire and the hot one stays",
          "with LIFO reuse one worker serves every task and stays on top of `ready`; the others sink to the "
          "bottom, their lastUseTime never moves, and the cleaner's binary search cuts them off") {
  Rig rig(pool02(), config(4));
  ScopedGate gate;
  next_pass(rig);
  grow_then_idle(rig, gate, 4);
  // One task every 250ms for 2s: far less work than four workers can do.
  for (int k = 1; k <= 8; ++k) {
    rig.clock.advance(250ms);
    if (k % 4 == 0) next_pass(rig);  // the passes at 1s and 2s
    run_one(rig);
  }
  REQUIRE(lab::expect_count(rig.log, is_kind(EventKind::worker_exited), 3));
  rig.settle();
  CHECK(rig.pool->state().workers == 1);
  CHECK(rig.log.count(is_kind(EventKind::worker_reaped)) == 3);
}

LAB_CHECK("[lab02][starter-fails]", "02.6 a worker the cleaner stopped gets no more tasks",
          "clean() takes the expired workers out of `ready`, under the lock, before it sends each its nil: a "
          "stopped worker left in `ready` is handed the next task, which no thread ever runs (a lost task)") {
  Rig rig(pool02(), config(3));
  ScopedGate gate;
  next_pass(rig);
  grow_then_idle(rig, gate, 3);
  rig.clock.advance(1s);
  next_pass(rig);
  rig.clock.advance(1s);
  next_pass(rig);  // every worker idle for 2s: all three stopped
  REQUIRE(lab::expect_count(rig.log, is_kind(EventKind::worker_exited), 3));
  rig.log.sync();
  std::set<WorkerId> stopped;
  for (const Event& e : rig.log.events())
    if (e.kind == EventKind::worker_exited) stopped.insert(e.worker);
  for (int i = 0; i < 3; ++i) {
    REQUIRE(rig.pool->submit([] {}).accepted());
    Event h = await_event(rig.log, is_kind(EventKind::task_handoff), "the task is handed to a worker");
    INFO("task " << h.task << " was handed to worker " << h.worker
                 << (stopped.count(h.worker) ? ", which the cleaner had stopped" : ""));
    CHECK(stopped.count(h.worker) == 0);
  }
  CHECK(lab::expect_count(rig.log, is_kind(EventKind::task_finished), 6));  // the 3 gated ones, and these 3
}

// The worker limit under racing submitters, in the simulation: every
// submitter arrives at one instant, so the schedules interleave them at every
// lock; a limit tested under one hold of the lock and acted on under another
// lets two submitters both see room for the last worker.
LAB_CHECK("[lab02][explore]", "02.7 the worker limit holds in 200 simulated schedules of 6 racing submitters",
          "test workersCount < MaxWorkersCount and count the new worker (workersCount++) under ONE hold of the "
          "lock: tested under one hold and counted under a second, two submitters both see room for the last "
          "worker; the failing schedule is named, and fails the same way every time") {
  const std::string design = pool02();
  const json config = {{"MaxWorkersCount", 3}, {"MaxIdleWorkerDuration", "1s"}};
  std::string problem = lab::explore_schedules(200, [&]() -> std::string {
    lab::SimBurstResult r = lab::sim_burst(design, config, {.submitters = 6, .each = 1, .hold = 100ms});
    std::uint32_t most = 0;
    for (const Event& e : r.events) most = std::max(most, e.counters.workers);
    if (most > 3)
      return std::to_string(most) + " workers alive at once; MaxWorkersCount is 3";
    if (r.accepted != 3 || r.ran != 3)
      return "6 tasks at one instant with MaxWorkersCount 3: " + std::to_string(r.accepted) + " accepted and " +
             std::to_string(r.ran) + " ran; 3 of each expected (a worker per task, the rest refused)";
    return "";
  });
  INFO(problem);
  CHECK(problem.empty());
}
