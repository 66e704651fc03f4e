// Keep-alive on a manual clock: which threads time out, when, and how the
// live settings change that.
#include <algorithm>
#include <atomic>
#include <climits>
#include <deque>
#include <mutex>

#include "tests/java/rig.h"

using namespace poolscope;
using namespace poolscope::java;
using namespace poolscope::java::test;

namespace {

// Runs `n` tasks held at `gate` (one thread each on a SynchronousQueue), then
// lets them finish and waits until every thread waits for its next task. The
// caller declares the gate before the executor, which joins the threads that
// pass it; the gate opens even if a REQUIRE here fails.
void grow_then_idle(Rig& rig, ThreadPoolExecutor& e, Gate& gate, int n, std::size_t timedWaiters) {
  OpenOnExit open(gate);
  for (int i = 0; i < n; ++i) REQUIRE(e.execute(gate.task()).accepted());
  gate.await_arrivals(n);
  gate.open();
  rig.await_count(is_kind(EventKind::task_finished), static_cast<std::size_t>(n), "the tasks finished");
  REQUIRE(rig.clock.await_waiters(timedWaiters));
}

}  // namespace

TEST_CASE("java: threads above core time out after keepAliveTime, down to exactly core (jtreg TimeOutShrink)") {
  Rig rig;
  Gate gate;
  auto e = rig.make(4, 8, 1s, std::make_unique<SynchronousQueue>());
  grow_then_idle(rig, *e, gate, 8, 8);  // 8 > core: every thread waits in poll(keepAliveTime)
  CHECK(e->get_pool_size() == 8);
  rig.clock.advance(999ms);
  CHECK(e->get_pool_size() == 8);
  rig.clock.advance(1ms);
  rig.await_count(is_kind(EventKind::worker_exited, kKeepAlive), 4, "4 threads timed out");
  await_condition([&] { return e->get_pool_size() == 4; }, "the pool shrank to core");
  // The 4 left are core threads again: they wait in take(), with no deadline.
  rig.await_count(is_kind(EventKind::worker_idle, kTake), 4, "4 threads wait in take()");
  CHECK(rig.clock.waiters() == 0);
  rig.clock.advance(1h);
  CHECK(e->get_pool_size() == 4);
  CHECK(rig.count(is_kind(EventKind::worker_exited, kKeepAlive)) == 4);
  for (const Event& ev : rig.log.events())
    if (ev.kind == EventKind::worker_reaped) CHECK(ev.arg == Nanos(1s).count());
}

TEST_CASE("java: allowCoreThreadTimeOut lets core threads time out too, down to zero (jtreg CoreThreadTimeOut)") {
  Rig rig;
  Gate gate;
  auto e = rig.make(10, 10, 30ms, std::make_unique<ArrayBlockingQueue>(20));
  e->allow_core_thread_time_out(true);
  CHECK(e->allows_core_thread_time_out());
  grow_then_idle(rig, *e, gate, 10, 10);
  CHECK(e->get_pool_size() == 10);
  rig.clock.advance(30ms);
  rig.await_count(is_kind(EventKind::worker_exited, kCoreTimeOut), 10, "every core thread timed out");
  CHECK(e->get_pool_size() == 0);
  // The pool still works: a new task gets a new core thread.
  e->execute([] {});
  rig.await_count(is_kind(EventKind::task_finished), 11, "a task after the time-out");
  CHECK(e->get_pool_size() == 1);
}

TEST_CASE("java: without allowCoreThreadTimeOut, core threads never time out (TCK)") {
  Rig rig;
  auto e = rig.make(2, 10, 10ms, std::make_unique<LinkedBlockingQueue>());
  CHECK_FALSE(e->allows_core_thread_time_out());
  e->execute([] {});
  await_event(rig.log, is_kind(EventKind::worker_idle, kTake), "the core thread waits in take()");
  CHECK(rig.clock.waiters() == 0);
  rig.clock.advance(1h);
  CHECK(e->get_pool_size() == 1);
}

namespace {

// A LinkedBlockingQueue-like queue for one test: armed with a task, it
// queues that task just as a timed poll gives up, so the worker finds its
// poll timed out and the queue not empty.
class LateTaskQueue final : public BlockingQueue {
 public:
  void arm(Runnable r) {
    std::lock_guard g(m_);
    late_ = std::move(r);
  }
  bool offer(Runnable& r) override {
    std::lock_guard g(m_);
    q_.push_back(std::move(r));
    enqueued(q_.back(), kNoLabel, q_.size());
    cv_.notify_one();
    return true;
  }
  Runnable take(InterruptFlag& self) override {
    std::unique_lock g(m_);
    while (q_.empty()) await(cv_, g, self);
    return pop();
  }
  Runnable poll(Time deadline, InterruptFlag& self) override {
    std::unique_lock g(m_);
    while (q_.empty()) {
      if (clock().now() >= deadline) {
        if (late_) {
          q_.push_back(std::move(late_));
          enqueued(q_.back(), kNoLabel, q_.size());
          late_ = {};
        }
        return {};
      }
      await_until(cv_, g, clock(), deadline, self);
    }
    return pop();
  }
  Runnable poll() override {
    std::lock_guard g(m_);
    return q_.empty() ? Runnable{} : pop();
  }
  Runnable remove(TaskId) override { return {}; }
  int remaining_capacity() const override { return INT_MAX; }
  TaskId peek() const override {
    std::lock_guard g(m_);
    return q_.empty() ? 0 : q_.front().id;
  }
  void for_each(const std::function<void(const Runnable&)>& f) const override {
    std::lock_guard g(m_);
    for (const Runnable& r : q_) f(r);
  }
  bool contains(TaskId task) const override {
    std::lock_guard g(m_);
    return std::any_of(q_.begin(), q_.end(), [&](const Runnable& r) { return r.id == task; });
  }
  std::vector<Runnable> drain_to() override {
    std::lock_guard g(m_);
    std::vector<Runnable> out;
    while (!q_.empty()) out.push_back(pop());
    return out;
  }
  std::size_t size() const override {
    std::lock_guard g(m_);
    return q_.size();
  }
  void wake_takers() override {
    std::lock_guard g(m_);
    cv_.notify_all();
  }

 private:
  Runnable pop() {
    Runnable r = std::move(q_.front());
    q_.pop_front();
    return r;
  }
  mutable std::mutex m_;
  CondVar cv_;
  std::deque<Runnable> q_;
  Runnable late_;
};

}  // namespace

TEST_CASE("java: the last thread does not time out while tasks wait in the queue (getTask)") {
  Rig rig;
  auto queue = std::make_unique<LateTaskQueue>();
  LateTaskQueue& q = *queue;
  auto e = rig.make(0, 1, 10s, std::move(queue));
  e->execute([] {});
  await_event(rig.log, is_kind(EventKind::task_finished), "the first task ran");
  REQUIRE(rig.clock.await_waiters(1));  // the only thread waits in poll(keepAliveTime)
  std::atomic<bool> lateRan{false};
  q.arm(Runnable{{e->trace().submitted(), [&] { lateRan = true; }}});
  rig.clock.advance(10s);  // the poll times out, and a task arrives just then
  await_condition([&] { return lateRan.load(); }, "the late task ran");
  CHECK(rig.count(is_kind(EventKind::worker_reaped)) == 0);
  CHECK(rig.count(is_kind(EventKind::worker_spawned)) == 1);  // the same thread ran it
  // With the queue empty, the next time-out ends the thread.
  REQUIRE(rig.clock.await_waiters(1));
  rig.clock.advance(10s);
  await_event(rig.log, is_kind(EventKind::worker_exited, kKeepAlive), "the thread timed out");
  CHECK(e->get_pool_size() == 0);
}

TEST_CASE("java: a shorter keepAliveTime wakes idle threads, which wait again with it (jtreg ConfigChanges)") {
  Rig rig;
  Gate gate;
  auto e = rig.make(1, 2, 60s, std::make_unique<SynchronousQueue>());
  grow_then_idle(rig, *e, gate, 2, 2);
  std::size_t idleBefore = rig.count(is_kind(EventKind::worker_idle, kPoll));
  e->set_keep_alive_time(5s);
  CHECK(e->get_keep_alive_time() == 5s);
  rig.await_count(is_kind(EventKind::worker_idle, kPoll), idleBefore + 2, "both threads wait again");
  REQUIRE(rig.clock.await_waiters(2));
  rig.clock.advance(5s);
  await_event(rig.log, is_kind(EventKind::worker_exited, kKeepAlive), "one thread timed out after 5s");
  await_condition([&] { return e->get_pool_size() == 1; }, "back to core");
  CHECK(rig.count(is_kind(EventKind::param_tuned, kKeepAliveTime)) == 1);
}

TEST_CASE("java: a lower core size lets the excess idle threads time out (jtreg ModifyCorePoolSize)") {
  Rig rig;
  auto e = rig.make(3, 3, 10s, std::make_unique<LinkedBlockingQueue>());
  for (int i = 0; i < 3; ++i) e->execute([] {});
  rig.await_count(is_kind(EventKind::worker_idle, kTake), 3, "3 core threads wait in take()");
  e->set_core_pool_size(1);
  CHECK(e->get_core_pool_size() == 1);
  REQUIRE(rig.clock.await_waiters(3));  // interrupted, they now wait with keepAliveTime
  rig.clock.advance(10s);
  rig.await_count(is_kind(EventKind::worker_exited, kKeepAlive), 2, "2 threads timed out");
  await_condition([&] { return e->get_pool_size() == 1; }, "the pool is down to the new core");
}

TEST_CASE("java: a higher core size starts threads for the queued tasks") {
  Rig rig;
  Gate gate;
  auto e = rig.make(1, 4, 10s, std::make_unique<LinkedBlockingQueue>());
  OpenOnExit open(gate);
  for (int i = 0; i < 4; ++i) e->execute(gate.task());  // 1 running, 3 queued
  CHECK(e->get_queue().size() == 3);
  e->set_core_pool_size(3);  // +2: two threads, each for a queued task
  CHECK(e->get_pool_size() == 3);
  CHECK(rig.count(is_kind(EventKind::worker_spawned, kCoreSizeGrew)) == 2);
  gate.await_arrivals(3);
  CHECK(e->get_queue().size() == 1);
}

TEST_CASE("java: a lower maximum makes the excess idle threads exit at once") {
  Rig rig;
  Gate gate;
  auto e = rig.make(1, 3, 60s, std::make_unique<SynchronousQueue>());
  grow_then_idle(rig, *e, gate, 3, 3);
  e->set_maximum_pool_size(1);
  CHECK(e->get_maximum_pool_size() == 1);
  rig.await_count(is_kind(EventKind::worker_exited, kOverMaximum), 2, "2 threads over the maximum exited");
  await_condition([&] { return e->get_pool_size() == 1; }, "one thread left");
}

TEST_CASE("java: allowCoreThreadTimeOut(true) wakes idle core threads, which then time out") {
  Rig rig;
  auto e = rig.make(2, 2, 10s, std::make_unique<LinkedBlockingQueue>());
  e->execute([] {});
  e->execute([] {});
  rig.await_count(is_kind(EventKind::worker_idle, kTake), 2, "2 core threads wait in take()");
  e->allow_core_thread_time_out(true);
  REQUIRE(rig.clock.await_waiters(2));
  rig.clock.advance(10s);
  rig.await_count(is_kind(EventKind::worker_exited, kCoreTimeOut), 2, "both timed out");
  CHECK(e->get_pool_size() == 0);
}
