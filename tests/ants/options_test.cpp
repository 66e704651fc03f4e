// options.go's functional options, and ants.go's package-level default pool.
#include <atomic>

#include "tests/ants/rig.h"

using namespace poolscope;
using namespace poolscope::ants;
using namespace poolscope::ants::test;

TEST_CASE("ants options: With... functions set what the designated initializers set (options.go)") {
  std::atomic<int> logged{0};
  const Options o = loadOptions({WithExpiryDuration(3s), WithPreAlloc(true), WithMaxBlockingTasks(7),
                                 WithNonblocking(true), WithPanicHandler([](std::exception_ptr) {}),
                                 WithLogger([&](const std::string&) { ++logged; }), WithDisablePurge(true)});
  CHECK(o.ExpiryDuration == 3s);
  CHECK(o.PreAlloc);
  CHECK(o.MaxBlockingTasks == 7);
  CHECK(o.Nonblocking);
  CHECK(o.PanicHandler);
  CHECK(o.DisablePurge);
  o.Logger("x");
  CHECK(logged == 1);

  // WithOptions replaces the whole struct; later options apply on top.
  const Options w = loadOptions({WithNonblocking(true), WithOptions({.MaxBlockingTasks = 2}), WithPreAlloc(true)});
  CHECK_FALSE(w.Nonblocking);
  CHECK(w.MaxBlockingTasks == 2);
  CHECK(w.PreAlloc);

  // NewPool(size, options...) checks them as NewPool does.
  CHECK(NewPool(10, WithExpiryDuration(-1ns)).error() == ErrInvalidPoolExpiry);
  CHECK(NewPool(-1, WithPreAlloc(true)).error() == ErrInvalidPreAllocSize);
  CHECK(NewPoolWithFuncGeneric<int>(10, nullptr, WithNonblocking(true)).error() == ErrLackPoolFunc);
  auto p = NewPool(1, WithNonblocking(true));
  REQUIRE(p);
  Gate gate;
  REQUIRE_FALSE((*p)->submit(gate.task()));
  CHECK((*p)->submit([] {}) == ErrPoolOverload);
  gate.open();
}

// ants_test.go TestRebootDefaultPool (76ddb18), on the default pool (real
// time; demoFunc's 10 ms sleep is a gate here, and ReleaseTimeout's 1 s
// is only a bound: the task has ended before it is called).
TEST_CASE("ants default pool: Submit, ReleaseTimeout, Reboot (TestRebootDefaultPool)") {
  Reboot();  // should do nothing inside
  CHECK(Cap() == DefaultAntsPoolSize);
  std::atomic<bool> done{false};
  REQUIRE_FALSE(Submit([&] { done = true; }));
  await_condition([&] { return done.load(); }, "wg.Wait()");
  CHECK(Free() == DefaultAntsPoolSize - Running());
  REQUIRE_FALSE(ReleaseTimeout(1s));
  CHECK(Submit(nullptr) == ErrPoolClosed);  // "pool should be closed"
  Reboot();
  done = false;
  REQUIRE_FALSE(Submit([&] { done = true; }));  // "pool should be rebooted"
  await_condition([&] { return done.load(); }, "wg.Wait()");
  Release();
  Reboot();  // left open for the next test that uses it
}
