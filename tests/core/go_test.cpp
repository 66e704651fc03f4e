// pools/core/go: Go's channels, select, GOMAXPROCS, timers, sync.Once and a
// WaitGroup of threads, each checked against what the Go spec and runtime promise. Every
// wait is on an event (a blocked thread, a latch), never on the wall clock.
#include <atomic>
#include <cstdlib>
#include <latch>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include <catch2/catch.hpp>

#include "pools/core/go/chan.h"
#include "pools/core/go/mutex.h"
#include "pools/core/go/once.h"
#include "pools/core/go/select.h"
#include "pools/core/go/thread_group.h"
#include "pools/core/go/time.h"
#include "tests/support/sync.h"

using namespace poolscope;
using namespace std::chrono_literals;
using test::await_blocked;
using test::await_condition;
using test::current_tid;

namespace {
// Runs `f` on its own thread and records its id, so a test can wait for it
// to block in the call under test.
class Goroutine {
 public:
  template <class F>
  explicit Goroutine(F f)
      : t_([this, f = std::move(f)]() mutable {
          tid_ = current_tid();
          f();
          done_ = true;
        }) {}
  ~Goroutine() { join(); }
  void await_blocked(const std::string& what) {
    await_condition([&] { return tid_.load() != 0; }, "the goroutine started");
    test::await_blocked(tid_, what);
  }
  bool done() const { return done_; }
  void join() {
    if (t_.joinable()) t_.join();
  }

 private:
  std::atomic<long> tid_{0};
  std::atomic<bool> done_{false};
  std::thread t_;
};
}  // namespace

// "A send on an unbuffered channel can proceed if a receiver is ready."
// (The Go Programming Language Specification, Send statements.)
// The race a timed select can lose: a waker claims the parker (a send to the
// channel it waits on) just as its deadline passes. The parked thread must
// then wait for that waker's ready() and take its case, not spin on the
// expired deadline holding the parker's lock, which ready() needs.
TEST_CASE("go::Parker: a deadline that passes after a waker's claim waits for its ready and returns its case") {
  ManualClock clock;
  go::Parker parker(/*timed=*/true);
  int got = go::Parker::kWaiting;
  Thread parked("parked", [&] { got = parker.park_until(clock, Time(10ms)); });
  REQUIRE(clock.await_waiters(1));
  REQUIRE(parker.claim(7));  // the waker wins the parker...
  clock.advance(20ms);       // ...and the deadline passes before its ready()
  // The parked thread has woken, timed out and lost the claim: it holds the
  // parker's lock again, and must let go of it while it waits.
  await_condition([&] { return clock.waiters() == 0; }, "the parked thread to wake at its deadline");
  parker.ready();
  parked.join();
  CHECK(got == 7);
}

TEST_CASE("go::Chan: an unbuffered send completes only when a receiver takes the value") {
  go::Chan<int> ch;
  Goroutine sender([&] { ch.send(7); });
  sender.await_blocked("the sender waits for a receiver");
  CHECK_FALSE(sender.done());
  CHECK(ch.len() == 0);
  CHECK(ch.recv() == 7);
  sender.join();
  CHECK(sender.done());
}

// "A send on a buffered channel can proceed if there is room in the buffer."
TEST_CASE("go::Chan: a one-slot send does not wait: the second one does") {
  go::Chan<int> ch(1);
  ch.send(1);  // returns at once
  CHECK(ch.len() == 1);
  CHECK(ch.cap() == 1);
  Goroutine sender([&] { ch.send(2); });
  sender.await_blocked("the second send waits for room");
  CHECK(ch.recv() == 1);
  CHECK(ch.recv() == 2);  // FIFO: the blocked sender's value went behind the buffered one
}

TEST_CASE("go::Chan: a buffered channel of N keeps FIFO order, blocked senders included") {
  go::Chan<int> ch(3);
  for (int i = 0; i < 3; ++i) ch.send(i);
  Goroutine sender([&] { ch.send(3); });
  sender.await_blocked("the fourth send waits");
  for (int i = 0; i < 4; ++i) CHECK(ch.recv() == i);
}

TEST_CASE("go::Chan: a receive waits for a sender, and gets its value") {
  go::Chan<std::string> ch;
  std::string got;
  Goroutine receiver([&] { got = ch.recv(); });
  receiver.await_blocked("the receiver waits for a sender");
  ch.send("hello");
  receiver.join();
  CHECK(got == "hello");
}

// "A receive operation on a closed channel can always proceed immediately,
// yielding the element type's zero value after any previously sent values
// have been received." (Receive operator.)
TEST_CASE("go::Chan: receive from a closed channel drains the buffer, then yields the zero value and false") {
  go::Chan<int> ch(2);
  ch.send(5);
  ch.close();
  int v = -1;
  CHECK(ch.recv(v));
  CHECK(v == 5);
  CHECK_FALSE(ch.recv(v));
  CHECK(v == 0);
  CHECK(ch.recv() == 0);
}

TEST_CASE("go::Chan: close wakes every blocked receiver with false") {
  go::Chan<int> ch;
  std::atomic<int> woken{0};
  {
    Goroutine a([&] {
      int v;
      if (!ch.recv(v)) ++woken;
    });
    Goroutine b([&] {
      int v;
      if (!ch.recv(v)) ++woken;
    });
    a.await_blocked("receiver a blocks");
    b.await_blocked("receiver b blocks");
    ch.close();
  }
  CHECK(woken == 2);
}

// Go's `done := make(chan struct{}); ...; <-done` with the channel on the
// receiver's stack: once woken, the receiver may return and destroy it while
// the closer (or sender) is still finishing its call. (Under ASan this fails
// if a waker touches the channel after waking its receiver.)
TEST_CASE("go::Chan: a woken receiver may destroy the channel at once") {
  for (int i = 0; i < 300; ++i) {
    std::thread waker;
    {
      go::Chan<int> done;
      waker = std::thread([&] { (i % 2 == 0) ? done.close() : done.send(1); });
      done.recv();
    }  // destroyed here, maybe before close()/send() has returned
    waker.join();
  }
}

// "Sending to or closing a closed channel causes a run-time panic."
TEST_CASE("go::Chan: send on a closed channel and a second close panic (throw ClosedChannel)") {
  go::Chan<int> ch(1);
  ch.close();
  CHECK_THROWS_AS(ch.send(1), go::ClosedChannel);
  CHECK_THROWS_AS(ch.close(), go::ClosedChannel);
}

TEST_CASE("go::Chan: a sender blocked when the channel closes panics") {
  go::Chan<int> ch;
  std::atomic<bool> panicked{false};
  {
    Goroutine sender([&] {
      try {
        ch.send(1);
      } catch (const go::ClosedChannel&) {
        panicked = true;
      }
    });
    sender.await_blocked("the sender blocks");
    ch.close();
  }
  CHECK(panicked);
}

TEST_CASE("go::Chan: try_send is select with default: it moves the value only when it is taken") {
  go::Chan<std::string> unbuffered;
  std::string v = "kept";
  CHECK_FALSE(unbuffered.try_send(v));  // no receiver waits
  CHECK(v == "kept");
  go::Chan<std::string> slot(1);
  CHECK(slot.try_send(v));
  CHECK(slot.len() == 1);
  std::string w = "second";
  CHECK_FALSE(slot.try_send(w));
  CHECK(w == "second");
}

TEST_CASE("go::Chan: many senders and receivers lose and duplicate nothing") {
  const std::size_t cap = GENERATE(0u, 1u, 8u);
  CAPTURE(cap);
  go::Chan<int> ch(cap);
  constexpr int per = 2000;
  std::atomic<long> sum{0};
  std::atomic<int> count{0};
  {
    std::vector<std::jthread> ts;
    for (int s = 0; s < 3; ++s)
      ts.emplace_back([&, s] {
        for (int i = 1; i <= per; ++i) ch.send(s * per + i);
      });
    for (int r = 0; r < 3; ++r)
      ts.emplace_back([&] {
        for (int i = 0; i < per; ++i) {
          sum += ch.recv();
          ++count;
        }
      });
  }
  const long n = 3L * per;
  CHECK(count == n);
  CHECK(sum == n * (n + 1) / 2);
}

// "If one or more of the communications can proceed, a single one that can
// proceed is chosen via a uniform pseudo-random selection. Otherwise, if
// there is a default case, that case is chosen." (Select statements.)
TEST_CASE("go::select: with default and nothing ready, the default runs at once") {
  go::Chan<int> a, b;
  int v = 0;
  CHECK(go::select(go::recv(a, v), go::recv(b, v), go::default_) == 2);
  CHECK(go::select(go::send(a, v), go::default_) == 1);
}

TEST_CASE("go::select: picks among ready cases at random") {
  go::Chan<int> a(1), b(1);
  int picked[2] = {0, 0};
  for (int i = 0; i < 400; ++i) {
    a.send(1);
    b.send(2);
    int v = 0;
    const int c = go::select(go::recv(a, v), go::recv(b, v));
    ++picked[c];
    CHECK(v == c + 1);
    (c == 0 ? b : a).recv();  // empty the other one again
  }
  CHECK(picked[0] > 100);
  CHECK(picked[1] > 100);
}

TEST_CASE("go::select: blocks until one case can run, and only that case runs") {
  go::Chan<int> tasks, workers;
  int got = 0;
  bool ok = false;
  int chosen = -1;
  {
    Goroutine dispatcher([&] { chosen = go::select(go::recv(tasks, got, ok), go::recv(workers, got)); });
    dispatcher.await_blocked("the select waits on both channels");
    tasks.send(42);
  }
  CHECK(chosen == 0);
  CHECK(got == 42);
  CHECK(ok);
  // Its entry on the other channel was taken back: a send there finds no receiver.
  int v = 1;
  CHECK_FALSE(workers.try_send(v));
}

TEST_CASE("go::select: a send case completes when a receiver arrives (processWaitingQueue's shape)") {
  go::Chan<int> taskQueue, workerQueue;
  int front = 9, incoming = 0;
  bool ok = false;
  int chosen = -1;
  {
    Goroutine dispatcher([&] {
      chosen = go::select(go::recv(taskQueue, incoming, ok), go::send(workerQueue, front));
    });
    dispatcher.await_blocked("the dispatcher waits to receive or to send");
    CHECK(workerQueue.recv() == 9);
  }
  CHECK(chosen == 1);
  int v = 3;
  CHECK_FALSE(taskQueue.try_send(v));  // the receive case left nothing behind
}

TEST_CASE("go::select: a closed channel's receive case runs with ok false") {
  go::Chan<int> tasks;
  int v = 5;
  bool ok = true;
  tasks.close();
  CHECK(go::select(go::recv(tasks, v, ok), go::default_) == 0);
  CHECK_FALSE(ok);
  CHECK(v == 0);
}

TEST_CASE("go::select: a nil channel's case never runs") {
  go::Chan<int>* nil = nullptr;
  go::Chan<int> ready(1);
  ready.send(1);
  int v = 0;
  for (int i = 0; i < 50; ++i) {
    bool ok = false;
    CHECK(go::select(go::recv(nil, v, ok), go::default_) == 1);
  }
  bool ok = false;
  CHECK(go::select(go::recv(nil, v, ok), go::recv(ready, v)) == 1);
}

TEST_CASE("go::select: a timer case fires when the manual clock reaches it, and not before") {
  ManualClock clock;
  go::Chan<int> tasks;
  go::Timer timeout(clock, 2s);
  int v = 0;
  std::atomic<int> chosen{-1};
  Goroutine dispatcher([&] { chosen = go::select(go::recv(tasks, v), timeout.C()); });
  REQUIRE(clock.await_waiters(1));
  clock.advance(1s);
  CHECK(chosen == -1);
  clock.advance(1s);
  dispatcher.join();
  CHECK(chosen == 1);
  // The receive case was taken back: the channel has no receiver now.
  int w = 1;
  CHECK_FALSE(tasks.try_send(w));
}

TEST_CASE("go::select: a value that arrives before the deadline wins over the timer") {
  ManualClock clock;
  go::Chan<int> tasks;
  go::Timer timeout(clock, 2s);
  int v = 0;
  std::atomic<int> chosen{-1};
  {
    Goroutine dispatcher([&] { chosen = go::select(go::recv(tasks, v), timeout.C()); });
    REQUIRE(clock.await_waiters(1));
    tasks.send(3);
  }
  CHECK(chosen == 0);
  CHECK(v == 3);
  timeout.Stop();
  CHECK(go::select(timeout.C(), go::default_) == 1);
}

TEST_CASE("go::select: two selects racing for one value: exactly one gets it") {
  for (int round = 0; round < 200; ++round) {
    go::Chan<int> a, b;
    std::atomic<int> got{0};
    std::latch both(2);
    auto selector = [&] {
      int v = 0;
      both.count_down();
      if (go::select(go::recv(a, v), go::recv(b, v)) >= 0 && v == 1) ++got;
    };
    std::thread s1(selector), s2(selector);
    both.wait();
    a.send(1);  // one selector takes it
    b.send(2);  // the other takes this one
    s1.join();
    s2.join();
    CHECK(got == 1);
  }
}

TEST_CASE("go::gomaxprocs: the CPUs this process may use, at least one") {
  CHECK(go::gomaxprocs() >= 1);
  if (std::getenv("GOMAXPROCS") == nullptr)  // as Go, the variable may set any number
    CHECK(go::gomaxprocs() <= static_cast<int>(std::max(1u, std::thread::hardware_concurrency())));
}

// Go: a Ticker delivers ticks at period intervals; a slow receiver gets one
// tick, not a backlog ("adjusts the intervals or drops ticks").
TEST_CASE("go::Ticker: ticks on the period grid of the manual clock, and drops missed ticks") {
  ManualClock clock;
  go::Ticker ticker(clock, 1s);
  std::atomic<int> ticks{0};
  Goroutine reader([&] {
    while (ticker.wait()) ++ticks;
  });
  REQUIRE(clock.await_waiters(1));
  clock.advance(1s);
  await_condition([&] { return ticks == 1; }, "one tick");
  REQUIRE(clock.await_waiters(1));
  clock.advance(5s);  // five periods at once: one tick
  await_condition([&] { return ticks == 2; }, "one tick for five periods");
  REQUIRE(clock.await_waiters(1));
  ticker.stop();
  reader.join();
  CHECK(ticks == 2);
}

TEST_CASE("go::ThreadGroup: joins finished threads at the next go(), and all of them at wait()") {
  go::ThreadGroup group;
  std::latch ran(3);
  for (int i = 0; i < 3; ++i) group.go("tg-test", [&] { ran.count_down(); });
  ran.wait();
  await_condition(
      [&] {
        group.join_finished();
        return group.size() == 0;
      },
      "the three finished threads joined");
  test::Gate gate;
  group.go("tg-test", gate.task());
  gate.await_arrivals(1);
  group.join_finished();
  CHECK(group.size() == 1);  // still running: not joined
  gate.open();
  group.wait();
  CHECK(group.size() == 0);
}

TEST_CASE("go::ThreadGroup (Joins::in_finishing): go() joins none, and a thread joins, as it finishes, those before it") {
  go::ThreadGroup group(go::ThreadGroup::Joins::in_finishing);
  test::OsThreads os;
  std::latch ran(1);
  group.go("tg-fin", [&] { ran.count_down(); });
  ran.wait();
  os.await_none_added("the first thread ended (its last act put it on the finished list)");
  test::Gate gate;
  group.go("tg-fin", gate.task());
  gate.await_arrivals(1);
  CHECK(group.size() == 2);  // go() left the finished thread to the next one to finish
  gate.open();
  await_condition([&] { return group.size() == 1; }, "the second thread joined the first as it finished");
  group.wait();
  CHECK(group.size() == 0);
}

TEST_CASE("go::ThreadGroup: a refused thread throws and leaves nothing behind") {
  go::ThreadGroup group;
  testing::refuse_threads("tg-refused", 1);
  CHECK_THROWS_AS(group.go("tg-refused", [] {}), std::system_error);
  CHECK(group.size() == 0);
  testing::refuse_threads("", 0);
}

TEST_CASE("go::ThreadGroup: join_finished() beside wait() joins each thread once") {
  // A purge ticker joining the threads its last tick stopped while the pool's
  // closer waits for them all: both once saw the same finished thread.
  const std::size_t before = live_threads();
  for (int round = 0; round < 20; ++round) {
    go::ThreadGroup group;
    for (int i = 0; i < 40; ++i) group.go("tg-both", [] {});
    std::atomic<bool> waited{false};
    std::jthread joiner([&] {
      while (!waited.load()) group.join_finished();
    });
    group.wait();
    waited.store(true);
    joiner.join();
    CHECK(group.size() == 0);
  }
  CHECK(live_threads() == before);
}

TEST_CASE("go::ThreadGroup: many short threads started from several goroutines are all joined") {
  const std::size_t before = live_threads();
  {
    go::ThreadGroup group;
    std::vector<std::jthread> starters;
    for (int s = 0; s < 3; ++s)
      starters.emplace_back([&] {
        for (int i = 0; i < 50; ++i) group.go("tg-many", [] {});
      });
  }
  CHECK(live_threads() == before);
}

// "Do calls the function f if and only if Do is being called for the first
// time for this instance of Once. [...] no call to Do returns until the one
// call to f returns." (sync.Once's doc.) go::Cond is tested where ants uses
// it, on its spin lock (tests/ants/spinlock_test.cpp).
TEST_CASE("go::Once: Do runs f once: a concurrent Do returns only after that f has returned") {
  go::Once once;
  go::Chan<int> entered, leave;
  std::atomic<int> runs{0};
  Goroutine first([&] {
    once.Do([&] {
      ++runs;
      entered.send(1);
      leave.recv();  // f is still running until the test lets it go
    });
  });
  entered.recv();
  Goroutine second([&] { once.Do([&] { ++runs; }); });
  second.await_blocked("the second Do waits for the first f");
  CHECK_FALSE(second.done());
  leave.send(1);
  first.join();
  second.join();
  CHECK(runs == 1);
  once.Do([&] { ++runs; });
  CHECK(runs == 1);
}

TEST_CASE("go::Once: an f that panics (throws) counts as done, as in Go") {
  go::Once once;
  int runs = 0;
  CHECK_THROWS(once.Do([&] {
    ++runs;
    throw std::runtime_error("panic");
  }));
  once.Do([&] { ++runs; });
  CHECK(runs == 1);
}

// sync.Mutex: "A Mutex is a mutual exclusion lock." Two threads meeting on
// it all the time (each lock then finds it held about half the time, so the
// spin and its try_lock run) lose no increment.
TEST_CASE("go::Mutex: under contention every increment made holding it counts") {
  go::Mutex mu;
  long n = 0;  // not atomic: only the lock orders the increments
  constexpr long kEach = 200'000;
  std::latch go(2);
  auto add = [&] {
    go.arrive_and_wait();
    for (long i = 0; i < kEach; ++i) {
      std::lock_guard g(mu);
      ++n;
    }
  };
  Goroutine a(add), b(add);
  a.join();
  b.join();
  CHECK(n == 2 * kEach);
}

// Go's Lock spins at most 4 times 30 PAUSEs, then sleeps on the semaphore
// until an Unlock: a Lock on a mutex held for long does not spin on.
TEST_CASE("go::Mutex: a Lock on a held mutex spins a little, then sleeps until the Unlock") {
  go::Mutex mu;
  mu.lock();
  std::atomic<bool> got{false};
  Goroutine waiter([&] {
    std::lock_guard g(mu);
    got = true;
  });
  waiter.await_blocked("the second Lock sleeps in the kernel");
  CHECK_FALSE(got);
  mu.unlock();
  waiter.join();
  CHECK(got);
  CHECK(mu.try_lock());  // the waiter unlocked it
  mu.unlock();
}
