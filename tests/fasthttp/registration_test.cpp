// The registry entry and the Pool adapter: parameters, config errors, fates.
#include <atomic>
#include <vector>

#include "pools/core/registry.h"
#include "tests/fasthttp/rig.h"

using namespace poolscope;
using namespace poolscope::fasthttp;
using namespace std::chrono_literals;
using test::await_event;

TEST_CASE("registry entry: parameters with the original's defaults, none live") {
  const Design& d = Registry::global().get("fasthttp");
  CHECK(d.origin == "design");
  CHECK(d.docs == "docs/pools/fasthttp.md");
  REQUIRE(d.param("MaxWorkersCount"));
  CHECK(d.param("MaxWorkersCount")->default_value == kDefaultMaxWorkersCount);
  CHECK(d.param("MaxWorkersCount")->max == 256 * 1024);  // fasthttp's DefaultConcurrency
  REQUIRE(d.param("MaxIdleWorkerDuration"));
  CHECK(d.param("MaxIdleWorkerDuration")->default_value == "10s");
  REQUIRE(d.param("workerChanCap"));
  CHECK(d.param("workerChanCap")->default_value == "auto");
  for (const ParamSpec& p : d.params) {
    CHECK_FALSE(p.live);
    CHECK_FALSE(p.help.empty());
  }
}

TEST_CASE("registry entry: config errors name the parameter, params() returns the config") {
  auto make = [](const json& config) { return Registry::global().create("fasthttp", config, {}); };
  auto error_at = [&](const json& config) -> std::string {
    try {
      make(config);
    } catch (const ConfigError& e) {
      return e.path();
    }
    return "no error";
  };
  CHECK(error_at({{"MaxWorkersCount", 0}}) == "/MaxWorkersCount");
  CHECK(error_at({{"MaxIdleWorkerDuration", "ten seconds"}}) == "/MaxIdleWorkerDuration");
  CHECK(error_at({{"MaxIdleWorkerDuration", "-1s"}}) == "no error");  // Go: <= 0 means 10 s (below)
  CHECK(error_at({{"workerChanCap", "2"}}) == "/workerChanCap");
  CHECK(error_at({{"flavor", "rulego-sharded"}}) == "/flavor");
  CHECK(error_at({{"rulego-version", "v0.30.0"}}) == "/rulego-version");
  const json config = {
      {"MaxWorkersCount", 3}, {"MaxIdleWorkerDuration", "2s"}, {"workerChanCap", "0"}, {"flavor", "rulego"}, {"rulego-version", "v0.31.2"}};
  CHECK(make(config)->params() == config);
}

TEST_CASE("adapter: a refusal carries no-idle-workers, fasthttp's reason for a 503") {
  ManualClock clock;
  auto pool = Registry::global().create("fasthttp", {{"MaxWorkersCount", 1}}, {.clock = &clock});
  test::Gate gate;
  CHECK(pool->submit(gate.task()).accepted());
  SubmitResult r = pool->submit([] {});
  CHECK(r.fate == Fate::refused);
  CHECK(r.reason == kNoIdleWorkers);
  CHECK(label_code(r.reason) == "no-idle-workers");
  gate.open();
  pool->shutdown(ShutdownMode::now);  // nothing ever waits, so nothing is dropped
  CHECK(pool->accounting().dropped == 0);
  CHECK(pool->accounting().completed == 1);
}

TEST_CASE("adapter: MaxIdleWorkerDuration 0 or less means 10s (getMaxIdleWorkerDuration)") {
  const std::string duration = GENERATE(as<std::string>{}, "0s", "-1s");
  CAPTURE(duration);
  ManualClock clock;
  TraceStream stream;
  TraceLog log(stream);
  auto pool = Registry::global().create("fasthttp", {{"MaxIdleWorkerDuration", duration}},
                                        {.clock = &clock, .stream = &stream});
  CHECK(pool->params()["MaxIdleWorkerDuration"] == duration);  // kept as given, like Go's field
  auto pass = is_kind(EventKind::cleaner_pass, kCleanerPass);
  CHECK(await_event(log, pass, "the pass at start").time == 0);
  REQUIRE(clock.await_waiters(1));
  clock.advance(10s - 1ns);
  REQUIRE(clock.await_waiters(1));  // still asleep
  log.sync();
  CHECK(log.count(pass) == 1);  // and the next pass comes at 10 s, not before
  clock.advance(1ns);
  CHECK(await_event(log, pass, "the next pass").time == Time(10s).count());
}

TEST_CASE("adapter: with unbuffered channels (workerChanCap 0) the invariant holds under 4 submitters") {
  ManualClock clock;
  auto pool =
      Registry::global().create("fasthttp", {{"MaxWorkersCount", 3}, {"workerChanCap", "0"}}, {.clock = &clock});
  std::atomic<std::uint64_t> ran{0}, accepted{0};
  {
    std::vector<Thread> submitters;
    for (int s = 0; s < 4; ++s)
      submitters.emplace_back("submitter", [&] {
        for (int i = 0; i < 2000; ++i) accepted += pool->submit([&] { ran++; }).accepted();
      });
  }
  pool->shutdown(ShutdownMode::graceful);
  Accounting acc = pool->accounting();
  CHECK(acc.submitted == 8000);
  CHECK(acc.completed == accepted);
  CHECK(ran == accepted);
  CHECK(acc.balanced());
  CHECK(pool->state() == Counters{});
}
