// The four rejection policies, on a (1, 1, ArrayBlockingQueue(1)) pool that
// two gated tasks saturate, as the TCK does it.
#include <atomic>
#include <thread>

#include "tests/java/rig.h"

using namespace poolscope;
using namespace poolscope::java;
using namespace poolscope::java::test;

namespace {

std::unique_ptr<ThreadPoolExecutor> saturable(Rig& rig, std::shared_ptr<RejectedExecutionHandler> handler) {
  return rig.make(1, 1, 60s, std::make_unique<ArrayBlockingQueue>(1), std::move(handler));
}

// Task 1 runs (held at the gate), task 2 waits in the queue: the pool is
// saturated. The test declares the gate before the executor and its
// OpenOnExit after it.
void saturate(ThreadPoolExecutor& e, Gate& gate, std::atomic<int>* ran2 = nullptr) {
  e.execute(gate.task());
  e.execute([&gate, ran2] {
    gate.pass();
    if (ran2) ++*ran2;
  });
  gate.await_arrivals(1);
}

}  // namespace

TEST_CASE("java: AbortPolicy throws RejectedExecutionException, saturated or shut down (TCK)") {
  Rig rig;
  Gate gate;
  auto e = saturable(rig, std::make_shared<AbortPolicy>());
  OpenOnExit open(gate);
  saturate(*e, gate);
  std::atomic<bool> ran{false};
  CHECK_THROWS_AS(e->execute([&] { ran = true; }), RejectedExecutionException);
  CHECK(rig.count(task_event(EventKind::task_refused, 3)) == 1);
  e->shutdown();
  CHECK_THROWS_AS(e->execute([&] { ran = true; }), RejectedExecutionException);
  e->shutdown_now();
  CHECK_THROWS_AS(e->execute([&] { ran = true; }), RejectedExecutionException);
  gate.open();
  CHECK(e->await_termination(1h));
  CHECK_FALSE(ran);
  CHECK(rig.count(is_kind(EventKind::task_refused, kRejected)) == 3);
  CHECK(e->get_completed_task_count() == 1);  // task 2 was dropped by shutdownNow
}

TEST_CASE("java: CallerRunsPolicy runs the task on the submitting thread, unless shut down") {
  Rig rig;
  Gate gate;
  auto e = saturable(rig, std::make_shared<CallerRunsPolicy>());
  OpenOnExit open(gate);
  saturate(*e, gate);
  std::thread::id ranOn;
  CHECK(e->execute([&] { ranOn = std::this_thread::get_id(); }).accepted());
  CHECK(ranOn == std::this_thread::get_id());
  Event handoff = await_event(rig.log, task_event(EventKind::task_handoff, 3), "the hand-off to the caller");
  CHECK(handoff.worker == 0);
  CHECK(handoff.rule == kCallerRuns);
  Event started = await_event(rig.log, task_event(EventKind::task_started, 3), "the caller started it");
  CHECK(started.worker == 0);
  CHECK(started.counters.busy == 1);  // the caller is not counted as a busy worker
  CHECK(e->get_task_count() == 2);    // nor as a pool task

  e->shutdown();
  bool ran = false;
  SubmitResult r = e->execute([&] { ran = true; });
  CHECK_FALSE(ran);
  CHECK(r.fate == Fate::refused);
  CHECK(r.reason == kDiscardedAtShutdown);
}

TEST_CASE("java: CallerRunsPolicy lets the task's exception out of execute, as Java does") {
  Rig rig;
  Gate gate;
  auto e = saturable(rig, std::make_shared<CallerRunsPolicy>());
  OpenOnExit open(gate);
  saturate(*e, gate);
  CHECK_THROWS_AS(e->execute([] { throw std::runtime_error("task failed"); }), std::runtime_error);
  CHECK(rig.count(task_event(EventKind::task_threw, 3)) == 1);
}

TEST_CASE("java: DiscardPolicy drops the task silently, saturated or shut down") {
  Rig rig;
  Gate gate;
  auto e = saturable(rig, std::make_shared<DiscardPolicy>());
  OpenOnExit open(gate);
  saturate(*e, gate);
  bool ran = false;
  SubmitResult r = e->execute([&] { ran = true; });
  CHECK(r.fate == Fate::refused);
  CHECK(r.reason == kDiscard);
  e->shutdown();
  CHECK(e->execute([&] { ran = true; }).reason == kDiscard);
  gate.open();
  e->close();
  CHECK_FALSE(ran);
  CHECK(e->trace().accounting().balanced());
}

TEST_CASE("java: DiscardOldestPolicy drops the oldest queued task and retries (TCK)") {
  Rig rig;
  Gate gate;
  std::atomic<int> ran2{0};
  auto e = saturable(rig, std::make_shared<DiscardOldestPolicy>());
  OpenOnExit open(gate);
  saturate(*e, gate, &ran2);
  std::atomic<bool> ran3{false};
  CHECK(e->execute([&] { ran3 = true; }).accepted());  // r2 makes room for r3
  CHECK(rig.count(is_kind(EventKind::task_dropped, kDiscardOldest)) == 1);
  CHECK(rig.count(task_event(EventKind::task_dropped, 2)) == 1);
  CHECK(e->get_queue().size() == 1);
  gate.open();
  await_condition([&] { return ran3.load(); }, "r3 ran");
  e->shutdown();
  bool ran4 = false;
  CHECK(e->execute([&] { ran4 = true; }).reason == kDiscardedAtShutdown);  // after shutdown: discarded
  e->close();
  CHECK(ran2 == 0);
  CHECK_FALSE(ran4);
  Accounting a = e->trace().accounting();
  CHECK(a.completed == 2);
  CHECK(a.dropped == 1);
  CHECK(a.balanced());
}

namespace {

// Runs between execute's failed offer and DiscardOldestPolicy's poll: lets
// the worker take the queued task, then hands over to the policy.
class EmptyTheQueueFirst final : public RejectedExecutionHandler {
 public:
  explicit EmptyTheQueueFirst(Gate& gate) : gate_(gate) {}
  SubmitResult rejected_execution(Runnable& r, ThreadPoolExecutor& e) override {
    gate_.open();
    await_condition([&] { return e.get_queue().is_empty(); }, "the worker took the queued task");
    return DiscardOldestPolicy().rejected_execution(r, e);
  }

 private:
  Gate& gate_;
};

}  // namespace

TEST_CASE("java: DiscardOldestPolicy retries when a worker emptied the queue since the failed offer") {
  Rig rig;
  Gate gate;
  std::atomic<int> ran2{0};
  auto e = saturable(rig, std::make_shared<EmptyTheQueueFirst>(gate));
  OpenOnExit open(gate);
  saturate(*e, gate, &ran2);
  std::atomic<bool> ran3{false};
  SubmitResult r = e->execute([&] { ran3 = true; });  // the queue is full, then empty
  CHECK(r.accepted());                                // Java's retry finds room
  e->close();
  CHECK(ran2 == 1);
  CHECK(ran3);
  CHECK(rig.count(is_kind(EventKind::task_dropped)) == 0);  // there was nothing to drop
  CHECK(rig.count(is_kind(EventKind::task_refused)) == 0);
  CHECK(e->trace().accounting().balanced());
}

TEST_CASE("java: DiscardOldestPolicy on a SynchronousQueue has nothing to drop, so the task is discarded") {
  Rig rig;
  Gate gate;
  auto e = rig.make(1, 1, 60s, std::make_unique<SynchronousQueue>(), std::make_shared<DiscardOldestPolicy>());
  OpenOnExit open(gate);
  e->execute(gate.task());
  SubmitResult r = e->execute([] {});
  CHECK(r.fate == Fate::refused);
  CHECK(r.reason == kNothingToDiscard);
}

TEST_CASE("java: a rejected task can be submitted again (TCK testRejectedRecycledTask)") {
  Rig rig;
  auto e = rig.make(1, 30, 60s, std::make_unique<ArrayBlockingQueue>(30));
  constexpr int nTasks = 1000;
  std::atomic<int> runs{0};
  for (int i = 0; i < nTasks; ++i) {
    for (;;) {
      try {
        e->execute([&] { ++runs; });
        break;
      } catch (const RejectedExecutionException&) {
        // saturated: try the same work again
      }
    }
  }
  e->close();
  CHECK(runs == nTasks);
  CHECK(e->get_completed_task_count() == nTasks);
}

TEST_CASE("java: the standard handlers called directly (TCK testStandardRejectedExecutionHandlers)") {
  Rig rig;
  auto e = rig.make(1, 1, 60s, std::make_unique<ArrayBlockingQueue>(1));
  std::thread::id ranOn;
  auto task = [&] { return Runnable{{e->trace().submitted(), [&] { ranOn = std::this_thread::get_id(); }}}; };
  Runnable r1 = task(), r2 = task(), r3 = task();
  CHECK_THROWS_AS(AbortPolicy().rejected_execution(r1, *e), RejectedExecutionException);
  CHECK(DiscardPolicy().rejected_execution(r2, *e).reason == kDiscard);
  CHECK(ranOn == std::thread::id());
  CHECK(CallerRunsPolicy().rejected_execution(r3, *e).accepted());
  CHECK(ranOn == std::this_thread::get_id());
  CHECK(e->get_task_count() == 0);  // the pool is unperturbed
  CHECK(e->get_pool_size() == 0);
}
