// The lab kit itself: how a check finds the pool it grades, and its hints.
#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <functional>
#include <string>
#include <vector>

#include "labs/checks/lab_check.h"
#include "pools/core/sim/world.h"
#include "pools/core/sync.h"
#include "pools/core/thread.h"

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

TEST_CASE("lab kit: explore_schedules runs each schedule in a simulation and names the first that fails") {
  int runs = 0;
  std::vector<std::uint64_t> orders;
  std::string problem = lab::explore_schedules(20, [&]() -> std::string {
    ++runs;
    CHECK(sim::active() != nullptr);  // inside a simulation
    std::string order;
    Mutex m;
    std::vector<Thread> threads;
    for (char c : std::string("ab"))
      threads.emplace_back(std::string(1, c), [&, c] {
        for (int i = 0; i < 3; ++i) {
          std::lock_guard g(m);
          order += c;
        }
      });
    for (Thread& t : threads) t.join();
    orders.push_back(std::hash<std::string>{}(order));
    return runs == 7 ? "the seventh went wrong" : "";
  });
  CHECK(runs == 7);
  CHECK(problem == "schedule 7 of 20 (seed 7, random): the seventh went wrong");
  std::sort(orders.begin(), orders.end());
  CHECK(std::unique(orders.begin(), orders.end()) - orders.begin() > 1);  // the schedules differ
}

TEST_CASE("lab kit: explore_schedules reports a deadlock of the simulation as the schedule's failure") {
  std::string problem = lab::explore_schedules(3, [&]() -> std::string {
    CondVar never;
    Mutex m;
    std::unique_lock lock(m);
    never.wait(lock);
    return "";
  });
  CHECK(problem.starts_with("schedule 1 of 3 (seed 1, random): "));
  CHECK(problem.find("deadlock") != std::string::npos);
}

TEST_CASE("lab kit: sim_burst accounts for every task and keeps the pool's trace") {
  lab::SimBurstResult r;
  std::string problem = lab::explore_schedules(1, [&]() -> std::string {
    r = lab::sim_burst("lab01-fixed", {{"threads", 1}, {"max_queue", 100}},
                       {.submitters = 2, .each = 3, .hold = std::chrono::milliseconds(1), .settle = std::chrono::seconds(1)});
    return "";
  });
  CHECK(problem.empty());
  CHECK(r.accepted == 6);
  CHECK(r.ran_before_shutdown == 6);
  CHECK(r.ran == 6);
  CHECK(std::count_if(r.events.begin(), r.events.end(), [](const Event& e) { return e.kind == EventKind::task_queued; }) == 6);
}
