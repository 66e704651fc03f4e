// weedge against the real workerpool (issue 42, item 12), in the
// deterministic simulation: virtual time on the default machine, so the
// figures are exact and the same every run.
#include <stdexcept>
#include <string>

#include <catch2/catch.hpp>

#include "pools/core/sim/world.h"
#include "pools/core/trace_log.h"
#include "pools/weedge/workerpool.h"

using namespace poolscope;
using namespace std::chrono_literals;
using WTask = weedge::Task;

namespace {

double ms(std::int64_t ns) { return static_cast<double>(ns) / 1e6; }

}  // namespace

// Measured on weedge/lib a36dcc1 under Go 1.19: one worker, TimeOut 200 ms,
// a task that panics after 10 ms and one of 300 ms behind it. GoSafely
// recovers the panic and sends no result, so the worker waits for its timer:
// the first task is reported timed out at 200 ms, the next starts at
// 200.5-201.8 ms and times out in its turn: 2 timeouts. (poolscope closed
// the result channel instead: the next task started at 11 ms, 1 timeout.)
TEST_CASE("weedge, simulated: a task that panics holds its worker until the timer, as in Go (200 ms, 2 timeouts)") {
  TraceStream stream{std::size_t{1} << 16};
  TraceLog log{stream};
  sim::World world;
  world.run([&] {
    Clock& clock = world.clock();
    auto wp = weedge::NewWorkerPool(1, 1, 3, {.clock = &clock, .stream = &stream, .name = "weedge"});
    REQUIRE(wp);
    wp->Run();
    auto sleeping = [&](Nanos d, bool panics) {
      return WTask{.Do =
                       [&clock, d, panics](std::any&, std::any&) -> bool {
                         clock.sleep_for(d);
                         if (panics) throw std::runtime_error("panic");
                         return true;
                       },
                   .InParam = 1,
                   .OutParam = 1,
                   .TimeOut = 200ms};
    };
    REQUIRE(wp->AddTask(sleeping(10ms, true)) == kNoLabel);
    REQUIRE(wp->AddTask(sleeping(300ms, false)) == kNoLabel);
    clock.sleep_until(Time(1s));
    wp->Stop();
  });
  REQUIRE(world.leaked().empty());

  log.sync();
  std::vector<double> started, timeouts, threw;
  for (const Event& e : log.events()) {
    if (e.kind == EventKind::task_started) started.push_back(ms(e.time));
    if (e.kind == EventKind::task_threw) threw.push_back(ms(e.time));
    if (e.kind == EventKind::pool_state && label_code(e.rule) == "task-timeout") timeouts.push_back(ms(e.time));
  }
  INFO("measured on Go 1.19, weedge/lib a36dcc1: the next task started at 200.5-201.8 ms; 2 timeouts");
  REQUIRE(threw.size() == 1);
  CHECK(threw[0] == Approx(10).margin(0.5));
  REQUIRE(started.size() == 2);
  CHECK(started[1] >= 200.0);  // not before the first task's timer
  CHECK(started[1] <= 202.0);
  REQUIRE(timeouts.size() == 2);
  CHECK(timeouts[0] == Approx(200).margin(0.5));                 // the panicked task's
  CHECK(timeouts[1] == Approx(started[1] + 200).margin(0.5));    // the 300 ms task's, 200 ms after its pickup
}
