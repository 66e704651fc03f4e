// The JSR-166 TCK's ThreadPoolExecutorTest, translated: one TEST_CASE per
// upstream method, same setup, actions and assertions. Upstream:
// test/jdk/java/util/concurrent/tck/ThreadPoolExecutorTest.java in
// openjdk/jdk, whose methods are those of JDK 17's (later JDKs added the
// exception-message checks, which JDK 17's executor, and ours, do not
// have). Waits for keep-alive run on the manual clock; README.md lists
// every method and what became of it.
#include <atomic>
#include <thread>

#include "tests/upstream/jsr166/support.h"

using namespace poolscope;
using namespace poolscope::java;
using namespace poolscope::java::tck;

namespace {
std::unique_ptr<BlockingQueue> abq(int n) { return std::make_unique<ArrayBlockingQueue>(n); }

// A task that counts `started` down and waits for `done`.
Task awaiter(CountDownLatch& started, CountDownLatch& done) {
  return [&] {
    started.countDown();
    done.await();
  };
}
}  // namespace

// ThreadPoolExecutorTest.java testExecute (JDK 17 TCK)
TEST_CASE("jsr166 TPE: testExecute") {
  Rig rig;
  auto p = make(rig, 1, 1, LONG_DELAY_MS, abq(10));
  PoolCleaner cleaner(*p);
  CountDownLatch done(1);
  p->execute([&] { done.countDown(); });
  done.await();
}

// ThreadPoolExecutorTest.java testGetActiveCount (JDK 17 TCK)
TEST_CASE("jsr166 TPE: testGetActiveCount") {
  Rig rig;
  CountDownLatch done(1);
  auto p = make(rig, 2, 2, LONG_DELAY_MS, abq(10));
  PoolCleaner cleaner(*p, &done);
  CountDownLatch threadStarted(1);
  CHECK(p->get_active_count() == 0);
  std::atomic<int> inside{-1};
  p->execute([&] {
    inside = p->get_active_count();
    threadStarted.countDown();
    done.await();
  });
  threadStarted.await();
  CHECK(inside == 1);
  CHECK(p->get_active_count() == 1);
}

// ThreadPoolExecutorTest.java testPrestartCoreThread (JDK 17 TCK)
TEST_CASE("jsr166 TPE: testPrestartCoreThread") {
  Rig rig;
  auto p = make(rig, 2, 6, LONG_DELAY_MS, abq(10));
  PoolCleaner cleaner(*p);
  CHECK(p->get_pool_size() == 0);
  CHECK(p->prestart_core_thread());
  CHECK(p->get_pool_size() == 1);
  CHECK(p->prestart_core_thread());
  CHECK(p->get_pool_size() == 2);
  CHECK_FALSE(p->prestart_core_thread());
  CHECK(p->get_pool_size() == 2);
  p->set_core_pool_size(4);
  CHECK(p->prestart_core_thread());
  CHECK(p->get_pool_size() == 3);
  CHECK(p->prestart_core_thread());
  CHECK(p->get_pool_size() == 4);
  CHECK_FALSE(p->prestart_core_thread());
  CHECK(p->get_pool_size() == 4);
}

// ThreadPoolExecutorTest.java testPrestartAllCoreThreads (JDK 17 TCK)
TEST_CASE("jsr166 TPE: testPrestartAllCoreThreads") {
  Rig rig;
  auto p = make(rig, 2, 6, LONG_DELAY_MS, abq(10));
  PoolCleaner cleaner(*p);
  CHECK(p->get_pool_size() == 0);
  p->prestart_all_core_threads();
  CHECK(p->get_pool_size() == 2);
  p->prestart_all_core_threads();
  CHECK(p->get_pool_size() == 2);
  p->set_core_pool_size(4);
  p->prestart_all_core_threads();
  CHECK(p->get_pool_size() == 4);
  p->prestart_all_core_threads();
  CHECK(p->get_pool_size() == 4);
}

// ThreadPoolExecutorTest.java testGetCompletedTaskCount (JDK 17 TCK)
TEST_CASE("jsr166 TPE: testGetCompletedTaskCount") {
  Rig rig;
  auto p = make(rig, 2, 2, LONG_DELAY_MS, abq(10));
  PoolCleaner cleaner(*p);
  CountDownLatch threadStarted(1), threadProceed(1), threadDone(1);
  CHECK(p->get_completed_task_count() == 0);
  std::atomic<std::int64_t> inside{-1};
  p->execute([&] {
    threadStarted.countDown();
    inside = p->get_completed_task_count();
    threadProceed.await();
    threadDone.countDown();
  });
  threadStarted.await();
  CHECK(p->get_completed_task_count() == 0);
  threadProceed.countDown();
  threadDone.await();
  // Upstream spins with Thread.yield() until the count reaches 1.
  poolscope::test::await_condition([&] { return p->get_completed_task_count() == 1; }, "completed task count 1");
  CHECK(inside == 0);
}

// ThreadPoolExecutorTest.java testGetCorePoolSize (JDK 17 TCK)
TEST_CASE("jsr166 TPE: testGetCorePoolSize") {
  Rig rig;
  auto p = make(rig, 1, 1, LONG_DELAY_MS, abq(10));
  PoolCleaner cleaner(*p);
  CHECK(p->get_core_pool_size() == 1);
}

// ThreadPoolExecutorTest.java testGetKeepAliveTime (JDK 17 TCK)
TEST_CASE("jsr166 TPE: testGetKeepAliveTime") {
  Rig rig;
  auto p = make(rig, 2, 2, 1000ms, abq(10));
  PoolCleaner cleaner(*p);
  CHECK(std::chrono::duration_cast<std::chrono::seconds>(p->get_keep_alive_time()).count() == 1);
}

// ThreadPoolExecutorTest.java testGetThreadFactory (JDK 17 TCK)
TEST_CASE("jsr166 TPE: testGetThreadFactory") {
  Rig rig;
  auto threadFactory = std::make_shared<SimpleThreadFactory>();
  auto p = make(rig, 1, 2, LONG_DELAY_MS, abq(10), threadFactory, std::make_shared<NoOpREHandler>());
  PoolCleaner cleaner(*p);
  CHECK(p->get_thread_factory() == threadFactory);
}

// ThreadPoolExecutorTest.java testSetThreadFactory (JDK 17 TCK)
TEST_CASE("jsr166 TPE: testSetThreadFactory") {
  Rig rig;
  auto p = make(rig, 1, 2, LONG_DELAY_MS, abq(10));
  PoolCleaner cleaner(*p);
  auto threadFactory = std::make_shared<SimpleThreadFactory>();
  p->set_thread_factory(threadFactory);
  CHECK(p->get_thread_factory() == threadFactory);
}

// ThreadPoolExecutorTest.java testSetThreadFactoryNull (JDK 17 TCK)
TEST_CASE("jsr166 TPE: testSetThreadFactoryNull") {
  Rig rig;
  auto p = make(rig, 1, 2, LONG_DELAY_MS, abq(10));
  PoolCleaner cleaner(*p);
  CHECK_THROWS_AS(p->set_thread_factory(nullptr), NullPointerException);
}

// ThreadPoolExecutorTest.java testDefaultRejectedExecutionHandler (JDK 17 TCK)
TEST_CASE("jsr166 TPE: testDefaultRejectedExecutionHandler") {
  Rig rig;
  auto p = std::make_unique<ThreadPoolExecutor>(1, 2, LONG_DELAY_MS, abq(10));
  PoolCleaner cleaner(*p);
  CHECK(dynamic_cast<AbortPolicy*>(p->get_rejected_execution_handler().get()) != nullptr);
}

// ThreadPoolExecutorTest.java testGetRejectedExecutionHandler (JDK 17 TCK)
TEST_CASE("jsr166 TPE: testGetRejectedExecutionHandler") {
  Rig rig;
  auto handler = std::make_shared<NoOpREHandler>();
  auto p = make(rig, 1, 2, LONG_DELAY_MS, abq(10), std::make_shared<DefaultThreadFactory>(), handler);
  PoolCleaner cleaner(*p);
  CHECK(p->get_rejected_execution_handler() == handler);
}

// ThreadPoolExecutorTest.java testSetRejectedExecutionHandler (JDK 17 TCK)
TEST_CASE("jsr166 TPE: testSetRejectedExecutionHandler") {
  Rig rig;
  auto p = make(rig, 1, 2, LONG_DELAY_MS, abq(10));
  PoolCleaner cleaner(*p);
  auto handler = std::make_shared<NoOpREHandler>();
  p->set_rejected_execution_handler(handler);
  CHECK(p->get_rejected_execution_handler() == handler);
}

// ThreadPoolExecutorTest.java testSetRejectedExecutionHandlerNull (JDK 17 TCK)
TEST_CASE("jsr166 TPE: testSetRejectedExecutionHandlerNull") {
  Rig rig;
  auto p = make(rig, 1, 2, LONG_DELAY_MS, abq(10));
  PoolCleaner cleaner(*p);
  CHECK_THROWS_AS(p->set_rejected_execution_handler(nullptr), NullPointerException);
}

// ThreadPoolExecutorTest.java testGetLargestPoolSize (JDK 17 TCK)
TEST_CASE("jsr166 TPE: testGetLargestPoolSize") {
  constexpr int THREADS = 3;
  Rig rig;
  CountDownLatch done(1);
  auto p = make(rig, THREADS, THREADS, LONG_DELAY_MS, abq(10));
  {
    PoolCleaner cleaner(*p, &done);
    CHECK(p->get_largest_pool_size() == 0);
    CountDownLatch threadsStarted(THREADS);
    for (int i = 0; i < THREADS; i++) p->execute(awaiter(threadsStarted, done));
    threadsStarted.await();
    CHECK(p->get_largest_pool_size() == THREADS);
  }
  CHECK(p->get_largest_pool_size() == THREADS);
}

// ThreadPoolExecutorTest.java testGetMaximumPoolSize (JDK 17 TCK)
TEST_CASE("jsr166 TPE: testGetMaximumPoolSize") {
  Rig rig;
  auto p = make(rig, 2, 3, LONG_DELAY_MS, abq(10));
  PoolCleaner cleaner(*p);
  CHECK(p->get_maximum_pool_size() == 3);
  p->set_maximum_pool_size(5);
  CHECK(p->get_maximum_pool_size() == 5);
  p->set_maximum_pool_size(4);
  CHECK(p->get_maximum_pool_size() == 4);
}

// ThreadPoolExecutorTest.java testGetPoolSize (JDK 17 TCK)
TEST_CASE("jsr166 TPE: testGetPoolSize") {
  Rig rig;
  CountDownLatch done(1);
  auto p = make(rig, 1, 1, LONG_DELAY_MS, abq(10));
  PoolCleaner cleaner(*p, &done);
  CHECK(p->get_pool_size() == 0);
  CountDownLatch threadStarted(1);
  p->execute(awaiter(threadStarted, done));
  threadStarted.await();
  CHECK(p->get_pool_size() == 1);
}

// ThreadPoolExecutorTest.java testGetTaskCount (JDK 17 TCK)
TEST_CASE("jsr166 TPE: testGetTaskCount") {
  constexpr int TASKS = 3;
  Rig rig;
  CountDownLatch done(1);
  auto p = make(rig, 1, 1, LONG_DELAY_MS, abq(10));
  {
    PoolCleaner cleaner(*p, &done);
    CountDownLatch threadStarted(1);
    CHECK(p->get_task_count() == 0);
    CHECK(p->get_completed_task_count() == 0);
    p->execute(awaiter(threadStarted, done));
    threadStarted.await();
    CHECK(p->get_task_count() == 1);
    CHECK(p->get_completed_task_count() == 0);
    for (int i = 0; i < TASKS; i++) {
      CHECK(p->get_task_count() == 1 + i);
      p->execute(awaiter(threadStarted, done));
    }
    CHECK(p->get_task_count() == 1 + TASKS);
    CHECK(p->get_completed_task_count() == 0);
  }
  CHECK(p->get_task_count() == 1 + TASKS);
  CHECK(p->get_completed_task_count() == 1 + TASKS);
}

// ThreadPoolExecutorTest.java testIsShutdown (JDK 17 TCK)
TEST_CASE("jsr166 TPE: testIsShutdown") {
  Rig rig;
  auto p = make(rig, 1, 1, LONG_DELAY_MS, abq(10));
  PoolCleaner cleaner(*p);
  CHECK_FALSE(p->is_shutdown());
  p->shutdown();
  CHECK(p->is_shutdown());
}

// ThreadPoolExecutorTest.java testAwaitTermination_timesOut (JDK 17 TCK).
// The waits that upstream times on System.nanoTime run on the manual clock:
// the timed wait must not return before the clock has moved its timeout.
TEST_CASE("jsr166 TPE: testAwaitTermination_timesOut") {
  Rig rig;
  auto p = make(rig, 1, 1, LONG_DELAY_MS, abq(10));
  PoolCleaner cleaner(*p);
  CHECK_FALSE(p->is_terminated());
  CHECK_FALSE(p->await_termination(Nanos::min()));
  CHECK_FALSE(p->await_termination(Nanos(-1)));
  CHECK_FALSE(p->await_termination(Nanos(0)));
  const Nanos timeoutNanos(999999);
  Time startTime = rig.clock.now();
  std::atomic<bool> returned{false}, result{true};
  std::thread waiter([&] {
    result = p->await_termination(timeoutNanos);
    returned = true;
  });
  CHECK(rig.clock.await_waiters(1));
  CHECK_FALSE(returned);
  rig.clock.advance(timeoutNanos);
  waiter.join();
  CHECK_FALSE(result);
  CHECK(rig.clock.now() - startTime >= timeoutNanos);
  CHECK_FALSE(p->is_terminated());
  p->shutdown();
  CHECK(p->await_termination(LONG_DELAY_MS));
  CHECK(p->is_terminated());
}

// ThreadPoolExecutorTest.java testIsTerminated (JDK 17 TCK)
TEST_CASE("jsr166 TPE: testIsTerminated") {
  Rig rig;
  auto p = make(rig, 1, 1, LONG_DELAY_MS, abq(10));
  PoolCleaner cleaner(*p);
  CountDownLatch threadStarted(1), done(1);
  CHECK_FALSE(p->is_terminating());
  std::atomic<bool> terminatingInside{true};
  p->execute([&] {
    terminatingInside = p->is_terminating();
    threadStarted.countDown();
    done.await();
  });
  threadStarted.await();
  CHECK_FALSE(p->is_terminating());
  done.countDown();
  p->shutdown();
  p->await_termination();  // C++: upstream's awaitTermination(LONG_DELAY_MS), untimed (the manual clock stays)
  CHECK(p->is_terminated());
  CHECK_FALSE(p->is_terminating());
  CHECK_FALSE(terminatingInside);
}

// ThreadPoolExecutorTest.java testIsTerminating (JDK 17 TCK): upstream's
// body is the same as testIsTerminated's.
TEST_CASE("jsr166 TPE: testIsTerminating") {
  Rig rig;
  auto p = make(rig, 1, 1, LONG_DELAY_MS, abq(10));
  PoolCleaner cleaner(*p);
  CountDownLatch threadStarted(1), done(1);
  CHECK_FALSE(p->is_terminating());
  std::atomic<bool> terminatingInside{true};
  p->execute([&] {
    terminatingInside = p->is_terminating();
    threadStarted.countDown();
    done.await();
  });
  threadStarted.await();
  CHECK_FALSE(p->is_terminating());
  done.countDown();
  p->shutdown();
  p->await_termination();
  CHECK(p->is_terminated());
  CHECK_FALSE(p->is_terminating());
  CHECK_FALSE(terminatingInside);
}

// ThreadPoolExecutorTest.java testGetQueue (JDK 17 TCK). Task ids stand for
// the FutureTask objects: the trace numbers them 1..5 in execute order.
TEST_CASE("jsr166 TPE: testGetQueue") {
  Rig rig;
  CountDownLatch done(1);
  auto q = std::make_unique<ArrayBlockingQueue>(10);
  BlockingQueue* qp = q.get();
  auto p = make(rig, 1, 1, LONG_DELAY_MS, std::move(q));
  PoolCleaner cleaner(*p, &done);
  CountDownLatch threadStarted(1);
  std::vector<Future<bool>> tasks;
  std::atomic<bool> sameQueue{true};
  for (int i = 0; i < 5; i++) {
    tasks.push_back(p->new_task_for<bool>([&] {
      threadStarted.countDown();
      if (&p->get_queue() != qp) sameQueue = false;
      done.await();
      return true;
    }));
    p->execute_future(tasks.back());
  }
  threadStarted.await();
  CHECK(&p->get_queue() == qp);
  CHECK_FALSE(qp->contains(1));
  CHECK(qp->contains(5));
  CHECK(qp->size() == 4);
  CHECK(qp->peek() == 2);  // C++: beyond upstream, the other monitoring calls
  CHECK(qp->remaining_capacity() == 6);
  CHECK(qp->ids() == std::vector<TaskId>{2, 3, 4, 5});
  CHECK(sameQueue);
}

// ThreadPoolExecutorTest.java testRemove (JDK 17 TCK)
TEST_CASE("jsr166 TPE: testRemove") {
  Rig rig;
  CountDownLatch done(1);
  auto q = std::make_unique<ArrayBlockingQueue>(10);
  BlockingQueue* qp = q.get();
  auto p = make(rig, 1, 1, LONG_DELAY_MS, std::move(q));
  PoolCleaner cleaner(*p, &done);
  CountDownLatch threadStarted(1);
  for (int i = 0; i < 6; i++) p->execute(awaiter(threadStarted, done));  // tasks[i] is task i + 1
  threadStarted.await();
  CHECK_FALSE(p->remove(1));
  CHECK(qp->contains(5));
  CHECK(qp->contains(4));
  CHECK(p->remove(5));
  CHECK_FALSE(p->remove(5));
  CHECK_FALSE(qp->contains(5));
  CHECK(qp->contains(4));
  CHECK(p->remove(4));
  CHECK_FALSE(qp->contains(4));
}

// ThreadPoolExecutorTest.java testPurge (JDK 17 TCK)
TEST_CASE("jsr166 TPE: testPurge") {
  Rig rig;
  CountDownLatch threadStarted(1), done(1);
  auto q = std::make_unique<ArrayBlockingQueue>(10);
  BlockingQueue* qp = q.get();
  auto p = make(rig, 1, 1, LONG_DELAY_MS, std::move(q));
  PoolCleaner cleaner(*p, &done);
  std::vector<Future<bool>> tasks;
  for (int i = 0; i < 5; i++) {
    tasks.push_back(p->new_task_for<bool>([&] {
      threadStarted.countDown();
      done.await();
      return true;
    }));
    p->execute_future(tasks.back());
  }
  threadStarted.await();
  CHECK(p->get_task_count() == 5);
  CHECK(qp->size() == 4);
  CHECK(p->get_active_count() == 1);
  CHECK(p->get_completed_task_count() == 0);
  tasks[4]->cancel(true);
  tasks[3]->cancel(false);
  p->purge();
  CHECK(qp->size() == 5 - 3);
  CHECK(p->get_task_count() == 5 - 2);
  p->purge();  // Nothing to do
  CHECK(qp->size() == 5 - 3);
  CHECK(p->get_task_count() == 5 - 2);
}

// ThreadPoolExecutorTest.java testShutdownNow (JDK 17 TCK): the running
// tasks sleep LONGER_DELAY_MS on the manual clock, which never moves, so
// the pool terminates only because shutdownNow interrupts their sleeps.
TEST_CASE("jsr166 TPE: testShutdownNow") {
  constexpr int poolSize = 2;
  constexpr int count = 5;
  Rig rig;
  std::atomic<int> ran{0};
  auto p = make(rig, poolSize, poolSize, LONG_DELAY_MS, abq(10));
  CountDownLatch threadsStarted(poolSize);
  for (int i = 0; i < count; i++)
    p->execute([&] {
      threadsStarted.countDown();
      try {
        sleep_for(rig.clock, LONGER_DELAY_MS);
      } catch (const InterruptedException&) {
      }
      ran++;
    });
  threadsStarted.await();
  CHECK(p->get_active_count() == poolSize);
  CHECK(p->get_completed_task_count() == 0);
  std::vector<Runnable> queuedTasks = p->shutdown_now();
  CHECK(p->is_shutdown());
  CHECK(p->get_queue().is_empty());
  CHECK(queuedTasks.size() == count - poolSize);
  p->await_termination();  // C++: upstream's awaitTermination(LONG_DELAY_MS); the manual clock never moves
  CHECK(p->is_terminated());
  CHECK(ran == poolSize);
  CHECK(p->get_completed_task_count() == poolSize);
}

// ThreadPoolExecutorTest.java testConstructor1..20 (JDK 17 TCK): the four
// Java constructors are one C++ constructor with defaulted factory and
// handler; each upstream method passes the same bad argument to one of them.
namespace {
void constructorThrowsIAE(int core, int max, Nanos keepAlive, int form) {
  auto f = std::make_shared<SimpleThreadFactory>();
  auto h = std::make_shared<NoOpREHandler>();
  auto q = abq(10);
  switch (form) {
    case 0:
      CHECK_THROWS_AS(ThreadPoolExecutor(core, max, keepAlive, std::move(q)), IllegalArgumentException);
      break;
    case 1:
      CHECK_THROWS_AS(ThreadPoolExecutor(core, max, keepAlive, std::move(q), f), IllegalArgumentException);
      break;
    case 2:
      CHECK_THROWS_AS(
          ThreadPoolExecutor(core, max, keepAlive, std::move(q), std::make_shared<DefaultThreadFactory>(), h),
          IllegalArgumentException);
      break;
    default:
      CHECK_THROWS_AS(ThreadPoolExecutor(core, max, keepAlive, std::move(q), f, h), IllegalArgumentException);
  }
}
}  // namespace

// ThreadPoolExecutorTest.java testConstructor1 (JDK 17 TCK)
TEST_CASE("jsr166 TPE: testConstructor1") { constructorThrowsIAE(-1, 1, 1s, 0); }
// ThreadPoolExecutorTest.java testConstructor2 (JDK 17 TCK)
TEST_CASE("jsr166 TPE: testConstructor2") { constructorThrowsIAE(1, -1, 1s, 0); }
// ThreadPoolExecutorTest.java testConstructor3 (JDK 17 TCK)
TEST_CASE("jsr166 TPE: testConstructor3") { constructorThrowsIAE(1, 0, 1s, 0); }
// ThreadPoolExecutorTest.java testConstructor4 (JDK 17 TCK)
TEST_CASE("jsr166 TPE: testConstructor4") { constructorThrowsIAE(1, 2, -1s, 0); }
// ThreadPoolExecutorTest.java testConstructor5 (JDK 17 TCK)
TEST_CASE("jsr166 TPE: testConstructor5") { constructorThrowsIAE(2, 1, 1s, 0); }
// ThreadPoolExecutorTest.java testConstructor6 (JDK 17 TCK)
TEST_CASE("jsr166 TPE: testConstructor6") { constructorThrowsIAE(-1, 1, 1s, 1); }
// ThreadPoolExecutorTest.java testConstructor7 (JDK 17 TCK)
TEST_CASE("jsr166 TPE: testConstructor7") { constructorThrowsIAE(1, -1, 1s, 1); }
// ThreadPoolExecutorTest.java testConstructor8 (JDK 17 TCK)
TEST_CASE("jsr166 TPE: testConstructor8") { constructorThrowsIAE(1, 0, 1s, 1); }
// ThreadPoolExecutorTest.java testConstructor9 (JDK 17 TCK)
TEST_CASE("jsr166 TPE: testConstructor9") { constructorThrowsIAE(1, 2, -1s, 1); }
// ThreadPoolExecutorTest.java testConstructor10 (JDK 17 TCK)
TEST_CASE("jsr166 TPE: testConstructor10") { constructorThrowsIAE(2, 1, 1s, 1); }
// ThreadPoolExecutorTest.java testConstructor11 (JDK 17 TCK)
TEST_CASE("jsr166 TPE: testConstructor11") { constructorThrowsIAE(-1, 1, 1s, 2); }
// ThreadPoolExecutorTest.java testConstructor12 (JDK 17 TCK)
TEST_CASE("jsr166 TPE: testConstructor12") { constructorThrowsIAE(1, -1, 1s, 2); }
// ThreadPoolExecutorTest.java testConstructor13 (JDK 17 TCK)
TEST_CASE("jsr166 TPE: testConstructor13") { constructorThrowsIAE(1, 0, 1s, 2); }
// ThreadPoolExecutorTest.java testConstructor14 (JDK 17 TCK)
TEST_CASE("jsr166 TPE: testConstructor14") { constructorThrowsIAE(1, 2, -1s, 2); }
// ThreadPoolExecutorTest.java testConstructor15 (JDK 17 TCK)
TEST_CASE("jsr166 TPE: testConstructor15") { constructorThrowsIAE(2, 1, 1s, 2); }
// ThreadPoolExecutorTest.java testConstructor16 (JDK 17 TCK)
TEST_CASE("jsr166 TPE: testConstructor16") { constructorThrowsIAE(-1, 1, 1s, 3); }
// ThreadPoolExecutorTest.java testConstructor17 (JDK 17 TCK)
TEST_CASE("jsr166 TPE: testConstructor17") { constructorThrowsIAE(1, -1, 1s, 3); }
// ThreadPoolExecutorTest.java testConstructor18 (JDK 17 TCK)
TEST_CASE("jsr166 TPE: testConstructor18") { constructorThrowsIAE(1, 0, 1s, 3); }
// ThreadPoolExecutorTest.java testConstructor19 (JDK 17 TCK)
TEST_CASE("jsr166 TPE: testConstructor19") { constructorThrowsIAE(1, 2, -1s, 3); }
// ThreadPoolExecutorTest.java testConstructor20 (JDK 17 TCK)
TEST_CASE("jsr166 TPE: testConstructor20") { constructorThrowsIAE(2, 1, 1s, 3); }

// ThreadPoolExecutorTest.java testConstructorNullPointerException (JDK 17 TCK): null workQueue
TEST_CASE("jsr166 TPE: testConstructorNullPointerException") {
  CHECK_THROWS_AS(ThreadPoolExecutor(1, 2, 1s, nullptr), NullPointerException);
}
// ThreadPoolExecutorTest.java testConstructorNullPointerException2 (JDK 17 TCK): null workQueue, with a factory
TEST_CASE("jsr166 TPE: testConstructorNullPointerException2") {
  CHECK_THROWS_AS(ThreadPoolExecutor(1, 2, 1s, nullptr, std::make_shared<SimpleThreadFactory>()), NullPointerException);
}
// ThreadPoolExecutorTest.java testConstructorNullPointerException3 (JDK 17 TCK): null threadFactory
TEST_CASE("jsr166 TPE: testConstructorNullPointerException3") {
  CHECK_THROWS_AS(ThreadPoolExecutor(1, 2, 1s, abq(10), nullptr), NullPointerException);
}
// ThreadPoolExecutorTest.java testConstructorNullPointerException4 (JDK 17 TCK): null workQueue, with a handler
TEST_CASE("jsr166 TPE: testConstructorNullPointerException4") {
  CHECK_THROWS_AS(ThreadPoolExecutor(1, 2, 1s, nullptr, std::make_shared<DefaultThreadFactory>(),
                                     std::make_shared<NoOpREHandler>()),
                  NullPointerException);
}
// ThreadPoolExecutorTest.java testConstructorNullPointerException5 (JDK 17 TCK): null handler
TEST_CASE("jsr166 TPE: testConstructorNullPointerException5") {
  CHECK_THROWS_AS(ThreadPoolExecutor(1, 2, 1s, abq(10), std::make_shared<DefaultThreadFactory>(), nullptr),
                  NullPointerException);
}
// ThreadPoolExecutorTest.java testConstructorNullPointerException6 (JDK 17 TCK): null workQueue, factory and handler
// given
TEST_CASE("jsr166 TPE: testConstructorNullPointerException6") {
  CHECK_THROWS_AS(
      ThreadPoolExecutor(1, 2, 1s, nullptr, std::make_shared<SimpleThreadFactory>(), std::make_shared<NoOpREHandler>()),
      NullPointerException);
}
// ThreadPoolExecutorTest.java testConstructorNullPointerException7 (JDK 17 TCK): null handler, factory given
TEST_CASE("jsr166 TPE: testConstructorNullPointerException7") {
  CHECK_THROWS_AS(ThreadPoolExecutor(1, 2, 1s, abq(10), std::make_shared<SimpleThreadFactory>(), nullptr),
                  NullPointerException);
}
// ThreadPoolExecutorTest.java testConstructorNullPointerException8 (JDK 17 TCK): null factory, handler given
TEST_CASE("jsr166 TPE: testConstructorNullPointerException8") {
  CHECK_THROWS_AS(ThreadPoolExecutor(1, 2, 1s, abq(10), nullptr, std::make_shared<NoOpREHandler>()),
                  NullPointerException);
}

// ThreadPoolExecutorTest.java testInterruptedSubmit (JDK 17 TCK)
TEST_CASE("jsr166 TPE: testInterruptedSubmit") {
  Rig rig;
  CountDownLatch done(1);
  auto p = make(rig, 1, 1, 60s, abq(10));
  PoolCleaner cleaner(*p, &done);
  CountDownLatch threadStarted(1);
  std::atomic<InterruptFlag*> tFlag{nullptr};
  std::atomic<bool> interrupted{false};
  std::thread t([&] {  // newStartedThread(new CheckedInterruptedRunnable() {...})
    tFlag = &current_interrupt();
    try {
      p->submit([&] {
         threadStarted.countDown();
         done.await();
         return true;
       })->get();
    } catch (const InterruptedException&) {
      interrupted = true;
    }
  });
  threadStarted.await();  // ensure quiescence
  poolscope::test::await_condition([&] { return tFlag.load() != nullptr; }, "t published its interrupt status");
  tFlag.load()->set();  // t.interrupt()
  t.join();             // awaitTermination(t)
  CHECK(interrupted);
}

// ThreadPoolExecutorTest.java testSubmittedTasksRejectedWhenSaturatedOrShutdown
// (JDK 17 TCK). Upstream picks execute/submit forms and shutdown/shutdownNow
// at random; here each of the four forms is used in turn and both shutdowns
// are run (SECTIONs).
TEST_CASE("jsr166 TPE: testSubmittedTasksRejectedWhenSaturatedOrShutdown") {
  const bool shutdownNow = GENERATE(false, true);
  Rig rig;
  auto p = make(rig, 1, 1, 1s, abq(1));
  const int saturatedSize = p->get_maximum_pool_size() + 1;  // saturatedSize(p): threads + queue capacity
  CountDownLatch threadsStarted(p->get_maximum_pool_size());
  CountDownLatch done(1);
  auto r = [&] {
    threadsStarted.countDown();
    done.await();
  };
  auto c = [&] {
    threadsStarted.countDown();
    done.await();
    return true;
  };
  auto assertTaskSubmissionsAreRejected = [&] {
    CHECK_THROWS_AS(p->execute(r), RejectedExecutionException);
    CHECK_THROWS_AS(p->submit(r), RejectedExecutionException);
    CHECK_THROWS_AS(p->submit(r, true), RejectedExecutionException);
    CHECK_THROWS_AS(p->submit(c), RejectedExecutionException);
  };
  {
    PoolCleaner cleaner(*p, &done);
    for (int i = saturatedSize; i-- > 0;) {
      switch (i % 4) {
        case 0:
          p->execute(r);
          break;
        case 1:
          CHECK_FALSE(p->submit(r)->is_done());
          break;
        case 2:
          CHECK_FALSE(p->submit(r, true)->is_done());
          break;
        default:
          CHECK_FALSE(p->submit(c)->is_done());
      }
    }
    threadsStarted.await();
    assertTaskSubmissionsAreRejected();
    if (shutdownNow)
      p->shutdown_now();
    else
      p->shutdown();
    // Pool is shutdown, but not yet terminated
    assertTaskSubmissionsAreRejected();
    CHECK_FALSE(p->is_terminated());
    done.countDown();  // release blocking tasks
    p->await_termination();
    assertTaskSubmissionsAreRejected();
  }
  CHECK(p->get_completed_task_count() == saturatedSize - (shutdownNow ? p->get_queue().remaining_capacity() : 0));
}

// ThreadPoolExecutorTest.java testSaturatedExecute_DiscardOldestPolicy (JDK 17 TCK)
TEST_CASE("jsr166 TPE: testSaturatedExecute_DiscardOldestPolicy") {
  Rig rig;
  CountDownLatch done(1);
  enum { NEW, DONE };
  std::atomic<int> r1{NEW}, r2{NEW}, r3{NEW};
  auto latchAwaiter = [&](std::atomic<int>& state) {
    return [&] {
      done.await();
      state = DONE;
    };
  };
  auto p = make(rig, 1, 1, LONG_DELAY_MS, abq(1), std::make_shared<DefaultThreadFactory>(),
                std::make_shared<DiscardOldestPolicy>());
  {
    PoolCleaner cleaner(*p, &done);
    CHECK(r1 == NEW);
    CHECK(r2 == NEW);
    CHECK(r3 == NEW);
    p->execute(latchAwaiter(r1));  // task 1
    p->execute(latchAwaiter(r2));  // task 2
    CHECK(p->get_queue().contains(2));
    p->execute(latchAwaiter(r3));  // task 3
    CHECK_FALSE(p->get_queue().contains(2));
    CHECK(p->get_queue().contains(3));
  }
  CHECK(r1 == DONE);
  CHECK(r2 == NEW);
  CHECK(r3 == DONE);
}

// ThreadPoolExecutorTest.java testDiscardOldestOnShutdown (JDK 17 TCK)
TEST_CASE("jsr166 TPE: testDiscardOldestOnShutdown") {
  Rig rig;
  auto p = make(rig, 1, 1, LONG_DELAY_MS, abq(1), std::make_shared<DefaultThreadFactory>(),
                std::make_shared<DiscardOldestPolicy>());
  p->shutdown();
  PoolCleaner cleaner(*p);
  bool done = false;  // TrackedNoOpRunnable
  p->execute([&] { done = true; });
  CHECK_FALSE(done);
}

// ThreadPoolExecutorTest.java testNullTaskSubmission (JDK 17 TCK):
// assertNullTaskSubmissionThrowsNullPointerException, for the forms C++ has.
TEST_CASE("jsr166 TPE: testNullTaskSubmission") {
  Rig rig;
  auto p = make(rig, 1, 2, 1s, abq(10));
  PoolCleaner cleaner(*p);
  CHECK_THROWS_AS(p->execute(Task{}), NullPointerException);
  CHECK_THROWS_AS(p->submit(std::move_only_function<void()>{}), NullPointerException);
  CHECK_THROWS_AS(p->submit(std::move_only_function<bool()>{}), NullPointerException);
  // submit(Runnable, T result): Java checks the task at the call too; this
  // one used to reach the worker and crash the process (issue 36).
  CHECK_THROWS_AS(p->submit(std::move_only_function<void()>{}, true), NullPointerException);
  CHECK_THROWS_AS(p->submit(std::function<void()>{}, true), NullPointerException);
  CHECK_THROWS_AS(p->submit(std::function<bool()>{}), NullPointerException);
  CHECK_THROWS_AS(p->submit(static_cast<void (*)()>(nullptr)), NullPointerException);
  CHECK(p->get_task_count() == 0);
}

// ThreadPoolExecutorTest.java testCorePoolSizeIllegalArgumentException (JDK 17 TCK)
TEST_CASE("jsr166 TPE: testCorePoolSizeIllegalArgumentException") {
  Rig rig;
  auto p = make(rig, 1, 2, LONG_DELAY_MS, abq(10));
  PoolCleaner cleaner(*p);
  CHECK_THROWS_AS(p->set_core_pool_size(-1), IllegalArgumentException);
}

// ThreadPoolExecutorTest.java testMaximumPoolSizeIllegalArgumentException (JDK 17 TCK)
TEST_CASE("jsr166 TPE: testMaximumPoolSizeIllegalArgumentException") {
  Rig rig;
  auto p = make(rig, 2, 3, LONG_DELAY_MS, abq(10));
  PoolCleaner cleaner(*p);
  CHECK_THROWS_AS(p->set_maximum_pool_size(1), IllegalArgumentException);
}

// ThreadPoolExecutorTest.java testMaximumPoolSizeIllegalArgumentException2 (JDK 17 TCK)
TEST_CASE("jsr166 TPE: testMaximumPoolSizeIllegalArgumentException2") {
  Rig rig;
  auto p = make(rig, 2, 3, LONG_DELAY_MS, abq(10));
  PoolCleaner cleaner(*p);
  CHECK_THROWS_AS(p->set_maximum_pool_size(-1), IllegalArgumentException);
}

// ThreadPoolExecutorTest.java testPoolSizeInvariants (JDK 17 TCK)
TEST_CASE("jsr166 TPE: testPoolSizeInvariants") {
  Rig rig;
  auto p = make(rig, 1, 1, LONG_DELAY_MS, abq(10));
  PoolCleaner cleaner(*p);
  for (int s = 1; s < 5; s++) {
    p->set_maximum_pool_size(s);
    p->set_core_pool_size(s);
    CHECK_THROWS_AS(p->set_maximum_pool_size(s - 1), IllegalArgumentException);
    CHECK(p->get_core_pool_size() == s);
    CHECK(p->get_maximum_pool_size() == s);
    CHECK_THROWS_AS(p->set_core_pool_size(s + 1), IllegalArgumentException);
    CHECK(p->get_core_pool_size() == s);
    CHECK(p->get_maximum_pool_size() == s);
  }
}

// ThreadPoolExecutorTest.java testKeepAliveTimeIllegalArgumentException (JDK 17 TCK)
TEST_CASE("jsr166 TPE: testKeepAliveTimeIllegalArgumentException") {
  Rig rig;
  auto p = make(rig, 2, 3, LONG_DELAY_MS, abq(10));
  PoolCleaner cleaner(*p);
  CHECK_THROWS_AS(p->set_keep_alive_time(-1ms), IllegalArgumentException);
}

namespace {
// ExtendedTPE: the hooks count latches down.
class ExtendedTPE final : public ThreadPoolExecutor {
 public:
  explicit ExtendedTPE(Rig& rig)
      : ThreadPoolExecutor(1, 1, LONG_DELAY_MS, std::make_unique<SynchronousQueue>(),
                           std::make_shared<DefaultThreadFactory>(), std::make_shared<AbortPolicy>(), rig.target()) {}
  ~ExtendedTPE() override { close(); }
  CountDownLatch beforeCalled{1}, afterCalled{1}, terminatedCalled{1};
  bool isBeforeCalled() const { return beforeCalled.getCount() == 0; }
  bool isAfterCalled() const { return afterCalled.getCount() == 0; }
  bool isTerminatedCalled() const { return terminatedCalled.getCount() == 0; }

 protected:
  void before_execute(WorkerId, const Runnable&) override { beforeCalled.countDown(); }
  void after_execute(const Runnable&, std::exception_ptr) override { afterCalled.countDown(); }
  void terminated() override { terminatedCalled.countDown(); }
};
}  // namespace

// ThreadPoolExecutorTest.java testTerminated (JDK 17 TCK)
TEST_CASE("jsr166 TPE: testTerminated") {
  Rig rig;
  ExtendedTPE p(rig);
  PoolCleaner cleaner(p);
  p.shutdown();
  CHECK(p.isTerminatedCalled());
  CHECK(p.is_shutdown());
}

// ThreadPoolExecutorTest.java testBeforeAfter (JDK 17 TCK)
TEST_CASE("jsr166 TPE: testBeforeAfter") {
  Rig rig;
  ExtendedTPE p(rig);
  PoolCleaner cleaner(p);
  CountDownLatch done(1);
  p.execute([&] { done.countDown(); });
  p.afterCalled.await();
  CHECK(done.getCount() == 0);
  CHECK(p.isAfterCalled());
  CHECK(p.isBeforeCalled());
}

// ThreadPoolExecutorTest.java testSubmitCallable (JDK 17 TCK)
TEST_CASE("jsr166 TPE: testSubmitCallable") {
  Rig rig;
  auto e = make(rig, 2, 2, LONG_DELAY_MS, abq(10));
  PoolCleaner cleaner(*e);
  Future<std::string> future = e->submit(StringTask());
  CHECK(future->get() == TEST_STRING);
}

// ThreadPoolExecutorTest.java testSubmitRunnable (JDK 17 TCK)
TEST_CASE("jsr166 TPE: testSubmitRunnable") {
  Rig rig;
  auto e = make(rig, 2, 2, LONG_DELAY_MS, abq(10));
  PoolCleaner cleaner(*e);
  Future<void> future = e->submit([] {});  // NoOpRunnable
  future->get();
  CHECK(future->is_done());
}

// ThreadPoolExecutorTest.java testSubmitRunnable2 (JDK 17 TCK)
TEST_CASE("jsr166 TPE: testSubmitRunnable2") {
  Rig rig;
  auto e = make(rig, 2, 2, LONG_DELAY_MS, abq(10));
  PoolCleaner cleaner(*e);
  Future<std::string> future = e->submit([] {}, TEST_STRING);
  CHECK(future->get() == TEST_STRING);
}

using StringTasks = std::vector<std::move_only_function<std::string()>>;

// ThreadPoolExecutorTest.java testInvokeAny2 (JDK 17 TCK)
TEST_CASE("jsr166 TPE: testInvokeAny2") {
  Rig rig;
  auto e = make(rig, 2, 2, LONG_DELAY_MS, abq(10));
  PoolCleaner cleaner(*e);
  CHECK_THROWS_AS(e->invoke_any(StringTasks{}), IllegalArgumentException);
}

// ThreadPoolExecutorTest.java testInvokeAny3 (JDK 17 TCK)
TEST_CASE("jsr166 TPE: testInvokeAny3") {
  Rig rig;
  CountDownLatch latch(1);
  auto e = make(rig, 2, 2, LONG_DELAY_MS, abq(10));
  PoolCleaner cleaner(*e);
  StringTasks l;
  l.push_back([&] {  // latchAwaitingStringTask(latch)
    latch.await();
    return TEST_STRING;
  });
  l.push_back(nullptr);
  CHECK_THROWS_AS(e->invoke_any(std::move(l)), NullPointerException);
  latch.countDown();
}

// ThreadPoolExecutorTest.java testInvokeAny4 (JDK 17 TCK)
TEST_CASE("jsr166 TPE: testInvokeAny4") {
  Rig rig;
  auto e = make(rig, 2, 2, LONG_DELAY_MS, abq(10));
  PoolCleaner cleaner(*e);
  StringTasks l;
  l.push_back(NPETask());
  CHECK(throwsExecutionExceptionCausedBy<NullPointerException>([&] { e->invoke_any(std::move(l)); }));
}

// ThreadPoolExecutorTest.java testInvokeAny5 (JDK 17 TCK)
TEST_CASE("jsr166 TPE: testInvokeAny5") {
  Rig rig;
  auto e = make(rig, 2, 2, LONG_DELAY_MS, abq(10));
  PoolCleaner cleaner(*e);
  StringTasks l;
  l.push_back(StringTask());
  l.push_back(StringTask());
  CHECK(e->invoke_any(std::move(l)) == TEST_STRING);
}

// ThreadPoolExecutorTest.java testInvokeAll2 (JDK 17 TCK)
TEST_CASE("jsr166 TPE: testInvokeAll2") {
  Rig rig;
  auto e = make(rig, 2, 2, LONG_DELAY_MS, abq(10));
  PoolCleaner cleaner(*e);
  CHECK(e->invoke_all(StringTasks{}).empty());
}

// ThreadPoolExecutorTest.java testInvokeAll3 (JDK 17 TCK)
TEST_CASE("jsr166 TPE: testInvokeAll3") {
  Rig rig;
  auto e = make(rig, 2, 2, LONG_DELAY_MS, abq(10));
  PoolCleaner cleaner(*e);
  StringTasks l;
  l.push_back(StringTask());
  l.push_back(nullptr);
  CHECK_THROWS_AS(e->invoke_all(std::move(l)), NullPointerException);
}

// ThreadPoolExecutorTest.java testInvokeAll4 (JDK 17 TCK)
TEST_CASE("jsr166 TPE: testInvokeAll4") {
  Rig rig;
  auto e = make(rig, 2, 2, LONG_DELAY_MS, abq(10));
  PoolCleaner cleaner(*e);
  StringTasks l;
  l.push_back(NPETask());
  auto futures = e->invoke_all(std::move(l));
  REQUIRE(futures.size() == 1);
  CHECK(throwsExecutionExceptionCausedBy<NullPointerException>([&] { futures[0]->get(); }));
}

// ThreadPoolExecutorTest.java testInvokeAll5 (JDK 17 TCK)
TEST_CASE("jsr166 TPE: testInvokeAll5") {
  Rig rig;
  auto e = make(rig, 2, 2, LONG_DELAY_MS, abq(10));
  PoolCleaner cleaner(*e);
  StringTasks l;
  l.push_back(StringTask());
  l.push_back(StringTask());
  auto futures = e->invoke_all(std::move(l));
  REQUIRE(futures.size() == 2);
  for (auto& future : futures) CHECK(future->get() == TEST_STRING);
}

// ThreadPoolExecutorTest.java testTimedInvokeAny2 (JDK 17 TCK)
TEST_CASE("jsr166 TPE: testTimedInvokeAny2") {
  Rig rig;
  auto e = make(rig, 2, 2, LONG_DELAY_MS, abq(10));
  PoolCleaner cleaner(*e);
  CHECK_THROWS_AS(e->invoke_any(StringTasks{}, LONG_DELAY_MS), IllegalArgumentException);
}

// ThreadPoolExecutorTest.java testTimedInvokeAny3 (JDK 17 TCK)
TEST_CASE("jsr166 TPE: testTimedInvokeAny3") {
  Rig rig;
  CountDownLatch latch(1);
  auto e = make(rig, 2, 2, LONG_DELAY_MS, abq(10));
  PoolCleaner cleaner(*e);
  StringTasks l;
  l.push_back([&] {
    latch.await();
    return TEST_STRING;
  });
  l.push_back(nullptr);
  CHECK_THROWS_AS(e->invoke_any(std::move(l), LONG_DELAY_MS), NullPointerException);
  latch.countDown();
}

// ThreadPoolExecutorTest.java testTimedInvokeAny4 (JDK 17 TCK): upstream
// also checks that less than LONG_DELAY_MS passed; on the manual clock none does.
TEST_CASE("jsr166 TPE: testTimedInvokeAny4") {
  Rig rig;
  auto e = make(rig, 2, 2, LONG_DELAY_MS, abq(10));
  PoolCleaner cleaner(*e);
  Time startTime = rig.clock.now();
  StringTasks l;
  l.push_back(NPETask());
  CHECK(throwsExecutionExceptionCausedBy<NullPointerException>([&] { e->invoke_any(std::move(l), LONG_DELAY_MS); }));
  CHECK(rig.clock.now() - startTime < LONG_DELAY_MS);
}

// ThreadPoolExecutorTest.java testTimedInvokeAny5 (JDK 17 TCK)
TEST_CASE("jsr166 TPE: testTimedInvokeAny5") {
  Rig rig;
  auto e = make(rig, 2, 2, LONG_DELAY_MS, abq(10));
  PoolCleaner cleaner(*e);
  Time startTime = rig.clock.now();
  StringTasks l;
  l.push_back(StringTask());
  l.push_back(StringTask());
  CHECK(e->invoke_any(std::move(l), LONG_DELAY_MS) == TEST_STRING);
  CHECK(rig.clock.now() - startTime < LONG_DELAY_MS);
}

// ThreadPoolExecutorTest.java testTimedInvokeAll2 (JDK 17 TCK)
TEST_CASE("jsr166 TPE: testTimedInvokeAll2") {
  Rig rig;
  auto e = make(rig, 2, 2, LONG_DELAY_MS, abq(10));
  PoolCleaner cleaner(*e);
  CHECK(e->invoke_all(StringTasks{}, LONG_DELAY_MS).empty());
}

// ThreadPoolExecutorTest.java testTimedInvokeAll3 (JDK 17 TCK)
TEST_CASE("jsr166 TPE: testTimedInvokeAll3") {
  Rig rig;
  auto e = make(rig, 2, 2, LONG_DELAY_MS, abq(10));
  PoolCleaner cleaner(*e);
  StringTasks l;
  l.push_back(StringTask());
  l.push_back(nullptr);
  CHECK_THROWS_AS(e->invoke_all(std::move(l), LONG_DELAY_MS), NullPointerException);
}

// ThreadPoolExecutorTest.java testTimedInvokeAll4 (JDK 17 TCK)
TEST_CASE("jsr166 TPE: testTimedInvokeAll4") {
  Rig rig;
  auto e = make(rig, 2, 2, LONG_DELAY_MS, abq(10));
  PoolCleaner cleaner(*e);
  StringTasks l;
  l.push_back(NPETask());
  auto futures = e->invoke_all(std::move(l), LONG_DELAY_MS);
  REQUIRE(futures.size() == 1);
  CHECK(throwsExecutionExceptionCausedBy<NullPointerException>([&] { futures[0]->get(); }));
}

// ThreadPoolExecutorTest.java testTimedInvokeAll5 (JDK 17 TCK)
TEST_CASE("jsr166 TPE: testTimedInvokeAll5") {
  Rig rig;
  auto e = make(rig, 2, 2, LONG_DELAY_MS, abq(10));
  PoolCleaner cleaner(*e);
  StringTasks l;
  l.push_back(StringTask());
  l.push_back(StringTask());
  auto futures = e->invoke_all(std::move(l), LONG_DELAY_MS);
  REQUIRE(futures.size() == 2);
  for (auto& future : futures) CHECK(future->get() == TEST_STRING);
}

// ThreadPoolExecutorTest.java testTimedInvokeAll6 (JDK 17 TCK). Upstream
// retries with a longer timeout when a fast task was cancelled too; on the
// manual clock the timeout passes only once the fast tasks are done and the
// waiter is known to wait, so one pass suffices.
TEST_CASE("jsr166 TPE: testTimedInvokeAll6") {
  const Nanos timeout = SHORT_DELAY_MS;  // timeoutMillis()
  Rig rig;
  CountDownLatch done(1);
  auto p = make(rig, 2, 2, LONG_DELAY_MS, abq(10));
  PoolCleaner cleaner(*p, &done);
  CountDownLatch waiterStarted(1);
  StringTasks tasks;
  tasks.push_back(StringTask("0"));
  tasks.push_back([&] {
    waiterStarted.countDown();
    try {
      sleep_for(rig.clock, LONG_DELAY_MS);  // C++: done.await(LONG_DELAY_MS), as an interruptible wait
    } catch (const InterruptedException&) {
    }
    return std::string("1");
  });
  tasks.push_back(StringTask("2"));
  Time startTime = rig.clock.now();
  std::vector<Future<std::string>> futures;
  std::thread caller([&] { futures = p->invoke_all(std::move(tasks), timeout); });
  waiterStarted.await();
  // The caller parks in get(timeout) on the waiter's future; the waiter sleeps;
  // and the two fast tasks have run (the second waits for the first's worker).
  CHECK(rig.clock.await_waiters(2));
  poolscope::test::await_condition([&] { return p->get_completed_task_count() >= 2; }, "the fast tasks done");
  rig.clock.advance(timeout);
  caller.join();
  REQUIRE(futures.size() == 3);
  CHECK(rig.clock.now() - startTime >= timeout);
  for (auto& future : futures) CHECK(future->is_done());
  CHECK(futures[1]->is_cancelled());
  CHECK(futures[0]->get() == "0");
  CHECK(futures[2]->get() == "2");
}

namespace {
// FailingThreadFactory: a thread for the first call only.
class FailingThreadFactory final : public ThreadFactory {
 public:
  std::optional<UnstartedThread> newThread(std::move_only_function<void()> r) override {
    if (++calls > 1) return std::nullopt;
    return inner_.newThread(std::move(r));
  }
  std::atomic<int> calls{0};

 private:
  DefaultThreadFactory inner_;
};
}  // namespace

// ThreadPoolExecutorTest.java testFailingThreadFactory (JDK 17 TCK)
TEST_CASE("jsr166 TPE: testFailingThreadFactory") {
  Rig rig;
  auto e = make(rig, 100, 100, LONG_DELAY_MS, std::make_unique<LinkedBlockingQueue>(),
                std::make_shared<FailingThreadFactory>());
  PoolCleaner cleaner(*e);
  constexpr int TASKS = 100;
  CountDownLatch done(TASKS);
  for (int k = 0; k < TASKS; ++k) e->execute([&] { done.countDown(); });
  done.await();
}

// ThreadPoolExecutorTest.java testAllowsCoreThreadTimeOut (JDK 17 TCK)
TEST_CASE("jsr166 TPE: testAllowsCoreThreadTimeOut") {
  Rig rig;
  auto p = make(rig, 2, 2, 1000ms, abq(10));
  PoolCleaner cleaner(*p);
  CHECK_FALSE(p->allows_core_thread_time_out());
}

// ThreadPoolExecutorTest.java testAllowCoreThreadTimeOut_true (JDK 17 TCK):
// delay(keepAliveTime) is the manual clock's advance.
TEST_CASE("jsr166 TPE: testAllowCoreThreadTimeOut_true") {
  const Nanos keepAliveTime = SHORT_DELAY_MS;
  Rig rig;
  auto p = make(rig, 2, 10, keepAliveTime, abq(10));
  PoolCleaner cleaner(*p);
  CountDownLatch threadStarted(1);
  p->allow_core_thread_time_out(true);
  std::atomic<int> inside{-1};
  p->execute([&] {
    inside = p->get_pool_size();
    threadStarted.countDown();
  });
  threadStarted.await();
  CHECK(rig.clock.await_waiters(1));  // idle in poll(keepAliveTime)
  rig.clock.advance(keepAliveTime);
  poolscope::test::await_condition([&] { return p->get_pool_size() == 0; }, "the core thread timed out");
  CHECK(p->get_pool_size() == 0);
  CHECK(inside == 1);
}

// ThreadPoolExecutorTest.java testAllowCoreThreadTimeOut_false (JDK 17 TCK)
TEST_CASE("jsr166 TPE: testAllowCoreThreadTimeOut_false") {
  const Nanos keepAliveTime = SHORT_DELAY_MS;
  Rig rig;
  auto p = make(rig, 2, 10, keepAliveTime, abq(10));
  PoolCleaner cleaner(*p);
  CountDownLatch threadStarted(1);
  p->allow_core_thread_time_out(false);
  p->execute([&] { threadStarted.countDown(); });
  threadStarted.await();
  rig.await_count([](const Event& e) { return e.kind == EventKind::worker_idle; }, 1, "the worker idle");
  rig.clock.advance(2 * keepAliveTime);  // delay(2 * keepAliveTime)
  CHECK(p->get_pool_size() >= 1);
}

// ThreadPoolExecutorTest.java testRejectedRecycledTask (JDK 17 TCK): the
// same task object is executed again after each rejection. C++ tasks are
// move-only, so each attempt gets a copy of the same callable.
TEST_CASE("jsr166 TPE: testRejectedRecycledTask") {
  constexpr int nTasks = 1000;
  Rig rig;
  CountDownLatch done(nTasks);
  auto recycledTask = [&] { done.countDown(); };
  auto p = make(rig, 1, 30, 60s, abq(30));
  PoolCleaner cleaner(*p);
  for (int i = 0; i < nTasks; ++i) {
    for (;;) {
      try {
        p->execute(recycledTask);
        break;
      } catch (const RejectedExecutionException&) {
      }
    }
  }
  done.await();  // upstream: await(done, nTasks * SHORT_DELAY_MS)
}

// ThreadPoolExecutorTest.java testGet_cancelled (JDK 17 TCK)
TEST_CASE("jsr166 TPE: testGet_cancelled") {
  Rig rig;
  CountDownLatch done(1);
  auto e = make(rig, 1, 1, LONG_DELAY_MS, std::make_unique<LinkedBlockingQueue>());
  PoolCleaner cleaner(*e, &done);
  CountDownLatch blockerStarted(1);
  std::vector<Future<void>> futures;
  for (int i = 0; i < 2; i++)
    futures.push_back(e->submit([&] {
      blockerStarted.countDown();
      done.await();
    }));
  blockerStarted.await();
  for (auto& future : futures) future->cancel(false);
  for (auto& future : futures) {
    CHECK_THROWS_AS(future->get(), CancellationException);
    CHECK_THROWS_AS(future->get(LONG_DELAY_MS), CancellationException);
    CHECK(future->is_cancelled());
    CHECK(future->is_done());
  }
}

// ThreadPoolExecutorTest.java testStandardRejectedExecutionHandlers (JDK 17 TCK)
TEST_CASE("jsr166 TPE: testStandardRejectedExecutionHandlers") {
  Rig rig;
  auto p = make(rig, 1, 1, 1s, abq(1));
  std::atomic<std::thread::id> thread{};
  auto task = [&] {
    Runnable r;
    r.fn = [&] { thread = std::this_thread::get_id(); };
    return r;
  };
  Runnable r = task();
  CHECK_THROWS_AS(AbortPolicy().rejected_execution(r, *p), RejectedExecutionException);
  CHECK(thread.load() == std::thread::id{});
  r = task();
  DiscardPolicy().rejected_execution(r, *p);
  CHECK(thread.load() == std::thread::id{});
  r = task();
  CallerRunsPolicy().rejected_execution(r, *p);
  CHECK(thread.load() == std::this_thread::get_id());
  // check that pool was not perturbed by handlers
  CHECK(dynamic_cast<AbortPolicy*>(p->get_rejected_execution_handler().get()) != nullptr);
  CHECK(p->get_task_count() == 0);
  CHECK(p->get_queue().is_empty());
}
