#include "pools/core/clock.h"

#include <atomic>
#include <mutex>
#include <thread>
#include <vector>

#include "pools/core/go/time.h"
#include "pools/core/thread.h"
#include "tests/support/sync.h"

using namespace poolscope;
using namespace std::chrono_literals;
using test::await_condition;

TEST_CASE("manual clock: a timed wait returns exactly when the clock passes its deadline") {
  ManualClock clock;
  std::mutex m;
  CondVar cv;
  std::atomic<bool> done{false};
  std::cv_status status = std::cv_status::no_timeout;
  Time woke_at{-1};

  Thread waiter("waiter", [&] {
    std::unique_lock lock(m);
    // Loop like real code does: a spurious wake-up before the deadline waits again.
    while ((status = cv.wait_until(lock, clock, Time(5s))) == std::cv_status::no_timeout) {
    }
    woke_at = clock.now();
    done = true;
  });

  REQUIRE(clock.await_waiters(1));
  clock.advance(4s);
  // The deadline has not passed: the waiter is still registered and asleep
  // (waited for: a spurious wake-up takes it off the clock for a moment).
  REQUIRE(clock.await_waiters(1));
  CHECK_FALSE(done);
  clock.advance(1s);
  waiter.join();
  CHECK(status == std::cv_status::timeout);
  CHECK(woke_at == Time(5s));
  CHECK(clock.waiters() == 0);
}

TEST_CASE("manual clock: advance wakes only the waiters whose deadline passed, earliest first") {
  ManualClock clock;
  std::mutex m;
  std::vector<int> order;
  std::vector<Thread> threads;
  for (int seconds : {3, 1, 2}) {
    threads.emplace_back("waiter", [&, seconds] {
      std::mutex own;
      CondVar cv;
      std::unique_lock lock(own);
      while (cv.wait_until(lock, clock, Time(std::chrono::seconds(seconds))) == std::cv_status::no_timeout) {
      }
      std::lock_guard g(m);
      order.push_back(seconds);
    });
  }
  REQUIRE(clock.await_waiters(3));
  for (int step = 1; step <= 3; ++step) {
    clock.advance(1s);
    await_condition(
        [&] {
          std::lock_guard g(m);
          return order.size() == static_cast<std::size_t>(step);
        },
        "waiter with deadline " + std::to_string(step) + "s woke");
    await_condition([&] { return clock.waiters() == static_cast<std::size_t>(3 - step); },
                    "the later waiters asleep on the clock");
  }
  for (auto& t : threads) t.join();
  CHECK(order == std::vector<int>{1, 2, 3});
}

TEST_CASE("manual clock: a notification wakes a timed waiter before its deadline") {
  ManualClock clock;
  std::mutex m;
  CondVar cv;
  bool ready = false;
  bool got = false;
  Thread waiter("waiter", [&] {
    std::unique_lock lock(m);
    got = cv.wait_until(lock, clock, Time(10s), [&] { return ready; });
  });
  REQUIRE(clock.await_waiters(1));
  {
    std::lock_guard g(m);
    ready = true;
  }
  cv.notify_one();
  waiter.join();
  CHECK(got);
  CHECK(clock.now() == Time(0));
}

TEST_CASE("manual clock: a deadline already passed returns timeout at once") {
  ManualClock clock;
  clock.advance(2s);
  std::mutex m;
  CondVar cv;
  std::unique_lock lock(m);
  CHECK(cv.wait_until(lock, clock, Time(1s)) == std::cv_status::timeout);
  CHECK_FALSE(cv.wait_until(lock, clock, Time(2s), [] { return false; }));
}

TEST_CASE("ticker on a manual clock: one tick per period, on the grid from its creation") {
  ManualClock clock;
  go::Ticker ticker(clock, 1s);
  std::atomic<int> ticks{0};
  std::vector<Time> at;
  Thread receiver("ticker", [&] {
    while (ticker.wait()) {
      at.push_back(clock.now());
      ++ticks;
    }
  });

  for (int i = 1; i <= 3; ++i) {
    REQUIRE(clock.await_waiters(1));
    clock.advance(1s);
    await_condition([&] { return ticks == i; }, "tick " + std::to_string(i));
  }
  // Half a period: no tick; the receiver goes back to sleep.
  REQUIRE(clock.await_waiters(1));
  clock.advance(500ms);
  REQUIRE(clock.await_waiters(1));  // still asleep
  CHECK(ticks == 3);
  clock.advance(500ms);
  await_condition([&] { return ticks == 4; }, "tick 4");

  // A receiver that misses several periods gets one tick, and the grid stays.
  REQUIRE(clock.await_waiters(1));
  clock.advance(3s);
  await_condition([&] { return ticks == 5; }, "tick after a 3-period jump");
  REQUIRE(clock.await_waiters(1));
  clock.advance(1s);
  await_condition([&] { return ticks == 6; }, "tick on the grid");

  ticker.stop();
  receiver.join();
  CHECK(at == std::vector<Time>{Time(1s), Time(2s), Time(3s), Time(4s), Time(7s), Time(8s)});
}

TEST_CASE("ticker: created before its receiver starts, it still ticks on time") {
  ManualClock clock;
  go::Ticker ticker(clock, 1s);
  clock.advance(1s);  // the receiver has not even started
  CHECK(ticker.wait());
  CHECK(clock.now() == Time(1s));
}

TEST_CASE("ticker: reset restarts the period from now") {
  ManualClock clock;
  go::Ticker ticker(clock, 1s);
  clock.advance(700ms);
  ticker.reset(1s);
  std::atomic<bool> ticked{false};
  Thread t("ticker", [&] { ticked = ticker.wait(); });
  REQUIRE(clock.await_waiters(1));
  clock.advance(300ms);             // 1 s since creation, only 300 ms since the reset
  REQUIRE(clock.await_waiters(1));  // still asleep
  clock.advance(700ms);
  t.join();
  CHECK(ticked);
  CHECK(clock.now() == Time(1700ms));
}

TEST_CASE("manual clock: sleep_for sleeps exactly until advanced past it") {
  ManualClock clock;
  std::atomic<bool> woke{false};
  Thread sleeper("sleeper", [&] {
    clock.sleep_for(2s);
    woke = true;
  });
  REQUIRE(clock.await_waiters(1));
  clock.advance(1s);
  REQUIRE(clock.await_waiters(1));  // still asleep
  CHECK_FALSE(woke);
  clock.advance(1s);
  sleeper.join();
  CHECK(woke);
}

TEST_CASE("scaled steady clock: a scaled second passes and timed waits end after it") {
  SteadyClock fast(1000.0);  // a scenario second in a wall millisecond
  Time start = fast.now();
  fast.sleep_for(1s);
  CHECK(fast.now() - start >= Time(1s));

  std::mutex m;
  CondVar cv;
  std::unique_lock lock(m);
  Time deadline = fast.now() + 2s;
  while (cv.wait_until(lock, fast, deadline) == std::cv_status::no_timeout) {
  }
  CHECK(fast.now() >= deadline);
}

TEST_CASE("adjustable clock: paused time stands still and timed waiters sleep through the pause") {
  AdjustableClock clock(1000.0);  // fast, so the test takes milliseconds
  clock.pause();
  Time frozen = clock.now();
  std::atomic<bool> woke{false};
  Thread sleeper("sleeper", [&] {
    clock.sleep_until(frozen + 1s);
    woke = true;
  });
  // While paused the deadline can never pass: once the sleeper is blocked on
  // the clock, it stays asleep however long the wall clock runs.
  REQUIRE(clock.await_waiters(1));
  CHECK(clock.now() == frozen);
  CHECK_FALSE(woke);
  clock.resume();
  sleeper.join();
  CHECK(clock.now() >= frozen + 1s);
}

TEST_CASE("adjustable clock: a waiter timed at a slow speed is re-timed when the speed rises") {
  AdjustableClock clock(0.001);  // a scenario second would take 1000 wall seconds
  std::atomic<bool> woke{false};
  Time deadline = clock.now() + 1s;
  Thread sleeper("sleeper", [&] {
    clock.sleep_until(deadline);
    woke = true;
  });
  test::await_condition([&] { return clock.now() > Time(0); }, "the clock moves");
  clock.set_scale(1000.0);  // now the second passes in about a millisecond
  sleeper.join();
  CHECK(woke);
  CHECK(clock.now() >= deadline);
}

TEST_CASE("adjustable clock: now() never goes back while another thread pauses, resumes and rescales it") {
  AdjustableClock clock(1.0);
  std::atomic<bool> stop{false};
  std::atomic<int> readers_ready{0};
  std::atomic<std::int64_t> backwards{0};
  auto read = [&] {
    Time last = clock.now();
    readers_ready.fetch_add(1);
    while (!stop.load(std::memory_order_relaxed)) {
      const Time t = clock.now();
      if (t < last) backwards.fetch_add(1);
      last = t;
    }
  };
  Thread a("reader-a", read), b("reader-b", read);
  test::await_condition([&] { return readers_ready.load() == 2; }, "both readers read");
  for (int i = 0; i < 20'000; ++i) {
    switch (i % 4) {
      case 0: clock.pause(); break;
      case 1: clock.set_scale(i % 8 == 1 ? 0.25 : 0.5); break;  // while paused: kept for the resume
      case 2: clock.resume(); break;
      case 3: clock.set_scale(1.0 + (i % 5)); break;
    }
  }
  stop = true;
  a.join();
  b.join();
  CHECK(backwards.load() == 0);
  // One piece per pause, resume and change while running, and the first.
  std::vector<TimePiece> pieces;
  CHECK(clock.pieces()->copy(0, pieces) == 1 + 5'000 * 3);
  for (std::size_t i = 1; i < pieces.size(); ++i) {
    CHECK(pieces[i].steady0 >= pieces[i - 1].steady0);
    CHECK(pieces[i].time0 >= pieces[i - 1].time0);
  }
}

TEST_CASE("adjustable clock: paused it reads the pause's time, and resumed it goes on from there at its speed") {
  AdjustableClock clock(1.0, /*paused=*/true);
  CHECK(clock.now() == Time(0));
  clock.set_scale(1000.0);  // while paused: only remembered
  CHECK(clock.now() == Time(0));
  clock.resume();
  test::await_condition([&] { return clock.now() > Time(0); }, "the clock moves");
  clock.pause();
  const Time frozen = clock.now();
  const auto steady_then = std::chrono::steady_clock::now();
  test::await_condition([&] { return std::chrono::steady_clock::now() - steady_then > 1ms; }, "a real millisecond");
  CHECK(clock.now() == frozen);
  std::vector<TimePiece> pieces;
  REQUIRE(clock.pieces()->copy(0, pieces) == 3);  // paused at 0, running at 1000×, paused
  CHECK(pieces[0].scale == 0.0);
  CHECK(pieces[1].scale == 1000.0);
  CHECK(pieces[2].scale == 0.0);
  CHECK(pieces[2].time0 == frozen.count());
}
