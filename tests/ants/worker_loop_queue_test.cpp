// worker_loop_queue_test.go, on explicit times instead of time.Now() and sleeps.
#include "pools/ants/worker_loop_queue.h"

#include <deque>
#include <vector>

#include <catch2/catch.hpp>

#include "tests/ants/fake_worker.h"

using namespace poolscope;
using namespace poolscope::ants;
using namespace poolscope::ants::test;
using namespace std::chrono_literals;

namespace {
std::vector<Worker*> list(std::span<Worker* const> s) { return {s.begin(), s.end()}; }
}  // namespace

TEST_CASE("ants loop queue: a new ring is empty, and a ring of 0 slots is not made (TestNewLoopQueue)") {
  auto q = newWorkerLoopQueue(100);
  REQUIRE(q);
  CHECK(q->len() == 0);
  CHECK(q->isEmpty());
  CHECK(q->detach() == nullptr);
  CHECK(newWorkerLoopQueue(0) == nullptr);
}

TEST_CASE("ants loop queue: FIFO, full at size, and refresh drops the stale head (TestLoopQueue)") {
  auto q = newWorkerLoopQueue(10);
  std::deque<FakeWorker> workers;
  for (int i = 0; i < 5; ++i) CHECK_FALSE(q->insert(&workers.emplace_back(t(0))));
  CHECK(q->len() == 5);
  CHECK(q->detach() == &workers[0]);  // the least recently used goes first
  CHECK(q->len() == 4);

  for (int i = 0; i < 6; ++i) CHECK_FALSE(q->insert(&workers.emplace_back(t(1))));
  CHECK(q->len() == 10);
  FakeWorker extra(t(1));
  CHECK(q->insert(&extra) == errQueueIsFull);

  CHECK(q->refresh(1s, t(1)).size() == 4);
  CHECK(q->len() == 6);
}

TEST_CASE("ants loop queue: the binary search maps positions from the head across the wrap (TestRotatedQueueSearch)") {
  auto q = newWorkerLoopQueue(10);
  std::deque<FakeWorker> workers;
  auto insert = [&](Time at) { return q->insert(&workers.emplace_back(at)); };

  // 1
  const Time expiry1 = t(0);
  insert(t(1));
  CHECK(q->binarySearch(t(2)) == 0);
  CHECK(q->binarySearch(expiry1) == -1);

  // 2
  const Time expiry2 = t(2);
  insert(t(3));
  CHECK(q->binarySearch(expiry1) == -1);
  CHECK(q->binarySearch(expiry2) == 0);
  CHECK(q->binarySearch(t(4)) == 1);

  // more, until full: slots 0..9 hold t1, t3, t5..t9, t10 (expiry3), t11, t12
  for (int i = 5; i < 10; ++i) insert(t(i));
  const Time expiry3 = t(10);
  insert(expiry3);
  int next = 11;
  while (insert(t(next)) != errQueueIsFull) ++next;
  CHECK(next == 13);
  CHECK(q->binarySearch(expiry3) == 7);

  // rotate: head = 6, tail = 5
  //   [expiry4, t14, t15, t16, t17, -/tail, t9/head, t10, t11, t12]
  for (int i = 0; i < 6; ++i) q->detach();
  const Time expiry4 = t(13);
  insert(expiry4);
  for (int i = 14; i < 18; ++i) insert(t(i));
  CHECK(q->binarySearch(expiry4) == 0);

  // head = 9, tail = 6
  //   [expiry4, t14, t15, t16, t17, expiry5, -/tail, -, -, t12/head]
  for (int i = 0; i < 3; ++i) q->detach();
  const Time expiry5 = t(18);
  insert(expiry5);
  CHECK(q->binarySearch(expiry5) == 5);

  // head = tail = 9, full
  //   [expiry4, t14, t15, t16, t17, expiry5, t19, t20, t21, t12/head/tail]
  for (int i = 19; i < 22; ++i) insert(t(i));
  CHECK(q->binarySearch(expiry2) == -1);
  CHECK(q->binarySearch(t(12)) == 9);
  CHECK(q->binarySearch(t(22)) == 8);
}

TEST_CASE("ants loop queue: refresh returns exactly the stale run, wrapped or not (TestRetrieveExpiry)") {
  const int size = 10;
  auto q = newWorkerLoopQueue(size);
  std::vector<FakeWorker> workers(25);
  int made = 0;
  auto insert = [&](Time at) {
    FakeWorker& w = workers[static_cast<std::size_t>(made++)];
    w.setLastUsedTime(at);
    q->insert(&w);
    return static_cast<Worker*>(&w);
  };

  // [t0 x5, t1 x5]: the first half is stale at t1.
  std::vector<Worker*> expected;
  for (int i = 0; i < size / 2; ++i) expected.push_back(insert(t(0)));
  std::vector<Worker*> fresh;
  for (int i = 0; i < size / 2; ++i) fresh.push_back(insert(t(1)));
  CHECK(list(q->refresh(1s, t(1))) == expected);

  // [t2 x5, t1 x5], head at 5: the second half is stale at t2.
  for (int i = 0; i < size / 2; ++i) insert(t(2));
  CHECK(list(q->refresh(1s, t(2))) == fresh);

  // [t2 x3, -, -, t2 x5] with the head at 5: everything is stale at t3, and
  // Go returns slots 0..2 first, then 5..9.
  std::vector<Worker*> back;
  for (int i = 0; i < size / 2; ++i) back.push_back(insert(t(2)));
  for (int i = 0; i < size / 2; ++i) q->detach();
  std::vector<Worker*> front;
  for (int i = 0; i < 3; ++i) front.push_back(insert(t(2)));
  expected = front;
  expected.insert(expected.end(), back.begin(), back.end());
  CHECK(list(q->refresh(1s, t(3))) == expected);
  CHECK(q->isEmpty());
}

TEST_CASE("ants loop queue: reset stops every idle worker and keeps the ring usable (v2.11.2, reboot)") {
  auto q = newWorkerLoopQueue(3);
  FakeWorker a, b, c;
  q->insert(&a);
  q->insert(&b);
  q->reset();
  CHECK(a.finished);
  CHECK(b.finished);
  CHECK(q->isEmpty());
  for (Worker* w : {&a, &b, &c}) CHECK_FALSE(q->insert(w));
  CHECK(q->len() == 3);
}
