// submit() against execute() (issue 18 §2), and the interrupt a running
// task can see (shutdownNow, Future.cancel(true)). Manual clock and latches.
#include <atomic>
#include <stdexcept>
#include <thread>

#include "pools/core/registry.h"
#include "tests/java/rig.h"

using namespace poolscope;
using namespace poolscope::java;
using namespace poolscope::java::test;

namespace {

TraceLog::Pred kind_is(EventKind kind) {
  return [kind](const Event& e) { return e.kind == kind; };
}
TraceLog::Pred is_exit(Label rule) {
  return [rule](const Event& e) { return e.kind == EventKind::worker_exited && e.rule == rule; };
}

// Four threads, ten tasks that each wait for `gate` and then throw. Every
// task is queued before the first throws, so the replacements take queued
// tasks in turn.
struct ThrowingBatch {
  static constexpr int kThreads = 4;
  static constexpr int kTasks = 10;
  Rig rig;
  Gate gate;
  std::unique_ptr<ThreadPoolExecutor> e = rig.make(kThreads, kThreads, 1h, std::make_unique<LinkedBlockingQueue>());
};

}  // namespace

TEST_CASE("java: execute() loses a thread at each throw and replaces it: 14 threads for 10 throws") {
  ThrowingBatch b;
  OpenOnExit open(b.gate);
  for (int i = 0; i < ThrowingBatch::kTasks; ++i)
    b.e->execute([&] {
      b.gate.pass();
      throw std::runtime_error("task failed");
    });
  b.gate.open();
  b.rig.await_count(kind_is(EventKind::task_threw), ThrowingBatch::kTasks, "ten throws");
  b.rig.await_count(kind_is(EventKind::worker_spawned), 14, "a replacement for each thread that died");
  b.e->close();
  CHECK(b.rig.count(kind_is(EventKind::worker_spawned)) == 14);
  CHECK(b.rig.count(is_exit(kTaskThrew)) == 10);
  CHECK(b.e->get_completed_task_count() == ThrowingBatch::kTasks);  // Java counts the thrown ones as completed
  CHECK(b.rig.count(kind_is(EventKind::task_finished)) == 0);
}

TEST_CASE("java: submit() keeps each exception in its FutureTask: 4 threads for 10 throws, still traced as threw") {
  ThrowingBatch b;
  OpenOnExit open(b.gate);
  std::vector<Future<void>> futures;
  for (int i = 0; i < ThrowingBatch::kTasks; ++i)
    futures.push_back(b.e->submit([&] {
      b.gate.pass();
      throw std::runtime_error("task failed");
    }));
  b.gate.open();
  for (auto& f : futures) {
    try {
      f->get();
      FAIL("get() should throw ExecutionException");
    } catch (const ExecutionException& ex) {
      CHECK_THROWS_AS(std::rethrow_exception(ex.cause()), std::runtime_error);
    }
    CHECK(f->is_done());
    CHECK_FALSE(f->is_cancelled());
  }
  b.rig.await_count(kind_is(EventKind::task_threw), ThrowingBatch::kTasks, "ten throws in the trace");
  b.e->close();
  CHECK(b.rig.count(kind_is(EventKind::worker_spawned)) == ThrowingBatch::kThreads);
  CHECK(b.rig.count(is_exit(kTaskThrew)) == 0);
  CHECK(b.e->get_completed_task_count() == ThrowingBatch::kTasks);
  Accounting a = b.e->trace().accounting();
  CHECK(a.threw == ThrowingBatch::kTasks);
  CHECK(a.balanced());
}

TEST_CASE("java: submitWith in the registry picks execute or submit") {
  for (const char* how : {"execute", "submit"}) {
    ManualClock clock;
    TraceStream stream{std::size_t{1} << 16};
    TraceLog log{stream};
    auto pool =
        Registry::global().create("java", json{{"corePoolSize", 2}, {"maximumPoolSize", 2}, {"submitWith", how}},
                                  TraceTarget{.clock = &clock, .stream = &stream, .name = "java"});
    CHECK(pool->params()["submitWith"] == how);
    for (int i = 0; i < 4; ++i) CHECK(pool->submit([] { throw std::runtime_error("x"); }).accepted());
    await_condition([&] { return pool->accounting().threw == 4; }, "four throws");
    const std::size_t deaths = std::string(how) == "execute" ? 4 : 0;
    // A thrower's thread traces its death after the throw is counted, and may
    // still be on its way out when another worker terminates the pool.
    poolscope::test::await_count(log, is_exit(kTaskThrew), deaths, "a death for each throw under execute");
    pool->shutdown(ShutdownMode::graceful);
    log.sync();
    CHECK(log.count(is_exit(kTaskThrew)) == deaths);
    CHECK(pool->accounting().balanced());
  }
}

TEST_CASE("java: shutdownNow interrupts a sleeping task, which ends at once (TCK testShutdownNow, issue 28)") {
  Rig rig;
  auto e = rig.make(2, 2, 1h, std::make_unique<ArrayBlockingQueue>(10));
  std::atomic<int> ran{0};
  std::atomic<int> interrupted{0};
  for (int i = 0; i < 5; ++i)
    e->execute([&] {
      try {
        sleep_for(rig.clock, 1h);  // the manual clock never gets there
      } catch (const InterruptedException&) {
        interrupted++;
      }
      ran++;
    });
  rig.await_count(kind_is(EventKind::task_started), 2, "both threads running");
  CHECK(rig.clock.await_waiters(2));
  std::vector<Runnable> queued = e->shutdown_now();
  CHECK(queued.size() == 3);
  e->await_termination();  // without the interrupt this would wait for the clock
  CHECK(e->is_terminated());
  CHECK(ran == 2);
  CHECK(interrupted == 2);
  CHECK(e->get_completed_task_count() == 2);
}

TEST_CASE("java: cancel(true) interrupts the running task, and its worker lives on") {
  Rig rig;
  auto e = rig.make(1, 1, 1h, std::make_unique<LinkedBlockingQueue>());
  std::atomic<bool> sawInterrupt{false};
  Future<void> f = e->submit([&] {
    try {
      sleep_for(rig.clock, 1h);
    } catch (const InterruptedException&) {
      sawInterrupt = true;
      throw;
    }
  });
  rig.await_count(kind_is(EventKind::task_started), 1, "the task running");
  CHECK(rig.clock.await_waiters(1));
  CHECK(f->cancel(true));
  CHECK_FALSE(f->cancel(true));
  CHECK(f->is_cancelled());
  CHECK_THROWS_AS(f->get(), CancellationException);
  rig.await_count(kind_is(EventKind::task_threw), 1, "the interrupted task ended");
  CHECK(sawInterrupt);
  // The worker lives on and its interrupt is cleared before its next task.
  Future<int> g = e->submit([] { return 42; });
  CHECK(g->get() == 42);
  CHECK(rig.count(kind_is(EventKind::worker_spawned)) == 1);
}

TEST_CASE("java: Future.get(timeout) waits on the pool's clock") {
  Rig rig;
  auto e = rig.make(1, 1, 1h, std::make_unique<LinkedBlockingQueue>());
  Gate gate;
  OpenOnExit open(gate);
  Future<int> f = e->submit([&] {
    gate.pass();
    return 7;
  });
  std::atomic<bool> timedOut{false};
  std::thread waiter([&] {
    try {
      f->get(5s);
    } catch (const TimeoutException&) {
      timedOut = true;
    }
  });
  CHECK(rig.clock.await_waiters(1));  // parked in get(5s)
  CHECK_FALSE(timedOut);
  rig.clock.advance(5s);
  waiter.join();
  CHECK(timedOut);
  gate.open();
  CHECK(f->get() == 7);
}
