// Lab 04 checks: blocking vs refusing vs caller-runs. Parameters every lab 04
// pool takes: `threads`, `max_queue`, `on_full` (refuse | block |
// caller-runs) and `max_blocking_tasks`.
#include <atomic>
#include <optional>
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

std::string pool04() { return lab::pool_under_test("04", "lab04-overload"); }

// One thread and no room beyond it: the second task finds the queue full.
json config(const char* on_full, int max_blocking = 0) {
  return {{"threads", 1}, {"max_queue", 0}, {"on_full", on_full}, {"max_blocking_tasks", max_blocking}};
}

// Occupies the one thread with a gated task.
void fill(Rig& rig, ScopedGate& gate) {
  await_event(rig.log, is_kind(EventKind::worker_idle), "the thread waits for work");
  REQUIRE(rig.pool->submit(gate.task()).accepted());
  gate.await_arrivals(1);
}

// Submits from a thread of its own and remembers the answer.
struct Submitter {
  explicit Submitter(Pool& pool, Task task)
      : thread("submitter", [this, &pool, task = std::move(task)]() mutable {
          result = pool.submit(std::move(task));
          done = true;
        }) {}
  std::optional<SubmitResult> result;
  std::atomic<bool> done{false};
  Thread thread;  // last: it starts in the constructor
};

// Waits until the pool reports `n` blocked submitters, or `submitter` came
// back (a pool that does not block): true if they blocked.
bool blocked(Rig& rig, const Submitter& submitter, std::uint32_t n = 1) {
  await_condition([&] { return submitter.done || rig.pool->state().blocked == n; }, "the submit blocks or returns");
  return !submitter.done && rig.pool->state().blocked == n;
}

}  // namespace

LAB_CHECK("[lab04]", "04.1 refuse: a full queue refuses at once as queue-overflow",
          "the lab 01 behaviour, kept for on_full = refuse") {
  Rig rig(pool04(), config("refuse"));
  ScopedGate gate;
  fill(rig, gate);
  SubmitResult r = rig.pool->submit([] {});
  CHECK(r.fate == Fate::refused);
  CHECK(lab::code(r.reason) == "queue-overflow");
}

LAB_CHECK("[lab04][starter-fails]", "04.2 block: the submitter waits until a thread comes back for work",
          "with on_full = block, task_post waits on a condition (trace.blocked / trace.unblocked around the "
          "wait) and a thread coming back for work (the top of cycle()) wakes one waiting submitter") {
  Rig rig(pool04(), config("block"));
  ScopedGate gate;
  fill(rig, gate);
  std::atomic<bool> ran{false};
  Submitter submitter(*rig.pool, [&] { ran = true; });
  REQUIRE(blocked(rig, submitter));
  gate.open();
  submitter.thread.join();
  CHECK(submitter.result->accepted());
  await_condition([&] { return ran.load(); }, "the blocked submitter's task ran");
  rig.settle();
  CHECK(rig.pool->state().blocked == 0);
}

LAB_CHECK("[lab04][starter-fails]",
          "04.3 block: past max_blocking_tasks waiting submitters the next is refused as pool-overload",
          "ants' retrieveWorker: `MaxBlockingTasks != 0 && Waiting() >= MaxBlockingTasks` refuses with "
          "ErrPoolOverload (kPoolOverload) instead of waiting") {
  Rig rig(pool04(), config("block", 1));
  ScopedGate gate;
  fill(rig, gate);
  Submitter first(*rig.pool, [] {});
  REQUIRE(blocked(rig, first));
  SubmitResult r = rig.pool->submit([] {});
  CHECK(r.fate == Fate::refused);
  CHECK(lab::code(r.reason) == "pool-overload");
  gate.open();
  first.thread.join();
  CHECK(first.result->accepted());
}

LAB_CHECK("[lab04][starter-fails]", "04.4 block: shutdown wakes the blocked submitters with closed",
          "close() sets a flag and wakes every waiting submitter (ants' Release broadcasts); a woken submitter "
          "that finds the pool closed refuses its task with rules::pool_closed()") {
  Rig rig(pool04(), config("block"));
  ScopedGate gate;
  fill(rig, gate);
  std::atomic<bool> ran{false};
  Submitter submitter(*rig.pool, [&] { ran = true; });
  REQUIRE(blocked(rig, submitter));
  Thread stopper("stopper", [&] { rig.pool->shutdown(ShutdownMode::graceful); });
  await_condition([&] { return submitter.done.load(); }, "shutdown wakes the blocked submitter");
  CHECK(submitter.result->fate == Fate::closed);
  gate.open();
  stopper.join();
  CHECK_FALSE(ran);
  CHECK(rig.pool->accounting().balanced());
}

LAB_CHECK("[lab04][starter-fails]", "04.5 caller-runs: a full pool runs the task in the submitting thread",
          "with on_full = caller-runs, task_post runs the task itself, after unlocking: trace.handoff to worker 0, "
          "then trace.run(0, task), and return: a task the caller ran must not be queued as well (it would run "
          "twice)") {
  Rig rig(pool04(), config("caller-runs"));
  ScopedGate gate;
  fill(rig, gate);
  std::thread::id ran_on;
  std::atomic<int> runs{0};
  SubmitResult r = rig.pool->submit([&] {
    ran_on = std::this_thread::get_id();
    runs++;
  });
  CHECK(r.accepted());
  CHECK(ran_on == std::this_thread::get_id());
  rig.log.sync();
  CHECK(rig.log.count([](const Event& e) { return e.kind == EventKind::task_started && e.worker == 0; }) == 1);
  CHECK(rig.pool->state().queued == 0);
  gate.open();
  rig.pool->shutdown(ShutdownMode::graceful);
  CHECK(runs.load() == 1);
}

LAB_CHECK("[lab04][starter-fails]",
          "04.6 nested submit: under block a task that submits to its own full pool deadlocks",
          "the parent holds the only thread and blocks waiting for room that only its own thread can make: "
          "every thread busy, a submitter blocked, nothing moves. Only shutdown (which wakes blocked "
          "submitters with closed) ends it") {
  Rig rig(pool04(), config("block"));
  await_event(rig.log, is_kind(EventKind::worker_idle), "the thread waits for work");
  std::atomic<bool> child_ran{false};
  std::optional<SubmitResult> child;
  std::atomic<bool> parent_done{false};
  REQUIRE(rig.pool
              ->submit([&] {
                child = rig.pool->submit([&] { child_ran = true; });
                parent_done = true;
              })
              .accepted());
  await_condition([&] { return parent_done || rig.pool->state().blocked == 1; },
                  "the child's submit blocks or returns");
  REQUIRE_FALSE(parent_done);
  rig.settle();
  CHECK(lab::show(rig.pool->state()) ==
        lab::show(Counters{1, 1, 0, 1}));  // the deadlock: all busy, one blocked on itself
  rig.pool->shutdown(ShutdownMode::now);
  CHECK(parent_done);
  CHECK(child->fate == Fate::closed);
  CHECK_FALSE(child_ran);
}

LAB_CHECK("[lab04][starter-fails]", "04.7 nested submit: under caller-runs the same task finishes",
          "caller-runs never waits: the child runs inline in the parent's thread, so a nested submit cannot "
          "deadlock the pool") {
  Rig rig(pool04(), config("caller-runs"));
  await_event(rig.log, is_kind(EventKind::worker_idle), "the thread waits for work");
  std::atomic<bool> child_ran{false}, parent_done{false};
  REQUIRE(rig.pool
              ->submit([&] {
                rig.pool->submit([&] { child_ran = true; });
                parent_done = true;
              })
              .accepted());
  await_condition([&] { return parent_done.load(); }, "the parent task ends");
  CHECK(child_ran);
}

// Stress checks: several submitters race (real threads, on purpose), round
// after round; see 01.7.
LAB_CHECK("[lab04][stress]", "04.8 refuse: the bound holds with 6 submitters racing",
          "test the queue's bound and append under ONE hold of the pool's lock (a test made before the lock lets "
          "two submitters both see room for one task)") {
  for (int round = 0; round < 10 * lab::stress_rounds(); ++round) {
    Rig rig(pool04(), {{"threads", 1}, {"max_queue", 4}, {"on_full", "refuse"}, {"max_blocking_tasks", 0}});
    ScopedGate gate;
    await_event(rig.log, is_kind(EventKind::worker_idle), "the thread waits for work");
    std::atomic<int> accepted{0};
    lab::race(6, [&](int) {
      for (int i = 0; i < 3; ++i) accepted += rig.pool->submit(gate.task()).accepted();
    });
    INFO("round " << round << ": accepted " << accepted.load() << ", the bound allows 5");
    REQUIRE(accepted.load() == 5);
  }
}

LAB_CHECK("[lab04][stress][starter-fails]", "04.9 block: with 6 submitters racing the queue never outgrows its bound",
          "a submitter woken from its wait must test the bound again before it appends: wait in a loop (`while`, or "
          "the predicate form of wait), not `if`, since another submitter may have taken the room first; and test "
          "the bound under the same hold of the lock as the append") {
  constexpr int kThreads = 2, kMaxQueue = 2;
  for (int round = 0; round < 2 * lab::stress_rounds(); ++round) {
    Rig rig(pool04(), {{"threads", kThreads}, {"max_queue", kMaxQueue}, {"on_full", "block"}, {"max_blocking_tasks", 0}});
    std::atomic<int> ran{0}, accepted{0};
    lab::race(6, [&](int) {
      for (int i = 0; i < 150; ++i) {
        accepted += rig.pool->submit([&] {
          for (int k = 0; k < 200; ++k) cpu_relax();  // a short burst of work
          ran++;
        }).accepted();
      }
    });
    rig.pool->shutdown(ShutdownMode::graceful);
    rig.log.sync();
    std::int64_t deepest = 0;
    for (const Event& e : rig.log.events())
      if (e.kind == EventKind::task_queued) deepest = std::max(deepest, e.arg);
    INFO("round " << round << ": the queue held up to " << deepest << " tasks; the bound allows "
                  << kMaxQueue + kThreads);
    CHECK(deepest <= kMaxQueue + kThreads);
    CHECK(ran.load() == accepted.load());
    REQUIRE(accepted.load() == 6 * 150);
  }
}

// 04.8 and 04.9 without luck: the same races in the simulation, where
// submitters that start at one instant interleave at every lock and wake-up
// in the orders the schedules try.
LAB_CHECK("[lab04][explore]", "04.10 refuse: the bound holds in 200 simulated schedules of 6 racing submitters",
          "test the queue's bound and append under ONE hold of the pool's lock; the failing schedule is named, "
          "and fails the same way every time") {
  const std::string design = pool04();
  const json config = {{"threads", 1}, {"max_queue", 4}, {"on_full", "refuse"}, {"max_blocking_tasks", 0}};
  std::string problem = lab::explore_schedules(200, [&]() -> std::string {
    lab::SimBurstResult r = lab::sim_burst(design, config, {.hold = 1s});
    if (r.accepted == 5) return "";
    return "accepted " + std::to_string(r.accepted) + " tasks while the one thread was busy; the bound allows 5 "
           "(threads + max_queue)";
  });
  INFO(problem);
  CHECK(problem.empty());
}

LAB_CHECK("[lab04][explore][starter-fails]",
          "04.11 block: in 200 simulated schedules of racing submitters the queue never outgrows its bound",
          "a submitter woken from its wait must test the bound again before it appends (`while`, or the predicate "
          "form of wait), under the same hold of the lock as the append; the failing schedule is named") {
  const std::string design = pool04();
  const json config = {{"threads", 1}, {"max_queue", 1}, {"on_full", "block"}, {"max_blocking_tasks", 0}};
  std::string problem = lab::explore_schedules(200, [&]() -> std::string {
    lab::SimBurstResult r = lab::sim_burst(design, config, {.submitters = 4, .each = 3, .gap = 1ms, .hold = 1ms});
    // nginx's bound: waiting = queued - idle threads <= max_queue, so a task
    // may queue beyond max_queue only while a thread is idle to take it.
    for (const Event& e : r.events) {
      const std::uint32_t idle = e.counters.idle();
      if (e.kind == EventKind::task_queued && e.counters.queued > 1 + idle)
        return "a task was queued behind " + std::to_string(e.counters.queued - 1) + " others with " +
               std::to_string(idle) + " thread(s) idle; the bound allows max_queue (1) + idle threads";
    }
    if (r.accepted != 12 || r.ran != 12)
      return "of 12 tasks submitted under block, " + std::to_string(r.accepted) + " were accepted and " +
             std::to_string(r.ran) + " ran; every one should";
    return "";
  });
  INFO(problem);
  CHECK(problem.empty());
}

LAB_CHECK("[lab04][starter-fails]", "04.12 caller-runs: while a caller runs its task, the pool's thread goes on",
          "in task_post, unlock the pool's lock before the caller runs the task (lock.unlock(), then trace.run): "
          "held, it stops every thread and submitter of the pool for the whole task, and a task that submits "
          "again waits for a lock its own thread holds (04-nested's deadlock, under caller-runs)") {
  Rig rig(pool04(), config("caller-runs"));
  ScopedGate on_thread, on_caller;
  fill(rig, on_thread);
  Submitter caller(*rig.pool, on_caller.task());  // the queue is full: the caller runs it, held by its gate
  on_caller.await_arrivals(1);
  on_thread.open();  // the thread's task ends: the thread comes back for work, under the pool's lock
  const bool back = lab::expect_event(rig.log, is_kind(EventKind::worker_idle));
  on_caller.open();
  caller.thread.join();
  INFO("the pool's thread finished its task while a submitter ran its own under caller-runs; "
       << (back ? "it came back for work" : "it did not come back for work within 5 s"));
  CHECK(back);
  CHECK(caller.result->accepted());
}
