// pkg/sync/spinlock.go has benchmarks only; these check what the pool relies
// on: mutual exclusion, and a condition variable waiting on the lock.
#include "pools/ants/spinlock.h"

#include <mutex>
#include <vector>

#include "pools/ants/cond.h"
#include "pools/core/thread.h"
#include "tests/support/sync.h"

using namespace poolscope;
using namespace poolscope::ants;
using poolscope::test::await_condition;

TEST_CASE("ants spin lock: threads incrementing under it lose no update") {
  SpinLock lock;
  long counter = 0;  // plain: only the lock protects it
  std::vector<Thread> threads;
  for (int t = 0; t < 4; ++t)
    threads.emplace_back("spinner", [&] {
      for (int i = 0; i < 20000; ++i) {
        std::lock_guard g(lock);
        ++counter;
      }
    });
  for (Thread& t : threads) t.join();
  CHECK(counter == 80000);
}

TEST_CASE("ants cond: Wait releases the spin lock, Signal wakes one waiter, Broadcast all") {
  SpinLock lock;
  Cond cond;
  int tickets = 0;
  std::atomic<int> woke{0};
  std::vector<Thread> waiters;
  for (int t = 0; t < 3; ++t)
    waiters.emplace_back("waiter", [&] {
      std::unique_lock g(lock);
      while (tickets == 0) cond.Wait(g);
      --tickets;
      ++woke;
    });
  // Nothing to take yet: a waiter this wakes re-checks `tickets` and sleeps again.
  cond.Signal();
  {
    std::lock_guard g(lock);
    tickets = 1;
  }
  cond.Signal();
  await_condition([&] { return woke == 1; }, "one waiter woke");
  {
    std::lock_guard g(lock);
    tickets = 2;
  }
  cond.Broadcast();
  for (Thread& t : waiters) t.join();
  CHECK(woke == 3);
}
