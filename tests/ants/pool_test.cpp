// ants_test.go's pool behaviours: blocking, reuse order, Nonblocking,
// MaxBlockingTasks, unlimited pools, Tune. Tasks wait on gates instead of
// sleeping; the tests wait for trace events and counters instead of time.
#include <atomic>
#include <map>
#include <vector>

#include "pools/ants/rules.h"
#include "pools/core/thread.h"
#include "tests/ants/rig.h"

using namespace poolscope;
using namespace poolscope::ants;
using namespace poolscope::ants::test;

namespace {

// Pool or PoolWithFunc<Task> behind one call, so a test runs on both.
struct AnyPool {
  std::unique_ptr<Pool> pool;
  std::unique_ptr<PoolWithFunc<Task>> func;
  PoolCommon& common() { return pool ? static_cast<PoolCommon&>(*pool) : *func; }
  std::error_code submit(Task task) { return pool ? pool->submit(std::move(task)) : func->invoke(std::move(task)); }
};

AnyPool make(Rig& rig, bool withFunc, int size, Options options = {}) {
  if (!withFunc) return {rig.pool(size, std::move(options)), nullptr};
  auto p = new_pool_with_func<Task>(
      size, [](Task t) { t(); }, std::move(options), rig.target());
  REQUIRE(p);
  return {nullptr, std::move(*p)};
}

}  // namespace

TEST_CASE(
    "ants: a full pool makes submitters wait, never refuses them, never passes Cap() (TestAntsPoolWaitToGetWorker)") {
  const bool withFunc = GENERATE(false, true);
  const bool preAlloc = GENERATE(false, true);
  CAPTURE(withFunc, preAlloc);
  Rig rig;
  AnyPool p = make(rig, withFunc, 10, {.PreAlloc = preAlloc});

  Gate gate;
  for (int i = 0; i < 10; ++i) REQUIRE_FALSE(p.submit(gate.task()));
  CHECK(p.common().running() == 10);
  CHECK(p.common().free() == 0);

  // 10x oversubscription: 4 submitters x 25 tasks behind the 10 busy workers.
  std::atomic<int> ran{0}, errors{0};
  std::vector<BoundedThread> submitters;
  for (int s = 0; s < 4; ++s)
    submitters.emplace_back("submitter", [&] {
      for (int i = 0; i < 25; ++i) errors += p.submit([&] { ran++; }) ? 1 : 0;
    });
  await_waiting(p.common(), 4);
  gate.open();
  for (BoundedThread& s : submitters) s.join();
  await_condition([&] { return ran == 100; }, "every task ran");

  CHECK(errors == 0);
  CHECK(p.common().waiting() == 0);
  // Since v2.11.4 a worker is started under the lock: no overshoot, ever.
  CHECK(rig.peak_workers() == 10);
  CHECK(p.common().running() <= 10);
  CHECK(rig.log.count(is_kind(EventKind::submitter_blocked)) >= 4);

  // retrieveWorker takes no task, as Go's; each of the 4 concurrent
  // submitters still traces its own (the calling thread's retrievingFor):
  // every task is handed off once, and each blocked task unblocks as itself.
  rig.log.sync();
  std::map<TaskId, int> handoffs, blocked;
  for (const Event& e : rig.log.events()) {
    if (e.kind == EventKind::task_handoff) handoffs[e.task]++;
    if (e.kind == EventKind::submitter_blocked) blocked[e.task]++;
    if (e.kind == EventKind::submitter_unblocked) blocked[e.task]--;
  }
  CHECK(handoffs.size() == 110);
  for (const auto& [task, n] : handoffs) CHECK(n == 1);
  for (const auto& [task, n] : blocked) CHECK(n == 0);
}

TEST_CASE("ants: the stack reuses the most recently used worker, the PreAlloc ring the least recently used") {
  const bool preAlloc = GENERATE(false, true);
  CAPTURE(preAlloc);
  Rig rig;
  auto p = rig.pool(3, {.PreAlloc = preAlloc});
  Gate gates[3];
  for (Gate& g : gates) REQUIRE_FALSE(p->submit(g.task()));
  // Workers 1, 2, 3 go idle in that order.
  for (int i = 0; i < 3; ++i) {
    gates[i].open();
    Event idle = await_event(rig.log, is_kind(EventKind::worker_idle), "worker idle");
    CHECK(idle.worker == static_cast<WorkerId>(i + 1));
    CHECK(idle.rule == (preAlloc ? ants::rules::kLoopQueue : ants::rules::kWorkerStack));
  }

  REQUIRE_FALSE(p->submit([] {}));
  Event handoff = await_event(rig.log, is_kind(EventKind::task_handoff), "hand-off");
  CHECK(handoff.worker == (preAlloc ? 1u : 3u));
  CHECK(handoff.rule == (preAlloc ? ants::rules::kLoopQueueDetach : ants::rules::kStackDetach));
  CHECK(p->running() == 3);
}

TEST_CASE("ants: Nonblocking refuses at once when every worker is busy (TestNonblockingSubmit)") {
  const bool withFunc = GENERATE(false, true);
  CAPTURE(withFunc);
  Rig rig;
  AnyPool p = make(rig, withFunc, 10, {.Nonblocking = true});
  Gate longRunning, last;
  for (int i = 0; i < 9; ++i) REQUIRE_FALSE(p.submit(longRunning.task()));
  REQUIRE_FALSE(p.submit(last.task()));  // the pool is full now

  std::atomic<bool> ran{false};
  CHECK(p.submit([&] { ran = true; }) == ErrPoolOverload);
  Event refused = await_event(rig.log, is_kind(EventKind::task_refused), "refusal");
  CHECK(refused.rule == ants::rules::kNonblocking);
  CHECK(p.common().waiting() == 0);

  last.open();  // one worker goes back to the queue
  await_idle(p.common(), 1);
  CHECK_FALSE(p.submit([] {}));
  longRunning.open();
  CHECK_FALSE(ran);
}

TEST_CASE(
    "ants: MaxBlockingTasks refuses the submitter over the limit, and the waiting one succeeds "
    "(TestMaxBlockingSubmit)") {
  const bool withFunc = GENERATE(false, true);
  CAPTURE(withFunc);
  Rig rig;
  AnyPool p = make(rig, withFunc, 10, {.MaxBlockingTasks = 1});
  Gate gate;
  for (int i = 0; i < 10; ++i) REQUIRE_FALSE(p.submit(gate.task()));

  std::error_code blockedErr = ErrTimeout;
  BoundedThread blocked("blocked", [&] { blockedErr = p.submit([] {}); });
  await_waiting(p.common(), 1);
  CHECK(p.submit([] {}) == ErrPoolOverload);  // already one waiting: the limit
  Event refused = await_event(rig.log, is_kind(EventKind::task_refused), "refusal");
  CHECK(refused.rule == ants::rules::kMaxBlockingTasks);

  gate.open();
  blocked.join();
  CHECK_FALSE(blockedErr);
  rig.log.sync();
  CHECK(rig.log.count(is_kind(EventKind::submitter_unblocked)) == 1);
}

TEST_CASE("ants: an unlimited pool never blocks, not even a nested submit (TestInfinitePool)") {
  const bool withFunc = GENERATE(false, true);
  CAPTURE(withFunc);
  Rig rig;
  AnyPool p = make(rig, withFunc, -1);
  Gate gate;
  std::atomic<int> nested{-1};
  REQUIRE_FALSE(p.submit([&] {
    nested = p.submit(gate.task()).value();
    gate.pass();
  }));
  gate.await_arrivals(2);
  CHECK(nested == 0);
  CHECK(p.common().running() == 2);
  CHECK(p.common().free() == -1);
  CHECK(p.common().cap() == -1);
  p.common().tune(10);  // ignored: unlimited
  CHECK(p.common().cap() == -1);
  rig.log.sync();
  CHECK(rig.log.count(is_kind(EventKind::worker_spawned, ants::rules::kUnlimited)) == 2);
  gate.open();

  CHECK(new_pool(-1, {.PreAlloc = true}).error() == ErrInvalidPreAllocSize);
}

TEST_CASE("ants: Tune up starts workers for the waiting submitters (TestPoolTuneScaleUp)") {
  const bool withFunc = GENERATE(false, true);
  CAPTURE(withFunc);
  Rig rig;
  AnyPool p = make(rig, withFunc, 2);
  Gate gate;
  for (int i = 0; i < 2; ++i) REQUIRE_FALSE(p.submit(gate.task()));
  CHECK(p.common().running() == 2);

  // Scale up by one: the next submit starts a worker at once.
  p.common().tune(3);
  REQUIRE_FALSE(p.submit(gate.task()));
  CHECK(p.common().running() == 3);

  // Five submitters wait; scaling up by five wakes all of them (Broadcast).
  std::atomic<int> errors{0};
  std::vector<BoundedThread> submitters;
  for (int i = 0; i < 5; ++i) submitters.emplace_back("submitter", [&] { errors += p.submit(gate.task()) ? 1 : 0; });
  await_parked(p.common(), 5);  // asleep with their tickets: Tune's Broadcast, sent without the lock, comes after
  p.common().tune(8);
  CHECK(p.common().parked() == 0);  // every one picked at once
  for (BoundedThread& s : submitters) s.join();
  CHECK(errors == 0);
  CHECK(p.common().running() == 8);
  CHECK(p.common().cap() == 8);
  rig.log.sync();
  CHECK(rig.log.count(is_kind(EventKind::param_tuned, ants::rules::kSize)) == 2);
  gate.open();
}

TEST_CASE("ants: Tune up by one wakes one waiting submitter (Signal)") {
  Rig rig;
  auto p = rig.pool(1);
  Gate gate;
  REQUIRE_FALSE(p->submit(gate.task()));
  std::atomic<int> done{0};
  std::vector<BoundedThread> submitters;
  for (int i = 0; i < 2; ++i) submitters.emplace_back("submitter", [&] { done += p->submit(gate.task()) ? 0 : 1; });
  await_parked(*p, 2);  // both asleep with their tickets, so a Broadcast would wake both
  rig.log.mark();
  p->tune(2);
  CHECK(p->parked() == 1);  // Signal picked one, at once
  // The one it woke starts the second worker; its task waits at the gate, so
  // nothing signals again before the gate opens.
  await_event(rig.log, is_kind(EventKind::worker_spawned), "the woken submitter starts a worker");
  rig.log.sync();
  CHECK(rig.log.count(is_kind(EventKind::submitter_unblocked)) == 1);
  CHECK(p->parked() == 1);
  CHECK(p->waiting() == 1);
  CHECK(p->running() == 2);
  gate.open();  // the last one gets a worker back from the queue
  for (BoundedThread& s : submitters) s.join();
  CHECK(done == 2);
  rig.log.sync();
  CHECK(rig.log.count(is_kind(EventKind::submitter_unblocked)) == 2);
}

TEST_CASE("ants: Tune down stops nothing at once: workers over the capacity exit at revertWorker") {
  Rig rig;
  auto p = rig.pool(4);
  Gate gates[4];
  for (Gate& g : gates) REQUIRE_FALSE(p->submit(g.task()));
  p->tune(2);
  CHECK(p->running() == 4);  // may exceed Cap() for a while
  CHECK(p->cap() == 2);

  // One at a time, so each sees the count the previous left: 4 > 2, 3 > 2, then room.
  for (int i = 0; i < 4; ++i) {
    gates[i].open();
    if (i < 2) {
      Event exited = await_event(rig.log, is_kind(EventKind::worker_exited), "worker over capacity exits");
      CHECK(exited.rule == ants::rules::kOverCapacity);
    } else {
      await_event(rig.log, is_kind(EventKind::worker_idle), "worker goes back to the queue");
    }
  }
  CHECK(p->running() == 2);
  CHECK(p->idle() == 2);
}

TEST_CASE("ants: Tune is ignored when unchanged, <= 0, or with PreAlloc") {
  Rig rig;
  auto p = rig.pool(3);
  for (int size : {3, 0, -5}) p->tune(size);
  CHECK(p->cap() == 3);
  auto pre = rig.pool(3, {.PreAlloc = true});
  pre->tune(5);
  CHECK(pre->cap() == 3);
  rig.log.sync();
  CHECK(rig.log.count(is_kind(EventKind::param_tuned)) == 0);
}

TEST_CASE("ants: new_pool's checks and the original's errors (TestRestCodeCoverage)") {
  for (int size : {-1, 1}) {
    CHECK(new_pool(size, {.ExpiryDuration = -1ns}).error() == ErrInvalidPoolExpiry);
    CHECK(new_pool_with_func<int>(size, [](int) {}, {.ExpiryDuration = -1ns}).error() == ErrInvalidPoolExpiry);
  }
  // With DisablePurge a negative expiry is never used, so it is not checked.
  CHECK(new_pool(1, {.ExpiryDuration = -1ns, .DisablePurge = true}));
  // The missing function is checked first.
  CHECK(new_pool_with_func<int>(-1, nullptr, {.ExpiryDuration = -1ns, .PreAlloc = true}).error() == ErrLackPoolFunc);
  CHECK(new_pool(0, {.PreAlloc = true}).error() == ErrInvalidPreAllocSize);
  CHECK(new_pool(0)->get()->cap() == -1);

  CHECK(make_error_code(ErrPoolOverload).message() == "too many goroutines blocked on submit or Nonblocking is set");
  CHECK(make_error_code(ErrInvalidPreAllocSize).message() == "can not set up a negative capacity under PreAlloc mode");
  CHECK(make_error_code(ErrPoolClosed).message() == "this pool has been closed");
  CHECK(error_name(ErrInvalidLoadBalancingStrategy) == "ErrInvalidLoadBalancingStrategy");

  auto p = new_pool(1);
  (*p)->release();
  CHECK((*p)->submit([] {}) == ErrPoolClosed);
  CHECK((*p)->submit(nullptr) == ErrPoolClosed);
}

TEST_CASE("ants: submit(nil) stops a worker without running anything, and the trace counts the task dropped") {
  Rig rig;
  auto p = rig.pool(2);
  REQUIRE_FALSE(p->submit([] {}));
  await_idle(*p, 1);
  CHECK_FALSE(p->submit(nullptr));
  Event exited = await_event(rig.log, is_kind(EventKind::worker_exited), "worker exits");
  CHECK(exited.rule == ants::rules::kNilTask);
  await_condition([&] { return p->running() == 0; }, "no worker left");
  CHECK(p->trace().accounting().dropped == 1);
  CHECK(p->trace().accounting().balanced());
}
