// The work queues on their own: order, capacity, removal, timed polls on a
// manual clock, and interrupts.
#include <atomic>

#include "tests/java/rig.h"

using namespace poolscope;
using namespace poolscope::java;
using namespace poolscope::java::test;

namespace {

Runnable task(TaskId id, int priority = 0) {
  return Runnable{{id, [] {}}, priority};
}

bool offer(BlockingQueue& q, TaskId id, int priority = 0) {
  Runnable r = task(id, priority);
  return q.offer(r);
}

std::vector<TaskId> ids(std::vector<Runnable> rs) {
  std::vector<TaskId> out;
  for (const Runnable& r : rs) out.push_back(r.id);
  return out;
}

std::vector<std::unique_ptr<BlockingQueue>> every_queue() {
  std::vector<std::unique_ptr<BlockingQueue>> qs;
  qs.push_back(std::make_unique<ArrayBlockingQueue>(1));
  qs.push_back(std::make_unique<LinkedBlockingQueue>());
  qs.push_back(std::make_unique<PriorityBlockingQueue>());
  qs.push_back(std::make_unique<SynchronousQueue>());
  return qs;
}

// A queue bound to a manual clock.
struct Bound {
  ManualClock clock;
  PoolTrace trace{{.clock = &clock}, "test"};
  explicit Bound(BlockingQueue& q) { q.bind(trace); }
};

}  // namespace

TEST_CASE("java queues: ArrayBlockingQueue is a bounded FIFO") {
  ArrayBlockingQueue q(3);
  for (TaskId id : {1, 2, 3}) CHECK(offer(q, id));
  Runnable refused = task(4);
  CHECK_FALSE(q.offer(refused));
  CHECK(refused);  // a refused task stays with the caller
  CHECK(q.poll().id == 1);
  CHECK(offer(q, 4));  // the ring wraps
  CHECK(q.contains(4));
  CHECK_FALSE(q.contains(1));
  CHECK(q.remove(3).id == 3);
  CHECK_FALSE(q.contains(3));
  CHECK_FALSE(q.remove(3));
  CHECK(ids(q.drain_to()) == std::vector<TaskId>{2, 4});
  CHECK(q.is_empty());
}

TEST_CASE("java queues: LinkedBlockingQueue is a FIFO, bounded only if asked") {
  LinkedBlockingQueue unbounded;
  for (TaskId id = 1; id <= 1000; ++id) REQUIRE(offer(unbounded, id));
  CHECK(unbounded.size() == 1000);
  CHECK(unbounded.contains(1000));
  CHECK(unbounded.remove(1000).id == 1000);  // the last node
  CHECK_FALSE(unbounded.contains(1000));
  CHECK(offer(unbounded, 1001));  // appends after the new last
  CHECK(unbounded.contains(1001));
  CHECK(unbounded.poll().id == 1);
  std::vector<TaskId> rest = ids(unbounded.drain_to());
  CHECK(rest.size() == 999);
  CHECK(rest.front() == 2);
  CHECK(rest.back() == 1001);

  LinkedBlockingQueue bounded(2);
  CHECK(offer(bounded, 1));
  CHECK(offer(bounded, 2));
  CHECK_FALSE(offer(bounded, 3));
}

TEST_CASE("java queues: PriorityBlockingQueue gives the highest priority first") {
  PriorityBlockingQueue q;
  TaskId id = 1;
  for (int p : {3, 9, 1, 7, 5}) CHECK(offer(q, id++, p));
  CHECK(q.poll().priority == 9);
  CHECK(q.contains(4));
  CHECK_FALSE(q.contains(2));  // the 9, polled
  CHECK(q.remove(4).priority == 7);
  std::vector<Runnable> rest = q.drain_to();
  REQUIRE(rest.size() == 3);
  CHECK(rest[0].priority == 5);
  CHECK(rest[1].priority == 3);
  CHECK(rest[2].priority == 1);
}

TEST_CASE("java queues: a SynchronousQueue takes a task only when someone waits for it") {
  SynchronousQueue q;
  Bound b(q);
  CHECK_FALSE(offer(q, 1));
  CHECK(q.size() == 0);
  CHECK_FALSE(q.contains(1));
  InterruptFlag self;
  Runnable got;
  Thread taker("taker", [&] { got = q.take(self); });
  Runnable r = task(2);
  await_condition([&] { return q.offer(r); }, "the taker waits");
  taker.join();
  CHECK(got.id == 2);
  CHECK_FALSE(offer(q, 3));
}

TEST_CASE("java queues: a timed poll returns null exactly at its deadline on the pool's clock") {
  for (auto& q : every_queue()) {
    Bound b(*q);
    InterruptFlag self;
    std::atomic<bool> done{false};
    Runnable got = task(99);
    Thread poller("poller", [&] {
      got = q->poll(Time(5s), self);
      done = true;
    });
    REQUIRE(b.clock.await_waiters(1));
    b.clock.advance(4s);
    CHECK_FALSE(done);
    b.clock.advance(1s);
    poller.join();
    CHECK_FALSE(got);
  }
}

TEST_CASE("java queues: an interrupt wakes a waiting taker with InterruptedException") {
  for (auto& q : every_queue()) {
    Bound b(*q);
    InterruptFlag self;
    std::atomic<bool> interrupted{false}, waiting{false};
    Thread taker("taker", [&] {
      try {
        waiting = true;
        q->take(self);
      } catch (const InterruptedException&) {
        interrupted = true;
      }
    });
    await_condition([&] { return waiting.load(); }, "the taker started");
    self.set();
    await_condition(
        [&] {
          q->wake_takers();
          return interrupted.load();
        },
        "the interrupted taker gave up");
    taker.join();
    CHECK_FALSE(self.is_set());  // InterruptedException clears the status
  }
}
