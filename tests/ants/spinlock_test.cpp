// pkg/sync/spinlock.go has benchmarks only; these check what the pool relies
// on: mutual exclusion, and a condition variable waiting on the lock.
#include "pools/ants/spinlock.h"

#include <atomic>
#include <mutex>
#include <string>
#include <vector>

#include "pools/core/go/cond.h"
#include "pools/core/thread.h"
#include "tests/ants/rig.h"
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

TEST_CASE("ants cond: Wait releases the spin lock, Signal wakes exactly one waiter, Broadcast all") {
  SpinLock lock;
  go::Cond<SpinLock> cond{lock};         // sync.NewCond(p.lock)
  int tickets = 0;                       // guarded by lock
  std::atomic<int> wakeups{0}, took{0};  // returns from Wait; waiters that took a ticket
  std::vector<ants::test::BoundedThread> waiters;
  for (int t = 0; t < 3; ++t)
    waiters.emplace_back("waiter", [&] {
      std::unique_lock g(lock);
      while (tickets == 0) {
        cond.Wait();  // g holds cond.L
        ++wakeups;
      }
      --tickets;
      ++took;
    });
  auto await_parked = [&](int n) {
    await_condition([&] { return cond.parked() == n; }, std::to_string(n) + " waiters parked");
  };
  await_parked(3);  // all asleep: Wait let the lock go

  // Nothing to take yet: the one waiter this wakes re-checks and sleeps again.
  cond.Signal();
  CHECK(cond.parked() == 2);  // Signal picked exactly one, at once
  await_parked(3);
  CHECK(wakeups == 1);
  CHECK(took == 0);

  {
    std::lock_guard g(lock);
    tickets = 1;
  }
  cond.Signal();
  CHECK(cond.parked() == 2);
  await_condition([&] { return took == 1; }, "one waiter took the ticket");
  CHECK(wakeups == 2);
  CHECK(cond.parked() == 2);  // the other two still asleep: nothing woke them

  {
    std::lock_guard g(lock);
    tickets = 2;
  }
  cond.Broadcast();
  CHECK(cond.parked() == 0);  // Broadcast picked both
  await_condition([&] { return took == 3; }, "both took a ticket");
  for (ants::test::BoundedThread& t : waiters) t.join();
  CHECK(wakeups == 4);
}

TEST_CASE("ants cond: a Signal after the ticket wakes the waiter even if it comes before Wait") {
  SpinLock lock;
  go::Cond<SpinLock> cond{lock};
  std::unique_lock g(lock);
  const auto ticket = cond.ticket();
  cond.Signal();      // nobody parked yet: only the count moves
  cond.Wait(ticket);  // returns at once instead of sleeping
  CHECK(g.owns_lock());
  CHECK(cond.parked() == 0);
}
