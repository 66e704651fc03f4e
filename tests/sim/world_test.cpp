// pools/core/sim: the World runs poolscope's own primitives (Mutex, CondVar,
// Thread, the clock, Go's channels) one thread at a time on virtual time.
// Each test says what the simulation promises: time that jumps, a schedule
// decided by the seed alone, the machine model's arithmetic, and failures
// (deadlock, livelock) reported instead of hanging.
#include <algorithm>
#include <chrono>
#include <stdexcept>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "pools/core/clock.h"
#include "pools/core/go/chan.h"
#include "pools/core/go/thread_group.h"
#include "pools/core/sim/world.h"
#include "pools/core/spin.h"
#include "pools/core/sync.h"
#include "pools/core/thread.h"

using namespace poolscope;
using namespace std::chrono_literals;

namespace {

// Nothing costs time ("free"), so threads started together are runnable
// together and the policy has choices to make.
sim::Settings with_seed(std::uint64_t seed, sim::Policy policy = sim::Policy::random) {
  sim::Settings s;
  s.seed = seed;
  s.policy = policy;
  s.costs = sim::costs_preset("free");
  return s;
}

// Three threads append their name to a log, several times, around mutex
// points: the log is the schedule the World chose.
std::string interleaving(const sim::Settings& settings) {
  sim::World w(settings);
  std::string log;
  w.run([&] {
    Mutex m;
    std::vector<Thread> threads;
    for (char c : std::string("abc"))
      threads.emplace_back(std::string(1, c), [&, c] {
        for (int i = 0; i < 5; ++i) {
          std::lock_guard g(m);
          log += c;
        }
      });
  });
  return log;
}

}  // namespace

TEST_CASE("an hour of sleeping takes no wall time, and the clock reads exactly the deadline") {
  sim::World w;
  Time woke{-1};
  auto wall = std::chrono::steady_clock::now();
  w.run([&] {
    w.clock().sleep_for(std::chrono::hours(1));
    woke = w.clock().now();
  });
  CHECK(woke == std::chrono::hours(1));
  CHECK(std::chrono::steady_clock::now() - wall < 5s);
}

TEST_CASE("inside a World, default_clock() is the virtual clock") {
  sim::World w;
  w.run([&] {
    CHECK(&default_clock() == &w.clock());
    default_clock().sleep_for(3s);
  });
  CHECK(w.now() == 3s);
}

TEST_CASE("the same seed gives the same schedule, and other seeds give others") {
  const std::string first = interleaving(with_seed(7));
  CHECK(first.size() == 15);
  CHECK(interleaving(with_seed(7)) == first);
  int different = 0;
  for (std::uint64_t seed = 1; seed <= 20; ++seed) different += interleaving(with_seed(seed)) != first;
  CHECK(different > 10);
}

TEST_CASE("fifo runs each thread until it blocks: no interleaving at all") {
  // Each thread starts a wake-up after the one before it, and never waits.
  CHECK(interleaving(with_seed(1, sim::Policy::fifo)) == "aaaaabbbbbccccc");
}

TEST_CASE("a mutex excludes, whatever the schedule") {
  for (std::uint64_t seed = 1; seed <= 50; ++seed) {
    sim::World w(with_seed(seed, seed % 2 ? sim::Policy::random : sim::Policy::pct));
    int inside = 0, most = 0, total = 0;
    w.run([&] {
      Mutex m;
      std::vector<Thread> threads;
      for (int t = 0; t < 4; ++t)
        threads.emplace_back("t", [&] {
          for (int i = 0; i < 10; ++i) {
            std::lock_guard g(m);
            ++inside;
            most = std::max(most, inside);
            this_thread::yield();  // a point inside the critical section
            ++total;
            --inside;
          }
        });
    });
    REQUIRE(most == 1);
    REQUIRE(total == 40);
  }
}

TEST_CASE("a timed wait times out at its deadline exactly, and a notify wakes it a wake-up later") {
  sim::Settings s;
  s.costs = sim::costs_preset("os-threads");
  sim::World w(s);
  Time timed_out_at{-1}, woken_at{-1};
  w.run([&] {
    Mutex m;
    CondVar cv;
    bool flag = false;
    {
      std::unique_lock lock(m);
      CHECK(cv.wait_until(lock, w.clock(), Time(250ms)) == std::cv_status::timeout);
      timed_out_at = w.now();
    }
    Thread waker("waker", [&] {
      w.clock().sleep_until(Time(1s));
      std::lock_guard g(m);
      flag = true;
      cv.notify_one();
    });
    std::unique_lock lock(m);
    cv.wait(lock, [&] { return flag; });
    woken_at = w.now();
  });
  CHECK(timed_out_at == 250ms);
  // The waker pays its hand-off after the notify; the woken thread runs a
  // wake-up after it, and reads the clock once back on a CPU.
  CHECK(woken_at == Time(1s) + s.costs.wake + s.costs.resume);
}

TEST_CASE("computing threads share the CPUs in quanta") {
  sim::Settings s;
  s.cpus = 2;
  s.costs = sim::costs_preset("free");
  sim::World w(s);
  std::vector<Time> ended(4);
  w.run([&] {
    std::vector<Thread> threads;
    for (int i = 0; i < 4; ++i)
      threads.emplace_back("spin", [&, i] {
        w.compute(10ms, "task");
        ended[static_cast<std::size_t>(i)] = w.now();
      });
  });
  // 40 ms of CPU on 2 CPUs: everyone shares, everyone ends near 20 ms.
  for (Time t : ended) {
    CHECK(t > 18ms);
    CHECK(t <= 20ms);
  }
  CHECK(w.cpu_used() == 40ms);
}

TEST_CASE("a thread start costs its creator the start, and the thread runs a wake-up later") {
  sim::Settings s;
  s.costs = sim::costs_preset("os-threads");
  sim::World w(s);
  Time started{-1}, created{-1};
  w.run([&] {
    Thread t("child", [&] { started = w.now(); });
    created = w.now();
  });
  CHECK(created >= s.costs.start);
  CHECK(started == s.costs.start + s.costs.wake);
}

TEST_CASE("a thread group's own costs: its threads pay them, the others the run's (issue 51)") {
  sim::Settings s;
  s.costs = sim::costs_preset("os-threads");
  s.group_costs.emplace("pool 'go'", sim::runtime_costs("goroutines"));
  sim::World w(s);
  Time go_started{-1}, os_started{-1};
  w.run([&] {
    const Time t0 = w.now();
    w.set_group("pool 'go'");
    Thread g("goroutine", [&] { go_started = w.now() - t0; });  // inherits the group
    g.join();
    w.set_group("");
    const Time t1 = w.now();
    Thread t("thread", [&] { os_started = w.now() - t1; });
    t.join();
  });
  CHECK(go_started == 1us + 200ns);  // goroutines: start 1 us, then a wake-up of 0.2 us
  CHECK(os_started == 36us + 20us);
  CHECK(&s.costs_of("pool 'other'") == &s.costs);
}

TEST_CASE("each runtime has its preset, and 'runtime' takes no overrides") {
  CHECK(sim::runtime_costs("jvm").name == "jvm");
  CHECK(sim::runtime_costs("goroutines").start == 1us);
  // php-fpm's fork is the design's fork_time: a start costs nothing more.
  CHECK(sim::runtime_costs("processes").start == 0ns);
  CHECK(sim::runtime_costs("processes").wake == sim::costs_preset("os-threads").wake);
  CHECK_THROWS_WITH(sim::runtime_costs("fibers"), Catch::Contains("expected goroutines, jvm, os-threads or processes"));
  CHECK_NOTHROW(sim::check_costs("runtime"));
  CHECK_NOTHROW(sim::check_costs("jvm,wake=5us"));
  CHECK_THROWS_WITH(sim::check_costs("runtime,wake=5us"), Catch::Contains("takes no overrides"));
}

TEST_CASE("goroutine costs start a thousand threads in a thousandth of the time") {
  auto start_all = [](const char* preset) {
    sim::Settings s;
    s.costs = sim::costs_preset(preset);
    sim::World w(s);
    w.run([&] {
      go::ThreadGroup g;
      for (int i = 0; i < 1000; ++i) g.go("g", [] {});
      g.wait();
    });
    return w.now();
  };
  Time os = start_all("os-threads"), go = start_all("goroutines");
  CHECK(os >= 36ms);
  CHECK(go < 2ms);
}

TEST_CASE("Go's channels run under the World: a ping-pong of a thousand messages, the same every time") {
  auto play = [](std::uint64_t seed) {
    sim::World w(with_seed(seed));
    std::vector<int> got;
    w.run([&] {
      go::Chan<int> ping, pong;
      Thread other("other", [&] {
        for (int i = 0; i < 1000; ++i) pong.send(ping.recv() + 1);
      });
      for (int i = 0; i < 1000; ++i) {
        ping.send(i);
        got.push_back(pong.recv());
      }
    });
    return std::pair(got, w.now());
  };
  auto [got, t] = play(3);
  REQUIRE(got.size() == 1000);
  CHECK(got[999] == 1000);
  CHECK(t > Time(0));  // every hand-off to a parked thread costs a wake-up
  CHECK(play(3).second == t);
}

TEST_CASE("a deadlock is reported with every thread and the point it waits at") {
  sim::World w(with_seed(1, sim::Policy::fifo));
  Mutex a, b;
  CondVar never;
  try {
    w.run([&] {
      Thread t1("first", [&] {
        std::lock_guard ga(a);
        this_thread::yield();
        std::lock_guard gb(b);
      });
      Thread t2("second", [&] {
        std::lock_guard gb(b);
        this_thread::yield();
        std::lock_guard ga(a);
      });
    });
    FAIL("no deadlock reported");
  } catch (const sim::Failure& f) {
    std::string what = f.what();
    CHECK_THAT(what, Catch::Contains("deadlock"));
    CHECK_THAT(what, Catch::Contains("'first': blocked at Mutex::lock (held)"));
    CHECK_THAT(what, Catch::Contains("'second': blocked at Mutex::lock (held)"));
    CHECK_THAT(what, Catch::Contains("'main': blocked at Thread::join"));
  }
}

TEST_CASE("points without end at one instant are a livelock, not a hang") {
  sim::Settings s = with_seed(1);
  s.max_steps_per_instant = 10'000;
  sim::World w(s);
  try {
    w.run([&] {
      Mutex m;
      bool released = false;
      Thread holder("holder", [&] {
        std::unique_lock lock(m);
        default_clock().sleep_for(1s);  // holds m while it sleeps
        released = true;
      });
      default_clock().sleep_for(1ms);
      while (!m.try_lock()) {
      }  // polls without ever yielding: virtual time cannot move
      m.unlock();
    });
    FAIL("no livelock reported");
  } catch (const sim::Failure& f) {
    CHECK_THAT(std::string(f.what()), Catch::Contains("livelock"));
  }
}

TEST_CASE("a spin loop that yields lets virtual time move") {
  sim::World w;
  w.run([&] {
    Mutex m;
    Thread holder("holder", [&] {
      std::lock_guard g(m);
      default_clock().sleep_for(1s);
    });
    default_clock().sleep_for(1ms);
    while (!m.try_lock()) this_thread::yield();
    m.unlock();
  });
  CHECK(w.now() >= 1s);
}

TEST_CASE("each simulated thread keeps its own exception state across switches") {
  sim::World w;
  int caught = 0;
  w.run([&] {
    Mutex m;
    std::vector<Thread> threads;
    for (int i = 0; i < 3; ++i)
      threads.emplace_back("thrower", [&, i] {
        try {
          throw std::runtime_error("mine " + std::to_string(i));
        } catch (const std::runtime_error& e) {
          this_thread::yield();  // switch out inside the catch while the others throw
          std::lock_guard g(m);
          CHECK(std::string(e.what()) == "mine " + std::to_string(i));
          CHECK(std::uncaught_exceptions() == 0);
          ++caught;
        }
      });
  });
  CHECK(caught == 3);
}

TEST_CASE("thread_value: each simulated thread has its own") {
  struct Tag;
  sim::World w;
  std::vector<int> seen;
  w.run([&] {
    std::vector<Thread> threads;
    for (int i = 1; i <= 3; ++i)
      threads.emplace_back("t", [&, i] {
        thread_value<int, Tag>() = i;
        this_thread::yield();
        seen.push_back(thread_value<int, Tag>());
      });
  });
  std::sort(seen.begin(), seen.end());
  CHECK(seen == std::vector<int>{1, 2, 3});
}

TEST_CASE("what the root throws comes out of run()") {
  sim::World w;
  CHECK_THROWS_WITH(w.run([] { throw std::runtime_error("from main"); }), "from main");
}

TEST_CASE("cost presets and overrides are parsed, and bad ones named") {
  CHECK(sim::parse_costs("goroutines").wake == 200ns);
  sim::Costs c = sim::parse_costs("os-threads,wake=5us,quantum=4ms");
  CHECK(c.wake == 5us);
  CHECK(c.quantum == 4ms);
  CHECK(c.start == 36us);
  // OpenJDK 17's threads (docs/simulation.md, "The jvm preset"): the caller's
  // Thread.start, start to run, and a parked thread's way back to work.
  const sim::Costs jvm = sim::parse_costs("jvm");
  CHECK(jvm.name == "jvm");
  CHECK(jvm.start == 44us);
  CHECK(jvm.start + jvm.wake == 74us);
  CHECK(jvm.resume == 80us);
  CHECK(jvm.handoff == sim::costs_preset("os-threads").handoff);
  CHECK_THROWS_WITH(sim::parse_costs("fibers"), Catch::Contains("expected one of: os-threads, goroutines, jvm, processes, free, or runtime"));
  CHECK_THROWS_WITH(sim::parse_costs("free,wake"), Catch::Contains("expected key=duration"));
  CHECK_THROWS_WITH(sim::parse_costs("free,warp=1s"), Catch::Contains("expected one of start, wake"));
  CHECK_THROWS_WITH(sim::parse_costs("free,wake=soon"), Catch::Contains("'soon' is not a duration"));
  CHECK_THROWS_WITH(sim::parse_costs("free,quantum=0s"), Catch::Contains("quantum"));
}
