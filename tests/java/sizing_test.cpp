// The classic lessons of ThreadPoolExecutor's sizing: execute's three steps
// against each kind of work queue.
#include <atomic>
#include <mutex>
#include <thread>
#include <vector>

#include "tests/java/rig.h"

using namespace poolscope;
using namespace poolscope::java;
using namespace poolscope::java::test;

TEST_CASE("java: an unbounded LinkedBlockingQueue never lets the pool grow past core") {
  Rig rig;
  Gate gate;
  auto e = rig.make(2, 10, 60s, std::make_unique<LinkedBlockingQueue>());
  OpenOnExit open(gate);
  for (int i = 0; i < 10; ++i) CHECK(e->execute(gate.task()).accepted());
  CHECK(e->get_pool_size() == 2);
  CHECK(e->get_queue().size() == 8);
  gate.open();
  e->close();
  CHECK(e->get_completed_task_count() == 10);
  CHECK(e->get_largest_pool_size() == 2);
  CHECK(rig.count(is_kind(EventKind::worker_spawned, kCoreWorker)) == 2);
  CHECK(rig.count(is_kind(EventKind::worker_spawned)) == 2);
}

TEST_CASE("java: a bounded queue grows the pool past core only when it is full, then rejects") {
  Rig rig;
  Gate gate;
  auto e = rig.make(1, 3, 60s, std::make_unique<ArrayBlockingQueue>(2));
  OpenOnExit open(gate);
  auto step = [&](int pool, std::size_t queued) {
    CHECK(e->execute(gate.task()).accepted());
    CHECK(e->get_pool_size() == pool);
    CHECK(e->get_queue().size() == queued);
  };
  step(1, 0);  // a core thread
  step(1, 1);  // core is full: queued
  step(1, 2);
  step(2, 2);  // the queue is full: a thread beyond core
  step(3, 2);
  CHECK_THROWS_AS(e->execute(gate.task()), RejectedExecutionException);  // saturated
  CHECK(e->get_pool_size() == 3);
  CHECK(rig.count(is_kind(EventKind::worker_spawned, kCoreWorker)) == 1);
  CHECK(rig.count(is_kind(EventKind::worker_spawned, kQueueFullGrow)) == 2);
  CHECK(rig.count(is_kind(EventKind::task_refused, kRejected)) == 1);
  gate.open();
  e->close();
  CHECK(e->get_completed_task_count() == 5);
  CHECK(e->trace().accounting().balanced());
}

TEST_CASE("java: a SynchronousQueue grows to the maximum, then hands tasks to the thread that went idle last") {
  Rig rig;
  Gate gates[3];
  auto e = rig.make(0, 3, 60s, std::make_unique<SynchronousQueue>());
  OpenOnExit open0(gates[0]), open1(gates[1]), open2(gates[2]);
  for (Gate& g : gates) CHECK(e->execute(g.task()).accepted());  // no idle taker: a new thread each time
  CHECK(e->get_pool_size() == 3);
  CHECK(rig.count(is_kind(EventKind::worker_spawned, kQueueFullGrow)) == 3);
  CHECK_THROWS_AS(e->execute([] {}), RejectedExecutionException);
  CHECK(e->get_queue().size() == 0);

  // Let the workers go idle one at a time: each waits in poll(keepAliveTime).
  for (std::size_t i = 0; i < 3; ++i) {
    gates[i].open();
    REQUIRE(rig.clock.await_waiters(i + 1));
  }
  std::atomic<bool> ran{false};
  CHECK(e->execute([&] { ran = true; }).accepted());
  Event handoff = await_event(rig.log, task_event(EventKind::task_handoff, 5), "the hand-off of task 5");
  CHECK(handoff.rule == kPoll);
  CHECK(handoff.arg == 0);  // never queued
  // Java's non-fair SynchronousQueue is a stack: the last thread to wait, the one that ran task 3, gets it.
  rig.log.sync();
  WorkerId ranThird = 0;
  for (const Event& ev : rig.log.events())
    if (ev.kind == EventKind::task_started && ev.task == 3) ranThird = ev.worker;
  CHECK(handoff.worker == ranThird);
  e->close();
  CHECK(ran);
  CHECK(e->get_largest_pool_size() == 3);
}

TEST_CASE("java: execute starts a new core thread even while another one is idle") {
  Rig rig;
  auto e = rig.make(2, 2, 60s, std::make_unique<LinkedBlockingQueue>());
  e->execute([] {});
  await_event(rig.log, is_kind(EventKind::worker_idle, kTake), "worker 1 waits in take()");
  e->execute([] {});
  CHECK(e->get_pool_size() == 2);
  CHECK(rig.count(is_kind(EventKind::worker_spawned, kCoreWorker)) == 2);
}

TEST_CASE("java: a PriorityBlockingQueue runs the highest priority first and never grows past core") {
  Rig rig;
  Gate gate;
  auto e = rig.make(1, 4, 60s, std::make_unique<PriorityBlockingQueue>());
  OpenOnExit open(gate);
  std::mutex m;
  std::vector<int> order;
  e->execute(gate.task());
  for (int p : {1, 5, 3, 4, 2})
    e->execute(
        [&, p] {
          std::lock_guard g(m);
          order.push_back(p);
        },
        p);
  CHECK(e->get_pool_size() == 1);
  CHECK(e->get_queue().size() == 5);
  gate.open();
  e->close();
  CHECK(order == std::vector<int>{5, 4, 3, 2, 1});
}

TEST_CASE("java: with core 0, a queued task still gets a thread (execute's re-check)") {
  Rig rig;
  auto e = rig.make(0, 1, 60s, std::make_unique<LinkedBlockingQueue>());
  std::atomic<bool> ran{false};
  e->execute([&] { ran = true; });
  await_event(rig.log, is_kind(EventKind::task_finished), "the task ran");
  CHECK(ran);
  CHECK(rig.count(is_kind(EventKind::worker_spawned, kNoWorkerRecheck)) == 1);
  CHECK(rig.count(is_kind(EventKind::task_queued)) == 1);
}

TEST_CASE("java: pool size, active count, largest size and task counts (TCK getters)") {
  Rig rig;
  Gate gate;
  auto e = rig.make(3, 3, 60s, std::make_unique<LinkedBlockingQueue>());
  OpenOnExit open(gate);
  CHECK(e->get_pool_size() == 0);
  CHECK(e->get_active_count() == 0);
  CHECK(e->get_task_count() == 0);
  e->execute(gate.task());
  gate.await_arrivals(1);
  CHECK(e->get_pool_size() == 1);
  CHECK(e->get_active_count() == 1);
  CHECK(e->get_completed_task_count() == 0);
  e->execute(gate.task());
  e->execute(gate.task());
  for (int i = 0; i < 3; ++i) e->execute(gate.task());  // 3 running, 3 queued
  gate.await_arrivals(3);
  CHECK(e->get_largest_pool_size() == 3);
  CHECK(e->get_task_count() == 6);
  CHECK(e->get_queue().size() == 3);
  CHECK_FALSE(e->remove(1));  // running: not in the queue
  CHECK(e->remove(5));
  CHECK_FALSE(e->remove(5));
  CHECK(rig.count(is_kind(EventKind::task_dropped, kRemoved)) == 1);
  gate.open();
  e->close();
  CHECK(e->get_completed_task_count() == 5);
  CHECK(e->get_task_count() == 5);
  CHECK(e->get_largest_pool_size() == 3);
  CHECK(e->get_pool_size() == 0);
  CHECK(e->to_string() == "[Terminated, pool size = 0, active threads = 0, queued tasks = 0, completed tasks = 5]");
}

TEST_CASE("java: a higher maximum lets a saturated pool grow again (jtreg ConfigChanges)") {
  Rig rig;
  Gate gate;
  auto e = rig.make(1, 2, 60s, std::make_unique<ArrayBlockingQueue>(1));
  OpenOnExit open(gate);
  for (int i = 0; i < 3; ++i) CHECK(e->execute(gate.task()).accepted());  // a core thread, queued, a second thread
  CHECK(e->get_pool_size() == 2);
  CHECK_THROWS_AS(e->execute(gate.task()), RejectedExecutionException);  // saturated at the maximum
  e->set_maximum_pool_size(3);
  CHECK(e->get_maximum_pool_size() == 3);
  CHECK(rig.count(is_kind(EventKind::param_tuned, kMaximumPoolSize)) == 1);
  CHECK(e->execute(gate.task()).accepted());  // the queue is still full: a third thread
  CHECK(e->get_pool_size() == 3);
  CHECK(rig.count(is_kind(EventKind::worker_spawned, kQueueFullGrow)) == 2);
  CHECK(rig.count([](const Event& ev) {
    return ev.kind == EventKind::task_handoff && ev.task == 5 && ev.rule == kFirstTask;  // the new thread's first
  }) == 1);
  gate.open();
  e->close();
  CHECK(e->get_completed_task_count() == 4);
  CHECK(e->get_largest_pool_size() == 3);
  CHECK(e->trace().accounting().balanced());
}

TEST_CASE("java: getQueue holds the queued tasks, not the running one (TCK testGetQueue)") {
  Rig rig;
  Gate gate;
  auto queue = std::make_unique<ArrayBlockingQueue>(10);
  const BlockingQueue* q = queue.get();
  auto e = rig.make(1, 1, 60s, std::move(queue));
  OpenOnExit open(gate);
  for (int i = 0; i < 5; ++i) e->execute(gate.task());  // tasks 1 to 5
  gate.await_arrivals(1);
  CHECK(&e->get_queue() == q);
  CHECK_FALSE(q->contains(1));  // running
  for (TaskId id = 2; id <= 5; ++id) CHECK(q->contains(id));
  CHECK(q->size() == 4);
  gate.open();
  e->close();
  CHECK(q->size() == 0);
}
