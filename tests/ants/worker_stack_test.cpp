// worker_stack_test.go, on explicit times instead of time.Now() and sleeps.
#include "pools/ants/worker_stack.h"

#include <deque>

#include <catch2/catch.hpp>

#include "tests/ants/fake_worker.h"

using namespace poolscope;
using namespace poolscope::ants;
using namespace poolscope::ants::test;
using namespace std::chrono_literals;

TEST_CASE("ants worker stack: a new stack is empty (TestNewWorkerStack)") {
  WorkerStack q(100);
  CHECK(q.len() == 0);
  CHECK(q.isEmpty());
  CHECK(q.detach() == nullptr);
  CHECK(q.refresh(1s, t(10)).empty());
}

TEST_CASE("ants worker stack: detach pops the most recently inserted worker (LIFO)") {
  WorkerStack q(0);
  FakeWorker a(t(1)), b(t(2)), c(t(3));
  for (Worker* w : {&a, &b, &c}) CHECK_FALSE(q.insert(w));
  CHECK(q.detach() == &c);
  CHECK(q.detach() == &b);
  CHECK(q.insert(&c) == std::error_code{});
  CHECK(q.detach() == &c);
  CHECK(q.detach() == &a);
  CHECK(q.detach() == nullptr);
}

TEST_CASE("ants worker stack: refresh removes the workers idle since now - duration or earlier (TestWorkerStack)") {
  WorkerStack q(0);
  std::deque<FakeWorker> workers;
  for (int i = 0; i < 6; ++i) q.insert(&workers.emplace_back(t(0)));  // 5 old, then `expired`, at the same time
  for (int i = 0; i < 6; ++i) q.insert(&workers.emplace_back(t(1)));  // "one second later"
  CHECK(q.len() == 12);

  // One nanosecond too early: nothing is idle for a full second yet.
  CHECK(q.refresh(1s, t(1) - Nanos(1)).empty());
  CHECK(q.len() == 12);

  // lastUsed <= now - duration is stale: the boundary counts.
  auto stale = q.refresh(1s, t(1));
  REQUIRE(stale.size() == 6);
  for (std::size_t i = 0; i < 6; ++i) CHECK(stale[i] == &workers[i]);
  CHECK(q.len() == 6);
  // The fresh half moved to the front, oldest first.
  CHECK(q.detach() == &workers[11]);
}

TEST_CASE("ants worker stack: the binary search finds the last worker not used after the expiry time (TestSearch)") {
  WorkerStack q(0);
  std::deque<FakeWorker> workers;
  auto insert = [&](Time at) { q.insert(&workers.emplace_back(at)); };
  auto search = [&](Time expiry) { return q.binarySearch(0, q.len() - 1, expiry); };

  // 1
  const Time expiry1 = t(0);
  insert(t(1));
  CHECK(search(t(2)) == 0);
  CHECK(search(expiry1) == -1);

  // 2
  const Time expiry2 = t(2);
  insert(t(3));
  CHECK(search(expiry1) == -1);
  CHECK(search(expiry2) == 0);
  CHECK(search(t(4)) == 1);

  // more
  for (int i = 5; i < 10; ++i) insert(t(i));
  const Time expiry3 = t(10);
  insert(expiry3);
  for (int i = 11; i < 21; ++i) insert(t(i));
  CHECK(search(expiry3) == 7);
}

TEST_CASE("ants worker stack: reset sends every idle worker the exit signal") {
  WorkerStack q(0);
  FakeWorker a, b;
  q.insert(&a);
  q.insert(&b);
  q.reset();
  CHECK(a.finished);
  CHECK(b.finished);
  CHECK(q.isEmpty());
}
