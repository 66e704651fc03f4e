// The pacer (pacer/pacer.go and pacer_test.go) on a manual clock. As in Go, a
// caller passes the gate when the pacer's loop receives from it, just before
// the loop reads the clock to sleep its delay: a test waits for that sleep
// (clock.await_waiters) before it advances the clock.
#include "pools/gammazero/pacer.h"

#include <algorithm>
#include <atomic>
#include <mutex>
#include <stdexcept>
#include <vector>

#include "pools/gammazero/workerpool.h"
#include "tests/gammazero/rig.h"

using namespace poolscope;
using namespace poolscope::gammazero;
using namespace std::chrono_literals;
using test::await_condition;
using test::Background;

namespace {

// Callers of next(), each on its own thread, recording when they passed.
struct Callers {
  Pacer& pacer;
  Clock& clock;
  std::mutex m;
  std::vector<Time> passed;
  std::atomic<int> threw{0};
  std::vector<Thread> threads;

  void start(int n) {
    for (int i = 0; i < n; ++i)
      threads.emplace_back("caller", [this] {
        try {
          pacer.next();
        } catch (const std::logic_error&) {
          ++threw;
          return;
        }
        std::lock_guard g(m);
        passed.push_back(clock.now());
      });
  }
  std::size_t count() {
    std::lock_guard g(m);
    return passed.size();
  }
  void await_count(std::size_t n) {
    await_condition([&] { return count() == n; }, std::to_string(n) + " callers passed");
  }
  void join() {
    for (auto& t : threads) t.join();
  }
};

}  // namespace

TEST_CASE("pacer: the first caller passes at once, the others one per delay") {
  ManualClock clock;
  Pacer pacer(100ms, clock);
  Callers callers{pacer, clock};
  callers.start(3);
  callers.await_count(1);
  REQUIRE(clock.await_waiters(1));  // the pacer sleeps its delay
  clock.advance(99ms);
  REQUIRE(clock.await_waiters(1));  // still (or, after a spurious wake-up, again)
  CHECK(callers.count() == 1);      // and the times below show nobody passed at 99 ms
  clock.advance(1ms);
  callers.await_count(2);
  clock.advance(100ms);
  callers.await_count(3);
  callers.join();
  CHECK(callers.passed == std::vector<Time>{Time(0ms), Time(100ms), Time(200ms)});
}

TEST_CASE("pacer: a paced task waits its turn, then runs") {
  ManualClock clock;
  Pacer pacer(1s, clock);
  std::vector<Time> ran;
  pacer.pace([&] { ran.push_back(clock.now()); })();
  Thread second("paced", pacer.pace([&] { ran.push_back(clock.now()); }));
  REQUIRE(clock.await_waiters(1));
  clock.advance(1s);
  second.join();
  CHECK(ran == std::vector<Time>{Time(0s), Time(1s)});
}

TEST_CASE("pacer: Pause holds the gate until Resume") {
  ManualClock clock;
  Pacer pacer(100ms, clock);
  Callers callers{pacer, clock};
  callers.start(2);  // one passes, the other (most likely) waits at the gate
  callers.await_count(1);
  REQUIRE(clock.await_waiters(1));  // the pacer sleeps its delay
  pacer.pause();
  CHECK(pacer.is_paused());
  clock.advance(100ms);  // the delay ends, but the pacer stops at its pause point
  await_condition([&] { return clock.waiters() == 0; }, "the pacer left its sleep");
  clock.advance(1s);
  CHECK(pacer.is_paused());
  pacer.resume();
  CHECK_FALSE(pacer.is_paused());
  callers.await_count(2);
  callers.join();
  CHECK(callers.passed.back() == Time(1100ms));  // passed at the resume, not at 100 ms
}

TEST_CASE("pacer: Pause while paused waits for Resume, and Resume waits for Pause") {
  ManualClock clock;
  Pacer pacer(100ms, clock);
  pacer.pause();
  Background second_pause([&] { pacer.pause(); });
  second_pause.await_blocked("the second Pause waits");
  CHECK_FALSE(second_pause.done());
  pacer.resume();
  second_pause.join();
  CHECK(pacer.is_paused());  // the second Pause took effect

  pacer.resume();
  Background resume([&] { pacer.resume(); });
  resume.await_blocked("Resume waits for a Pause");
  CHECK_FALSE(resume.done());
  pacer.pause();
  resume.join();
  CHECK_FALSE(pacer.is_paused());
}

TEST_CASE("pacer: after Stop, Next throws (Go's send on the closed gate panics)") {
  ManualClock clock;
  Pacer pacer(100ms, clock);
  Callers callers{pacer, clock};
  callers.start(2);  // one passes; the other waits at the gate
  callers.await_count(1);
  pacer.stop();
  callers.join();
  CHECK(callers.threw == 1);
  CHECK_THROWS_AS(pacer.next(), std::logic_error);
}

TEST_CASE("pacer: paced tasks on a pool start no faster than their pacer allows (TestPacedWorkers)") {
  ManualClock clock;
  WorkerPool wp(5, {WithIdleTimeout(-1s)}, {.clock = &clock});  // no idle timer: only the pacers use the clock
  Pacer fast(100ms, clock);
  Pacer slow(300ms, clock);
  std::mutex m;
  std::vector<Time> fast_starts, slow_starts;
  auto record = [&](std::vector<Time>& starts) -> Task {
    return [&] {
      std::lock_guard g(m);
      starts.push_back(clock.now());
    };
  };
  auto started = [&] {
    std::lock_guard g(m);
    return fast_starts.size() + slow_starts.size();
  };
  for (int i = 0; i < 10; ++i) {
    REQUIRE_FALSE(wp.submit(fast.pace(record(fast_starts))));
    REQUIRE_FALSE(wp.submit(slow.pace(record(slow_starts))));
  }

  // Each pacer lets one of the five running tasks through at once.
  await_condition([&] { return started() == 2; }, "the first task of each pacer");
  // Then move time on in 100 ms steps while a pacer sleeps. At 400 ms the
  // fast pacer is paused for a second, as upstream does.
  for (;;) {
    await_condition([&] { return clock.waiters() > 0 || started() == 20; }, "a pacer sleeps");
    if (started() == 20) break;
    clock.advance(100ms);
    if (clock.now() == Time(400ms)) {
      fast.pause();
      clock.advance(1s);
      CHECK(fast.is_paused());
      fast.resume();
      CHECK_FALSE(fast.is_paused());
    }
  }
  wp.stop_wait();

  // The k-th caller a pacer lets through passes no earlier than k delays
  // after the first; the test may record a start a little late (it does not
  // wait for every task before moving time on), never early.
  std::lock_guard g(m);
  REQUIRE(fast_starts.size() == 10);
  REQUIRE(slow_starts.size() == 10);
  std::sort(fast_starts.begin(), fast_starts.end());
  std::sort(slow_starts.begin(), slow_starts.end());
  CHECK(fast_starts[0] == Time(0));
  CHECK(slow_starts[0] == Time(0));
  for (int k = 0; k < 10; ++k) {
    // At most five fast tasks start by 400 ms (0, 100, ... 400); the next waits for the resume.
    Time earliest = k < 5 ? k * 100ms : 1400ms + (k - 5) * 100ms;
    CHECK(fast_starts[static_cast<std::size_t>(k)] >= earliest);
    CHECK(slow_starts[static_cast<std::size_t>(k)] >= k * 300ms);
  }
  // 9 times the slow delay: the first task does not wait, and the fast pacer
  // runs concurrently, so only the slow one limits.
  CHECK(slow_starts.back() >= 9 * 300ms);
}
