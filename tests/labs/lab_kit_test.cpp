// The lab kit itself: how a check finds the pool it grades, and its hints.
#include <atomic>
#include <cstdlib>

#include "labs/checks/lab_check.h"

using namespace poolscope;

TEST_CASE("lab kit: the pool under test is the reference solution unless POOLSCOPE_LAB_POOL names another") {
  ::unsetenv("POOLSCOPE_LAB_POOL");
  CHECK(lab::pool_under_test("01", "lab01-fixed") == "lab01-fixed");
  ::setenv("POOLSCOPE_LAB_POOL", "coremax", 1);
  CHECK(lab::pool_under_test("01", "lab01-fixed") == "coremax");
  ::unsetenv("POOLSCOPE_LAB_POOL");
}

TEST_CASE("lab kit: every reference solution is registered as a lab pool with its handout") {
  for (const char* name : {"lab01-fixed", "lab02-reaping", "lab03-keepalive", "lab04-overload"}) {
    CAPTURE(name);
    const Design* d = Registry::global().find(name);
    REQUIRE(d != nullptr);
    CHECK(d->origin == "lab");
    CHECK(d->docs.starts_with("docs/labs/"));
  }
}

TEST_CASE("lab kit: each check carries a hint") {
  CHECK_FALSE(lab::hint_for("01.3 the queue is bounded: past max_queue waiting tasks a post is refused").empty());
  CHECK(lab::hint_for("no such check").empty());
}

TEST_CASE("lab kit: the stress checks' rounds come from POOLSCOPE_LAB_REPEAT, 3 by default") {
  ::unsetenv("POOLSCOPE_LAB_REPEAT");
  CHECK(lab::stress_rounds() == 3);
  ::setenv("POOLSCOPE_LAB_REPEAT", "20", 1);
  CHECK(lab::stress_rounds() == 20);
  ::setenv("POOLSCOPE_LAB_REPEAT", "0", 1);
  CHECK(lab::stress_rounds() == 1);
  ::unsetenv("POOLSCOPE_LAB_REPEAT");
}

TEST_CASE("lab kit: race() releases every submitter and joins them all") {
  std::atomic<int> ran{0};
  lab::race(5, [&](int) { ran++; });
  CHECK(ran.load() == 5);
}
