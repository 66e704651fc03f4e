// Shutdown, termination, hooks, dying and failing threads.
#include <atomic>
#include <vector>

#include "tests/java/rig.h"

using namespace poolscope;
using namespace poolscope::java;
using namespace poolscope::java::test;

namespace {

std::vector<Label> states(Rig& rig) {
  rig.log.sync();
  std::vector<Label> out;
  for (const Event& e : rig.log.events())
    if (e.kind == EventKind::pool_state) out.push_back(e.rule);
  return out;
}

// An executor whose hooks count and can fail, as the TCK's ExtendedTPE.
class HookedExecutor : public ThreadPoolExecutor {
 public:
  using ThreadPoolExecutor::ThreadPoolExecutor;
  ~HookedExecutor() override { close(); }  // before the overrides are gone

  std::atomic<int> before{0}, after{0}, afterWithException{0}, terminatedCalls{0};
  std::atomic<int> failBefore{0};          // how many beforeExecute calls throw
  std::atomic<Gate*> beforeGate{nullptr};  // if set, every beforeExecute first passes it

 protected:
  void before_execute(WorkerId, const Runnable&) override {
    ++before;
    if (Gate* g = beforeGate.load()) g->pass();
    if (failBefore > 0) {
      --failBefore;
      throw std::runtime_error("beforeExecute failed");
    }
  }
  void after_execute(const Runnable&, std::exception_ptr t) override {
    ++after;
    if (t) ++afterWithException;
  }
  void terminated() override { ++terminatedCalls; }
};

std::unique_ptr<HookedExecutor> hooked(Rig& rig, int core, std::unique_ptr<BlockingQueue> queue) {
  return std::make_unique<HookedExecutor>(core, core, 60s, std::move(queue), std::make_shared<DefaultThreadFactory>(),
                                          std::make_shared<AbortPolicy>(), rig.target());
}

}  // namespace

TEST_CASE("java: shutdown runs the queued tasks, shutdownNow returns them (TCK testShutdownNow)") {
  Rig rig;
  Gate gate;
  auto e = rig.make(2, 2, 60s, std::make_unique<LinkedBlockingQueue>());
  OpenOnExit open(gate);
  for (int i = 0; i < 5; ++i) e->execute(gate.task());
  gate.await_arrivals(2);  // 2 running, 3 queued
  CHECK_FALSE(e->is_shutdown());

  SECTION("shutdown: the queued tasks still run, new ones are rejected") {
    e->shutdown();
    CHECK(e->is_shutdown());
    CHECK(e->is_terminating());
    CHECK_FALSE(e->is_terminated());
    CHECK_THROWS_AS(e->execute([] {}), RejectedExecutionException);
    gate.open();
    e->await_termination();
    CHECK(e->is_terminated());
    CHECK_FALSE(e->is_terminating());
    CHECK(e->get_completed_task_count() == 5);
    CHECK(states(rig) == std::vector<Label>{kShutdown, kTidying, kTerminated});
    // As in Java, termination needs only the worker count at 0, which getTask
    // lowers before its worker's processWorkerExit: the other worker may still
    // be on its way out when awaitTermination returns.
    rig.await_count(is_kind(EventKind::worker_exited, kShutdownDrained), 2, "both workers exited");
    CHECK(rig.count(is_kind(EventKind::worker_exited, kShutdownDrained)) == 2);
  }
  SECTION("shutdownNow: the queued tasks come back, each traced as dropped") {
    std::vector<Runnable> never = e->shutdown_now();
    REQUIRE(never.size() == 3);
    CHECK(never[0].id == 3);
    CHECK(never[2].id == 5);
    CHECK(e->get_queue().size() == 0);
    CHECK(rig.count(is_kind(EventKind::task_dropped, kShutdownNow)) == 3);
    gate.open();  // C++ cannot interrupt the two running tasks: they finish
    CHECK(e->await_termination(1h));
    CHECK(e->get_completed_task_count() == 2);
    CHECK(states(rig) == std::vector<Label>{kStop, kTidying, kTerminated});
    rig.await_count(is_kind(EventKind::worker_exited, kStopped), 2, "both workers exited");  // as above
    CHECK(rig.count(is_kind(EventKind::worker_exited, kStopped)) == 2);
    Accounting a = e->trace().accounting();
    CHECK(a.dropped == 3);
    CHECK(a.balanced());
  }
}

TEST_CASE("java: isTerminating is false while running and once terminated (TCK testIsTerminating)") {
  Rig rig;
  Gate gate;
  auto e = rig.make(1, 1, 60s, std::make_unique<ArrayBlockingQueue>(10));
  OpenOnExit open(gate);
  CHECK_FALSE(e->is_terminating());
  std::atomic<bool> terminatingInTask{true};
  e->execute([&] {
    terminatingInTask = e->is_terminating();
    gate.pass();
  });
  gate.await_arrivals(1);
  CHECK_FALSE(terminatingInTask);
  CHECK_FALSE(e->is_terminating());
  e->shutdown();
  CHECK(e->is_terminating());  // the task still runs
  gate.open();
  e->await_termination();
  CHECK(e->is_terminated());
  CHECK_FALSE(e->is_terminating());
}

TEST_CASE(
    "java: execute racing shutdownNow still terminates, every task accounted for (jtreg ShutdownNowExecuteRace)") {
  constexpr int kSubmitters = 4;
  for (bool linked : {false, true}) {
    for (int round = 0; round < 10; ++round) {
      CAPTURE(linked, round);
      Rig rig;
      std::unique_ptr<BlockingQueue> queue;
      if (linked)
        queue = std::make_unique<LinkedBlockingQueue>();
      else
        queue = std::make_unique<SynchronousQueue>();  // jtreg's
      auto e = rig.make(kSubmitters, kSubmitters, 60s, std::move(queue));
      std::atomic<int> accepted{0};
      std::vector<Thread> submitters;
      for (int s = 0; s < kSubmitters; ++s)
        submitters.emplace_back("submitter", [&] {
          // Until the pool is shut down: a saturated SynchronousQueue pool rejects too.
          for (int i = 0; i < 100'000; ++i) {
            try {
              if (e->execute([] {}).accepted()) ++accepted;
            } catch (const RejectedExecutionException&) {
              if (e->is_shutdown()) return;
            }
          }
        });
      await_condition([&] { return accepted.load() >= 50; }, "the submitters are under way");
      e->shutdown_now();
      await_condition([&] { return e->is_terminated(); }, "the pool terminated");
      CHECK(e->await_termination(Nanos(0)));
      for (Thread& t : submitters) t.join();
      CHECK(e->get_queue().size() == 0);
      Accounting a = e->trace().accounting();
      CHECK(a.balanced());
      CHECK(a.completed + a.dropped == static_cast<std::uint64_t>(accepted.load()));  // ran, or returned by shutdownNow
    }
  }
}

namespace {

// A LinkedBlockingQueue that notes, each time a worker starts to wait on it,
// whether that worker's interrupt status is already set: if it is, the
// worker was interrupted while it was not waiting (while it ran a task).
class InterruptCheckingQueue final : public BlockingQueue {
 public:
  LinkedBlockingQueue inner;  // bind it to the executor's trace too
  std::atomic<int> waits{0}, interruptedOnEntry{0};

  bool offer(Runnable& r) override { return inner.offer(r); }
  Runnable take(InterruptFlag& self) override {
    note(self);
    return inner.take(self);
  }
  Runnable poll(Time deadline, InterruptFlag& self) override {
    note(self);
    return inner.poll(deadline, self);
  }
  Runnable poll() override { return inner.poll(); }
  Runnable remove(TaskId task) override { return inner.remove(task); }
  bool contains(TaskId task) const override { return inner.contains(task); }
  std::vector<Runnable> drain_to() override { return inner.drain_to(); }
  std::size_t size() const override { return inner.size(); }
  int remaining_capacity() const override { return inner.remaining_capacity(); }
  TaskId peek() const override { return inner.peek(); }
  void for_each(const std::function<void(const Runnable&)>& f) const override { inner.for_each(f); }
  void wake_takers() override { inner.wake_takers(); }

 private:
  void note(const InterruptFlag& self) {
    if (self.is_set()) ++interruptedOnEntry;
    ++waits;
  }
};

}  // namespace

TEST_CASE("java: neither the setters nor shutdown interrupt a busy worker (jtreg SelfInterrupt)") {
  constexpr int n = 4;
  Rig rig;
  Gate start, finish, queued;  // before the executor, whose destructor joins the workers that pass them
  auto queue = std::make_unique<InterruptCheckingQueue>();
  InterruptCheckingQueue& q = *queue;
  auto e = rig.make(n, n, 60s, std::move(queue));
  OpenOnExit openStart(start), openFinish(finish), openQueued(queued);
  q.inner.bind(e->trace());
  for (int i = 0; i < n; ++i)
    e->execute([&] {
      start.pass();  // every worker is busy before any task calls a setter
      e->set_core_pool_size(n);
      e->set_core_pool_size(1);  // interrupts the idle workers: there are none
      finish.pass();
    });
  start.await_arrivals(n);
  start.open();
  finish.await_arrivals(n);  // every task called both setters and is still running
  CHECK(e->get_core_pool_size() == 1);
  CHECK(e->get_pool_size() == n);
  CHECK(e->get_active_count() == n);
  for (int i = 0; i < n; ++i) e->execute(queued.task());  // one queued task for each worker
  CHECK(q.size() == n);
  e->shutdown();  // interrupts the idle workers: there are none
  CHECK(e->is_terminating());
  finish.open();
  queued.await_arrivals(n);  // each worker waited on the queue once, and took a task
  CHECK(q.waits == n);
  CHECK(q.interruptedOnEntry == 0);
  queued.open();
  e->await_termination();
  CHECK(e->get_completed_task_count() == 2 * n);
  CHECK(e->trace().accounting().balanced());
}

TEST_CASE("java: awaitTermination times out on the pool's clock (TCK testAwaitTermination_timesOut)") {
  Rig rig;
  auto e = rig.make(1, 1, 60s, std::make_unique<LinkedBlockingQueue>());
  e->execute([] {});
  CHECK_FALSE(e->await_termination(Nanos(0)));
  CHECK_FALSE(e->await_termination(-1ms));
  std::atomic<int> result{-1};
  Thread waiter("await", [&] { result = e->await_termination(999'999ns); });
  REQUIRE(rig.clock.await_waiters(1));
  rig.clock.advance(999'998ns);
  CHECK(result == -1);
  rig.clock.advance(1ns);
  waiter.join();
  CHECK(result == 0);
  e->shutdown();
  CHECK(e->await_termination(10s));
  CHECK(rig.clock.now() == Time(999'999ns));
}

TEST_CASE("java: terminated() runs once, when an idle pool shuts down (TCK testTerminated)") {
  Rig rig;
  auto e = hooked(rig, 2, std::make_unique<LinkedBlockingQueue>());
  e->execute([] {});
  rig.await_count(is_kind(EventKind::worker_idle, kTake), 1, "the thread is idle");
  CHECK(e->terminatedCalls == 0);
  e->shutdown();
  e->await_termination();
  CHECK(e->terminatedCalls == 1);
  e->shutdown();
  e->shutdown_now();
  CHECK(e->terminatedCalls == 1);
}

TEST_CASE("java: beforeExecute and afterExecute run around each task (TCK testBeforeAfter)") {
  Rig rig;
  auto e = hooked(rig, 1, std::make_unique<LinkedBlockingQueue>());
  e->execute([] {});
  e->execute([] { throw std::runtime_error("task failed"); });
  e->execute([] {});
  e->close();
  CHECK(e->before == 3);
  CHECK(e->after == 3);
  CHECK(e->afterWithException == 1);
}

TEST_CASE("java: a task that throws kills its thread, which is replaced (jtreg ThrowingTasks)") {
  Rig rig;
  // Every task is submitted before the first one throws: while execute() runs,
  // its step 1 may start a core worker in a dead worker's place, and then
  // processWorkerExit's replacement finds the pool full (as in Java).
  Gate gate;  // before the executor, whose destructor joins the workers that pass it
  auto e = hooked(rig, 2, std::make_unique<LinkedBlockingQueue>());
  OpenOnExit open(gate);
  for (int i = 0; i < 10; ++i)
    e->execute([i, &gate] {
      gate.pass();
      if (i % 2 == 0) throw std::runtime_error("task failed");
    });
  gate.open();
  rig.await_count(is_kind(EventKind::task_threw), 5, "5 tasks threw");
  rig.await_count(is_kind(EventKind::worker_spawned, kReplaceAfterThrow), 5, "5 replacements");
  CHECK(rig.count(is_kind(EventKind::worker_exited, kTaskThrew)) == 5);
  await_condition([&] { return e->get_pool_size() == 2; }, "back to 2 threads");
  e->close();
  CHECK(e->afterWithException == 5);
  CHECK(e->get_completed_task_count() == 10);  // Java counts a task that threw as completed
  CHECK(e->terminatedCalls == 1);
  Accounting a = e->trace().accounting();
  CHECK(a.threw == 5);
  CHECK(a.completed == 5);
}

TEST_CASE("java: if beforeExecute throws, the task never runs and the thread is replaced") {
  Rig rig;
  // The first beforeExecute waits until both tasks are submitted (as in
  // ThrowingTasks): if the worker died first, the second execute() would start
  // a core worker in its place and the replacement would find the pool full.
  Gate gate;
  auto e = hooked(rig, 1, std::make_unique<LinkedBlockingQueue>());
  OpenOnExit open(gate);
  e->failBefore = 1;
  e->beforeGate = &gate;
  std::atomic<int> ran{0};
  e->execute([&] { ++ran; });
  e->execute([&] { ++ran; });
  CHECK(e->get_queue().size() == 1);  // the second task waits for the replacement
  gate.open();
  e->close();
  CHECK(ran == 1);
  CHECK(rig.count(is_kind(EventKind::task_dropped, kBeforeExecuteThrew)) == 1);
  CHECK(rig.count(is_kind(EventKind::worker_spawned, kReplaceAfterThrow)) == 1);
  CHECK(e->trace().accounting().balanced());
}

namespace {

// Gives out `good` threads, then refuses (returns null) or throws.
class FailingThreadFactory final : public ThreadFactory {
 public:
  FailingThreadFactory(int good, bool throws) : good_(good), throws_(throws) {}
  std::optional<UnstartedThread> newThread(std::move_only_function<void()> r) override {
    if (good_-- > 0) return UnstartedThread{"failing-factory", std::move(r)};
    if (throws_) throw std::runtime_error("no thread for you");
    return std::nullopt;
  }

 private:
  std::atomic<int> good_;
  bool throws_;
};

}  // namespace

TEST_CASE("java: a factory that fails after one thread still gets every task run (TCK testFailingThreadFactory)") {
  Rig rig;
  ThreadPoolExecutor e(100, 100, 60s, std::make_unique<LinkedBlockingQueue>(),
                       std::make_shared<FailingThreadFactory>(1, false), std::make_shared<AbortPolicy>(), rig.target());
  std::atomic<int> ran{0};
  for (int i = 0; i < 100; ++i) e.execute([&] { ++ran; });
  e.close();
  CHECK(ran == 100);
  CHECK(e.get_largest_pool_size() == 1);
}

TEST_CASE("java: a factory that throws: execute throws, and the pool still shuts down (jtreg FlakyThreadFactory)") {
  Rig rig;
  ThreadPoolExecutor e(1, 1, 60s, std::make_unique<LinkedBlockingQueue>(),
                       std::make_shared<FailingThreadFactory>(0, true), std::make_shared<AbortPolicy>(), rig.target());
  CHECK_THROWS_AS(e.execute([] {}), std::runtime_error);
  CHECK(e.get_pool_size() == 0);
  e.shutdown();
  // No worker and an empty queue: shutdown() itself terminates the pool.
  CHECK(e.is_terminated());
  CHECK(e.await_termination(Nanos(0)));
  e.close();
  CHECK(e.is_terminated());
}
