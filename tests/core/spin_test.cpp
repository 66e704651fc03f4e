// pools/core/spin.h: Go's cap on spinners in a real run (max(1, gomaxprocs() / 2)
// threads spin at once; any other asks once and parks). Every wait is on an
// event (a latch, an atomic), never on the wall clock.
#include <algorithm>
#include <atomic>
#include <latch>
#include <thread>
#include <vector>

#include <catch2/catch.hpp>

#include "pools/core/spin.h"

using namespace poolscope;

TEST_CASE("spin_until: no more threads spin at once than max(1, gomaxprocs() / 2)") {
  const int cap = max_spinners();
  REQUIRE(cap == std::max(1, go::gomaxprocs() / 2));
  constexpr int kThreads = 64;
  constexpr int kWaits = 20;
  std::atomic<int> most{0};
  std::latch start(kThreads);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t)
    threads.emplace_back([&] {
      start.arrive_and_wait();
      for (int i = 0; i < kWaits; ++i)
        spin_until([&] {  // never ready: every call spins its whole length, or asks once
          const int now = spinners_now.load();
          int seen = most.load();
          while (now > seen && !most.compare_exchange_weak(seen, now)) {
          }
          return false;
        });
    });
  for (auto& t : threads) t.join();
  CHECK(most.load() <= cap);
  if (may_spin()) CHECK(most.load() >= 1);  // a spinner asks ready() while counted
  CHECK(spinners_now.load() == 0);          // every slot given back
}

TEST_CASE("spin_until: with every spinner's place taken, a waiter asks ready() once and returns") {
  const int cap = max_spinners();
  std::latch spinning(cap);
  std::atomic<bool> release{false};
  std::vector<std::thread> spinners;
  for (int t = 0; t < cap; ++t)
    spinners.emplace_back([&] {
      bool first = true;
      spin_until([&] {  // holds its place, inside ready(), until released
        if (first) {
          first = false;
          spinning.count_down();
          release.wait(false);
        }
        return true;
      });
    });
  spinning.wait();
  if (may_spin()) CHECK(spinners_now.load() == cap);
  int calls = 0;
  CHECK_FALSE(spin_until([&] {
    ++calls;
    return false;
  }));
  CHECK(calls == 1);
  release = true;
  release.notify_all();
  for (auto& t : spinners) t.join();
  CHECK(spinners_now.load() == 0);
}
