// An empty Task is poolscope's null (issue 36, item 1). Every design takes
// it as its original takes a nil/null task, in the original's own terms,
// and never calls it: calling an empty std::move_only_function is
// undefined (it crashed Java's submit(task, result) in the worker).
// docs/reliability.md ("An empty task") has the table this test holds.
#include <catch2/catch.hpp>

#include <atomic>
#include <map>
#include <stdexcept>
#include <string>

#include "pools/core/registry.h"
#include "tests/support/designs.h"
#include "tests/support/sync.h"

using namespace poolscope;

namespace {

// What the design does with an empty task handed to Pool::submit.
enum class Takes {
  throws,    // refused at the call with an exception, nothing counted
  refused,   // refused with the design's own rule
  dropped,   // accepted; the worker ends without running it (ants' exit signal)
  threw,     // accepted; it "panics" in the worker (gopool's recover)
  ignored,   // a no-op, nothing counted (gammazero's `if task != nil`)
};

const std::map<std::string, Takes>& expected() {
  static const std::map<std::string, Takes> m{
      {"ants", Takes::dropped},        {"ants-multi", Takes::dropped}, {"coremax", Takes::throws},
      {"fasthttp", Takes::throws},     {"gammazero", Takes::ignored},  {"gopool", Takes::threw},
      {"java", Takes::throws},         {"nginx", Takes::throws},       {"phpfpm", Takes::throws},
      {"redis-bio", Takes::throws},    {"redis-io", Takes::throws},    {"spawn", Takes::throws},
      {"weedge", Takes::refused},
  };
  return m;
}

}  // namespace

TEST_CASE("null task: every design takes an empty Task as its original takes a null, and never calls it") {
  auto design = GENERATE(from_range(test::designs()));
  auto it = expected().find(design);
  CAPTURE(design);
  ManualClock clock;
  TraceStream stream{std::size_t{1} << 16};
  auto pool = Registry::global().create(design, nullptr, {.clock = &clock, .stream = &stream, .name = design});

  // A lab's pool (a reference solution, or a student's copy): its frame
  // (registration.cpp) refuses a null at the call, as the lab's original
  // does, so a student's worker never takes it for its own exit signal.
  const Takes takes = it != expected().end() ? it->second : Takes::throws;
  REQUIRE((it != expected().end() || design.starts_with("lab")));
  switch (takes) {
    case Takes::throws:
      CHECK_THROWS_AS(pool->submit(Task{}), std::logic_error);
      CHECK(pool->accounting().submitted == 0);
      break;
    case Takes::refused:
      CHECK(pool->submit(Task{}).fate == Fate::refused);
      CHECK(pool->accounting().refused == 1);
      break;
    case Takes::dropped:
      CHECK(pool->submit(Task{}).accepted());
      test::await_condition([&] { return pool->accounting().dropped == 1; }, "the nil task dropped");
      break;
    case Takes::threw:
      CHECK(pool->submit(Task{}).accepted());
      test::await_condition([&] { return pool->accounting().threw == 1; }, "the nil task's panic");
      break;
    case Takes::ignored:
      CHECK(pool->submit(Task{}).accepted());
      CHECK(pool->accounting().submitted == 0);
      break;
  }
  // The pool still works, and everything is accounted for.
  std::atomic<bool> ran{false};
  CHECK(pool->submit([&] { ran = true; }).accepted());
  test::await_condition([&] { return ran.load(); }, "a task after the null one ran");
  pool->shutdown(ShutdownMode::graceful);
  CHECK(pool->accounting().balanced());
}
