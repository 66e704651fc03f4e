// Faults inside tasks, on every registered design (lab pools included): a
// task that stops its own pool, one that submits to its own stopped pool,
// and one that never ends. (A task that throws is in the conformance suite.)
// docs/reliability.md puts each outcome beside what the original does.
//
// The pools run in the deterministic simulation, so that a design that
// waits for itself is reported as a deadlock naming every thread, instead of
// hanging the test; the self-stop also runs once on real threads, for the
// sanitizers.
#include <catch2/catch.hpp>
#include <algorithm>
#include <atomic>

#include "pools/core/registry.h"
#include "pools/core/sim/world.h"
#include "scenarios/engine/engine.h"
#include "scenarios/engine/findings.h"
#include "tests/support/designs.h"

using namespace poolscope;
using namespace std::chrono_literals;

namespace {

using test::designs;

std::unique_ptr<Pool> make_pool(const std::string& design, Clock& clock, TraceStream& stream) {
  return Registry::global().create(design, nullptr, {.clock = &clock, .stream = &stream, .name = design});
}

// Waits on `clock` (virtual time in a World) until `done`, at most 10 s of it.
bool wait_on(Clock& clock, const std::function<bool()>& done) {
  for (int i = 0; i < 10'000 && !done(); ++i) clock.sleep_for(1ms);
  return done();
}

// A task calls shutdown(mode) on its own pool: the call returns, the pool
// stops accepting, and the owner's shutdown waits for the stop. Every task
// is accounted for.
void self_stop(Pool& pool, Clock& clock, ShutdownMode mode) {
  std::atomic<bool> returned{false};
  REQUIRE(pool.submit([&] {
                pool.shutdown(mode);
                returned = true;
              })
              .accepted());
  CHECK(wait_on(clock, [&] { return returned.load(); }));
  CHECK(wait_on(clock, [&] { return pool.submit([] {}).fate == Fate::closed; }));
  pool.shutdown(ShutdownMode::graceful);
  CHECK(pool.accounting().balanced());
}

}  // namespace

TEST_CASE("faults: a task that stops its own pool returns, and the pool stops behind it") {
  auto design = GENERATE(from_range(designs()));
  auto mode = GENERATE(ShutdownMode::graceful, ShutdownMode::now);
  CAPTURE(design, mode == ShutdownMode::graceful ? "graceful" : "now");
  TraceStream stream{std::size_t{1} << 16};
  sim::World world;
  world.run([&] {
    std::unique_ptr<Pool> pool = make_pool(design, world.clock(), stream);
    self_stop(*pool, world.clock(), mode);
  });
  CHECK(world.leaked().empty());
}

TEST_CASE("faults: a task that stops its own pool, on real threads") {
  auto design = GENERATE(from_range(designs()));
  CAPTURE(design);
  TraceStream stream{std::size_t{1} << 16};
  SteadyClock clock;
  const std::size_t threads_before = live_threads();
  {
    std::unique_ptr<Pool> pool = make_pool(design, clock, stream);
    self_stop(*pool, clock, ShutdownMode::graceful);
  }
  CHECK(live_threads() == threads_before);
}

TEST_CASE("faults: a task that submits to its own stopped pool is refused as closed") {
  auto design = GENERATE(from_range(designs()));
  CAPTURE(design);
  TraceStream stream{std::size_t{1} << 16};
  sim::World world;
  std::atomic<int> fate{-1};
  std::atomic<bool> ran{false};
  world.run([&] {
    std::unique_ptr<Pool> pool = make_pool(design, world.clock(), stream);
    REQUIRE(pool->submit([&] {
                  world.clock().sleep_for(50ms);  // the owner's graceful shutdown begins meanwhile
                  fate = static_cast<int>(pool->submit([&] { ran = true; }).fate);
                })
                .accepted());
    world.clock().sleep_for(10ms);
    pool->shutdown(ShutdownMode::graceful);
    CHECK(pool->accounting().balanced());
  });
  CHECK(fate == static_cast<int>(Fate::closed));
  CHECK_FALSE(ran);
  CHECK(world.leaked().empty());
}

TEST_CASE("faults: a task that never ends is named by the watchdog, in every design at once") {
  // One task sleeps for a million hours, then short tasks run and end; a
  // simulated run, so the hour never passes on the wall clock.
  json pools = json::array();
  for (const std::string& d : designs()) pools.push_back({{"design", d}});
  const json j = {
      {"name", "never-ends"},
      {"lesson", "a task that never ends holds its worker"},
      {"seed", 1},
      {"watchdog", "1s"},
      {"simulation", true},
      {"phases",
       {{{"duration", "10ms"},
         {"arrival", {{"kind", "burst"}, {"count", 1}}},
         {"task", {{"kind", "sleep"}, {"duration", "1000000h"}}}},
        {{"duration", "100ms"},
         {"arrival", {{"kind", "constant"}, {"rate", 100}}},
         {"task", {{"kind", "sleep"}, {"duration", "1ms"}}}}}},
      {"pools", pools}};
  scenario::Scenario s = scenario::parse_scenario(j, "never-ends.json", ".");
  scenario::RunResult r = scenario::run_scenario(s);
  const auto found = findings::find(r.outcome, r.metrics);
  for (const scenario::PoolOutcome& p : r.outcome.pools) {
    INFO(p.name);
    REQUIRE(p.stall);
    CHECK(p.stall->reason == "no-progress");
    CHECK(p.stall->state.busy >= 1);
    // Java's shutdownNow interrupts the sleep (Thread.sleep throws); no
    // other design can take a running thread back.
    if (p.design == "java") CHECK(p.accounting.threw == 1);
    const auto f = std::find_if(found.begin(), found.end(),
                                [&](const findings::Finding& f) { return f.pool == p.name && f.rule == "stall"; });
    REQUIRE(f != found.end());
    if (p.stall->state.queued == 0) CHECK_THAT(f->why, Catch::Matchers::Contains("never ends"));
  }
}
