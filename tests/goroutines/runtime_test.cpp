// pools/core/goroutines: Go's scheduling rules on real OS threads. Each test
// asserts on what happened (an order, a count of the runtime's own, a thread
// that differs), never on how fast: the runs are real, the machine shared.
// Catch's assertions are not made from goroutines (they run on the
// runtime's threads): the goroutines record, the test checks after run().
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include <catch2/catch.hpp>

#include "pools/core/clock.h"
#include "pools/core/go/chan.h"
#include "pools/core/go/time.h"
#include "pools/core/goroutines/runtime.h"
#include "pools/core/spin.h"
#include "pools/core/sync.h"
#include "pools/core/thread.h"

using namespace poolscope;
using namespace std::chrono_literals;

namespace {

goroutines::Settings procs(int n) {
  goroutines::Settings s;
  s.procs = n;
  return s;
}

}  // namespace

TEST_CASE("goroutines: main runs as goroutine 1, under the runtime, and its Threads are goroutines") {
  goroutines::Runtime rt(procs(2));
  bool scheduled = false, child_scheduled = false, same_runtime = false;
  rt.run([&] {
    scheduled = this_thread::scheduler() == &rt;
    Thread t("child", [&] {
      child_scheduled = this_thread::scheduler() == &rt;
      same_runtime = goroutines::active() == &rt;
    });
    t.join();
  });
  CHECK(scheduled);
  CHECK(child_scheduled);
  CHECK(same_runtime);
  CHECK(rt.stats().goroutines == 2);
  CHECK(rt.leaked().empty());
}

TEST_CASE("goroutines: runnext: what a goroutine readies runs next on its P, the one displaced after it") {
  // GOMAXPROCS=1: `go x(); go y()`, then main blocks: y (in runnext) runs
  // first, then x (pushed to the queue's tail when y took runnext).
  goroutines::Runtime rt(procs(1));
  std::string log;
  rt.run([&] {
    Thread x("x", [&] { log += "x"; });
    Thread y("y", [&] { log += "y"; });
    x.join();
    y.join();
    log += "m";
  });
  CHECK(log == "yxm");
  CHECK(rt.stats().runnext >= 1);
}

TEST_CASE("goroutines: runnext: a hand-off over a channel runs the receiver at once, on the sender's P") {
  // One P: every value sent wakes the receiver into runnext, and the
  // sender's next send (on a full channel) parks it: strict alternation.
  goroutines::Runtime rt(procs(1));
  std::string log;
  rt.run([&] {
    go::Chan<int> ch;  // unbuffered
    Thread receiver("receiver", [&] {
      for (int v; ch.recv(v);) log += "r" + std::to_string(v);
    });
    for (int i = 0; i < 3; ++i) {
      log += "s" + std::to_string(i);
      ch.send(i);
    }
    ch.close();
    receiver.join();
  });
  CHECK(log == "s0r0s1s2r1r2");  // Go's order at GOMAXPROCS=1: r1 waits until main parks on s2
  CHECK(rt.stats().runnext >= 3);
}

TEST_CASE("goroutines: an idle P's M steals from a busy P's queue") {
  // Two goroutines that can only finish together (each waits, without
  // blocking, for the other to arrive): one must have been stolen to the
  // other P, or wait to be preempted; they record the OS thread they met on.
  goroutines::Runtime rt(procs(2));
  std::atomic<int> arrived{0};
  std::thread::id on[2];
  rt.run([&] {
    std::vector<Thread> ts;
    for (int i = 0; i < 2; ++i)
      ts.emplace_back("spinner", [&, i] {
        arrived.fetch_add(1);
        while (arrived.load() < 2) burn_cpu(10us);
        on[i] = std::this_thread::get_id();
      });
  });
  CHECK(arrived.load() == 2);
  CHECK(rt.stats().stolen >= 1);
  CHECK(on[0] != on[1]);
}

TEST_CASE("goroutines: timers: the clock's sleeps and timed waits end at their deadline, in the runtime") {
  goroutines::Runtime rt(procs(2));
  Time slept_until{}, deadline{}, timed_out_at{}, wait_deadline{};
  bool timed_out = false, woken_by_notify = false;
  rt.run([&] {
    Clock& clock = default_clock();
    deadline = clock.now() + 5ms;
    clock.sleep_until(deadline);
    slept_until = clock.now();

    Mutex m;
    CondVar cv;
    std::unique_lock lock(m);
    wait_deadline = clock.now() + 3ms;
    timed_out = cv.wait_until(lock, clock, wait_deadline) == std::cv_status::timeout;
    timed_out_at = clock.now();

    // A notify before the deadline ends the wait without its timer.
    bool flag = false;
    Thread notifier("notifier", [&] {
      std::lock_guard g(m);
      flag = true;
      cv.notify_one();
    });
    woken_by_notify = cv.wait_until(lock, clock, clock.now() + 10s, [&] { return flag; });
    lock.unlock();
    notifier.join();
  });
  CHECK(slept_until >= deadline);
  CHECK(timed_out);
  CHECK(timed_out_at >= wait_deadline);
  CHECK(woken_by_notify);
  CHECK(rt.stats().timers_fired >= 2);
}

TEST_CASE("goroutines: timers: go::Ticker ticks on the runtime's clock") {
  goroutines::Runtime rt(procs(1));
  int ticks = 0;
  rt.run([&] {
    go::Ticker ticker(default_clock(), 2ms);
    for (int i = 0; i < 3; ++i)
      if (ticker.wait()) ++ticks;
    ticker.stop();
  });
  CHECK(ticks == 3);
  CHECK(rt.stats().timers_fired >= 3);
}

TEST_CASE("goroutines: a goroutine blocked outside the primitives hands its P to another M") {
  // One P. A blocks in a raw OS wait (as a system call would) for B, which
  // sits in the P's queue: B runs only if sysmon hands the P to another M.
  goroutines::Runtime rt(procs(1));
  std::mutex raw_m;
  std::condition_variable raw_cv;
  bool b_ran = false, a_waited_out = false;
  std::thread::id a_thread, b_thread;
  rt.run([&] {
    Thread b_thread_obj("B", [&] {
      std::lock_guard g(raw_m);
      b_ran = true;
      b_thread = std::this_thread::get_id();
      raw_cv.notify_all();
    });
    // main is A: B went to runnext, and main keeps the P while it blocks.
    a_thread = std::this_thread::get_id();
    std::unique_lock lock(raw_m);
    a_waited_out = !raw_cv.wait_for(lock, 30s, [&] { return b_ran; });
    lock.unlock();
    b_thread_obj.join();
  });
  CHECK(b_ran);
  CHECK_FALSE(a_waited_out);
  CHECK(a_thread != b_thread);
  CHECK(rt.stats().handoffs >= 1);
}

TEST_CASE("goroutines: every goroutine asleep with nothing timed is Go's deadlock, each with its wait point") {
  goroutines::Runtime rt(procs(2));
  std::string report;
  rt.on_deadlock([&](const std::string& r) { report = r; });
  go::Chan<int>* leaked = nullptr;
  CHECK_THROWS_AS(rt.run([&] {
    auto* ch = new go::Chan<int>();  // never freed: its waiters are left where they stood
    leaked = ch;
    Thread* worker = new Thread("worker", [ch] { ch->recv(); });
    (void)worker;
    ch->recv();
  }),
                  goroutines::Deadlock);
  (void)leaked;
  CHECK_THAT(report, Catch::Matchers::StartsWith("all goroutines are asleep - deadlock!\n\ngoroutine 1 ["));
  CHECK_THAT(report, Catch::Matchers::Contains("]:\n\tmain\n"));
  CHECK_THAT(report, Catch::Matchers::Contains("]:\n\tworker\n"));
  CHECK_THAT(report, Catch::Matchers::Contains("CondVar::wait"));
}

TEST_CASE("goroutines: Mutex, CondVar and channels keep their promises with goroutines on two Ps") {
  goroutines::Runtime rt(procs(2));
  long counter = 0;
  long received = 0;
  rt.run([&] {
    Mutex m;
    std::vector<Thread> ts;
    for (int i = 0; i < 4; ++i)
      ts.emplace_back("adder", [&] {
        for (int k = 0; k < 20000; ++k) {
          std::lock_guard g(m);
          ++counter;
        }
      });
    go::Chan<int> ch(1);
    Thread consumer("consumer", [&] {
      for (int v; ch.recv(v);) received += v;
    });
    for (int k = 1; k <= 20000; ++k) ch.send(k);
    ch.close();
    consumer.join();
  });
  CHECK(counter == 80000);
  CHECK(received == 20000L * 20001 / 2);
}

TEST_CASE("goroutines: a per-thread value follows its goroutine, and an exception state its fiber") {
  struct Tag;
  goroutines::Runtime rt(procs(2));
  std::atomic<int> distinct{0};
  std::atomic<int> kept{0};
  rt.run([&] {
    std::vector<Thread> ts;
    for (int i = 0; i < 8; ++i)
      ts.emplace_back("g", [&, i] {
        int& mine = thread_value<int, Tag>();
        mine = i + 1;
        try {
          throw std::runtime_error("g" + std::to_string(i));
        } catch (const std::exception&) {
          // Switched out (maybe to another M) inside the catch block.
          for (int k = 0; k < 50; ++k) this_thread::yield();
          try {
            throw;
          } catch (const std::runtime_error& e) {
            if (e.what() == "g" + std::to_string(i)) kept.fetch_add(1);
          }
        }
        if (thread_value<int, Tag>() == i + 1) distinct.fetch_add(1);
      });
  });
  CHECK(distinct.load() == 8);
  CHECK(kept.load() == 8);
}
