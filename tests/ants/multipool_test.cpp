// ants_test.go's TestMultiPool / TestMultiPoolWithFunc, and the retry-once
// on overload.
#include "pools/ants/multipool.h"

#include <atomic>
#include <stdexcept>
#include <string>

#include "pools/ants/multipool_func.h"
#include "pools/ants/rules.h"
#include "tests/ants/rig.h"

using namespace poolscope;
using namespace poolscope::ants;
using namespace poolscope::ants::test;

TEST_CASE("ants MultiPool: the constructor's checks (TestMultiPool)") {
  CHECK(new_multi_pool(-1, 10, RoundRobin).error() == ErrInvalidMultiPoolSize);
  CHECK(new_multi_pool(0, 10, LeastTasks).error() == ErrInvalidMultiPoolSize);
  CHECK(new_multi_pool(10, -1, static_cast<LoadBalancingStrategy>(8)).error() == ErrInvalidLoadBalancingStrategy);
  CHECK(new_multi_pool(10, 10, RoundRobin, {.ExpiryDuration = -1ns}).error() == ErrInvalidPoolExpiry);
  CHECK(new_multi_pool_with_func<int>(10, 10, nullptr, RoundRobin).error() == ErrLackPoolFunc);
}

TEST_CASE("ants MultiPool: tasks spread over the pools, then release, reboot, tune (TestMultiPool...)") {
  const LoadBalancingStrategy lbs = GENERATE(RoundRobin, LeastTasks);
  const bool withFunc = GENERATE(false, true);
  CAPTURE(static_cast<int>(lbs), withFunc);
  Rig rig;
  Gate gates[2];  // one per round
  std::atomic<int> round{0};
  auto mp = new_multi_pool(10, 5, lbs, {}, rig.target());
  auto mf = new_multi_pool_with_func<int>(
      10, 5, [&](int r) { gates[r].pass(); }, lbs, {}, rig.target());
  REQUIRE(mp);
  REQUIRE(mf);
  auto submit = [&] { return withFunc ? (*mf)->invoke(round) : (*mp)->submit(gates[round].task()); };
  auto check = [&](auto& m) {
    for (; round < 2; ++round) {  // before and after a reboot
      for (int i = 0; i < 50; ++i) REQUIRE_FALSE(submit());
      CHECK(m.running() == 50);
      CHECK(m.free() == 0);
      CHECK(m.cap() == 50);
      CHECK(m.waiting() == 0);
      for (int i = 0; i < 10; ++i) {
        CHECK(m.running_by_index(i) == 5);
        CHECK(m.free_by_index(i) == 0);
        CHECK(m.waiting_by_index(i) == 0);
      }
      CHECK(m.running_by_index(-1).error() == ErrInvalidPoolIndex);
      CHECK(m.free_by_index(11).error() == ErrInvalidPoolIndex);
      CHECK(m.waiting_by_index(10).error() == ErrInvalidPoolIndex);

      gates[round].open();
      CHECK_FALSE(m.release_timeout(3s));
      CHECK(m.release_timeout(3s) == ErrPoolClosed);
      CHECK(submit() == ErrPoolClosed);
      CHECK(m.is_closed());
      CHECK(m.running() == 0);
      m.reboot();
      CHECK_FALSE(m.is_closed());
    }
    m.tune(10);
    CHECK(m.cap() == 100);
  };
  if (withFunc) {
    check(**mf);
  } else {
    check(**mp);
  }
}

TEST_CASE("ants MultiPool: RoundRobin retries an overloaded pick once on the least-loaded pool") {
  Rig rig;
  auto mp = new_multi_pool(2, 1, RoundRobin, {.Nonblocking = true, .Logger = [](const std::string&) {}}, rig.target());
  REQUIRE(mp);
  MultiPool& m = **mp;
  Gate gate;
  REQUIRE_FALSE(m.submit(gate.task()));  // round robin: pool 0, now full
  // Pool 1's only worker throws and exits: pool 1 has no worker left.
  REQUIRE_FALSE(m.submit([] { throw std::runtime_error("Oops!"); }));
  await_condition([&] { return m.running_by_index(1) == 0; }, "pool 1 empty");

  // Round robin picks pool 0 again: overloaded, so the task goes to pool 1.
  std::atomic<bool> ran{false};
  CHECK_FALSE(m.submit([&] { ran = true; }));
  await_condition([&] { return ran.load(); }, "the retried task ran");
  CHECK(m.running_by_index(1) == 1);
  // Its worker must be back in pool 1's stack before the next submit, or
  // pool 1 would look full too. Pool 0's worker is busy: one idle in all.
  await_condition([&] { return m.idle() == 1; }, "pool 1's worker back in its stack");
  rig.log.sync();
  CHECK(rig.log.count(is_kind(EventKind::task_refused)) == 0);

  // Both full: the retry fails too, and one refusal is traced for the task.
  Gate second;
  REQUIRE_FALSE(m.submit(second.task()));  // pool 1 (round robin), reusing its idle worker
  CHECK(m.submit([] {}) == ErrPoolOverload);
  rig.log.sync();
  CHECK(rig.log.count(is_kind(EventKind::task_refused)) == 1);
  gate.open();
  second.open();
}

TEST_CASE("ants MultiPool: LeastTasks does not retry, and counts idle workers as tasks (Running)") {
  Rig rig;
  auto mp = new_multi_pool(2, 1, LeastTasks, {.Nonblocking = true}, rig.target());
  MultiPool& m = **mp;
  REQUIRE_FALSE(m.submit([] {}));  // pool 0; its worker then idles
  await_condition([&] { return m.idle() == 1; }, "pool 0's worker idle");
  Gate gate;
  REQUIRE_FALSE(m.submit(gate.task()));  // pool 1: Running() 0 < 1
  CHECK(m.running_by_index(1) == 1);
  REQUIRE_FALSE(m.submit(gate.task()));  // both Running() 1: the first, pool 0, reuses its idle worker
  CHECK(m.submit([] {}) == ErrPoolOverload);
  gate.open();
}

TEST_CASE("ants MultiPool: ReleaseTimeout joins the pools' errors as Go does") {
  Rig rig;
  auto mp = new_multi_pool(2, 1, RoundRobin, {}, rig.target());
  MultiPool& m = **mp;
  Gate gate;
  REQUIRE_FALSE(m.submit(gate.task()));  // pool 0
  REQUIRE_FALSE(m.submit(gate.task()));  // pool 1
  std::string joined;
  std::error_code err;
  BoundedThread releaser("releaser", [&] { err = m.release_timeout(1s, &joined); });
  // Each pool reads the clock, then releases: after both, a second passes.
  for (int i = 0; i < 2; ++i) await_event(rig.log, is_kind(EventKind::pool_state, ants::rules::kRelease), "released");
  rig.clock.advance(1s);
  releaser.join();
  CHECK(err == ErrTimeout);
  CHECK(joined == "pool 0: operation timed out | pool 1: operation timed out");
  gate.open();
}
