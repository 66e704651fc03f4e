// Thread exhaustion. On the engine's side: any thread the engine starts (the
// controller, a submitter, a client, a closer) or a pool needs at creation
// may be refused. The run then ends early and cleanly: status
// thread-refused, which thread in run.thread_refused, every submitted task
// accounted for, no std::terminate. (The refusals are
// poolscope::testing::refuse_threads, pools/core/thread.h.)
#include <catch2/catch.hpp>

#include <atomic>

#include "pools/core/registry.h"
#include "pools/core/thread.h"
#include "scenarios/engine/engine.h"
#include "scenarios/engine/result_json.h"
#include "tests/support/designs.h"

using namespace poolscope;
using namespace poolscope::scenario;
using Catch::Matchers::Contains;

namespace {

Scenario small(const std::string& arrival, const std::string& design = "fasthttp") {
  json j = json::parse(R"({"name": "t", "lesson": "l", "time_scale": 20, "submitters": 2,
    "task": {"duration": "5ms"},
    "phases": [{"duration": "200ms", "arrival": )" + arrival + R"(}],
    "pools": [{"design": ")" + design + R"("}, {"name": "second", "design": "java"}]})");
  return parse_scenario(j, "t.json", ".");
}

// Disarms the refusal whatever happens.
struct Refuse {
  Refuse(const std::string& prefix, std::size_t n, std::size_t skip = 0) { testing::refuse_threads(prefix, n, skip); }
  ~Refuse() { testing::refuse_threads("", 0); }
};

void check_accounted(const RunResult& r) {
  for (const PoolOutcome& p : r.outcome.pools) {
    INFO(p.name);
    CHECK(p.accounting.submitted == p.accounting.settled());
    if (const auto* pm = r.metrics.pool(p.trace_id)) CHECK(invariant_problem(p, pm->totals(), true).empty());
  }
}

}  // namespace

TEST_CASE("a refused submitter ends the run early, with status thread-refused and nothing lost") {
  Scenario s = small(R"({"kind": "constant", "rate": 200})");
  Refuse refuse("submit-", 1);
  RunResult r = run_scenario(s);
  REQUIRE(r.outcome.thread_refused);
  CHECK_THAT(*r.outcome.thread_refused, Contains("submitter 0 of pool 'fasthttp'"));
  CHECK_THAT(*r.outcome.thread_refused, Contains("Resource temporarily unavailable"));
  CHECK(run_status(r.outcome, r.metrics) == RunStatus::thread_refused);
  CHECK(r.outcome.stopped);
  check_accounted(r);
}

TEST_CASE("a refused closed-loop client ends the run early and cleanly") {
  Scenario s = small(R"({"kind": "closed_loop", "clients": 3})");
  Refuse refuse("client-", 2);
  RunResult r = run_scenario(s);
  REQUIRE(r.outcome.thread_refused);
  CHECK_THAT(*r.outcome.thread_refused, Contains("client "));
  CHECK(run_status(r.outcome, r.metrics) == RunStatus::thread_refused);
  check_accounted(r);
}

TEST_CASE("a refused closer: the pool is shut down on the controller instead") {
  Scenario s = small(R"({"kind": "burst", "count": 10})");
  Refuse refuse("closer", 2);
  RunResult r = run_scenario(s);
  REQUIRE(r.outcome.thread_refused);
  CHECK_THAT(*r.outcome.thread_refused, Contains("closer for pool"));
  CHECK(run_status(r.outcome, r.metrics) == RunStatus::thread_refused);
  check_accounted(r);
}

TEST_CASE("a refused controller: the run does not start, and says why") {
  Scenario s = small(R"({"kind": "burst", "count": 10})");
  Refuse refuse("run", 1);
  Run run(s);
  run.start();
  run.wait();
  CHECK(run.finished());
  REQUIRE(run.outcome().thread_refused);
  CHECK_THAT(*run.outcome().thread_refused, Contains("controller"));
  CHECK(run_status(run.outcome(), run.metrics()) == RunStatus::thread_refused);
  CHECK(run.outcome().pools.size() == 2);
  std::ostringstream out;
  write_result(out, s, run.outcome(), run.metrics(), {});
  CHECK(json::parse(out.str())["status"] == "thread-refused");
}

TEST_CASE("a pool refused its helper thread at creation does not run: the others end early") {
  Scenario s = small(R"({"kind": "burst", "count": 10})");
  Refuse refuse("fasthttp-clean", 1);
  RunResult r = run_scenario(s);
  REQUIRE(r.outcome.thread_refused);
  CHECK_THAT(*r.outcome.thread_refused, Contains("pool 'fasthttp' at creation"));
  CHECK(r.outcome.pools[0].trace_id == kNoTrace);
  check_accounted(r);
}

// Each kind of thread, per design: the k-th thread started from the pool's
// creation on (a helper at creation, the first worker, a later worker, a
// helper started later) is refused. The pool either refuses to be created
// (and leaves no thread behind) or runs on: every task accounted for, no
// hang, every thread joined. On a manual clock that never moves, so no timed
// behaviour adds threads behind the test's back.
TEST_CASE("per design, whichever thread the OS refuses, nothing is lost, nothing hangs, nothing leaks") {
  auto design = GENERATE(from_range(test::designs()));
  auto k = GENERATE(range(0, 5));
  CAPTURE(design, k);
  ManualClock clock;
  TraceStream stream{std::size_t{1} << 16};
  const std::size_t threads_before = live_threads();
  {
    Refuse refuse("", 1, static_cast<std::size_t>(k));
    std::unique_ptr<Pool> pool;
    try {
      pool = Registry::global().create(design, nullptr, {.clock = &clock, .stream = &stream, .name = design});
    } catch (const std::system_error& e) {
      CHECK(e.code() == std::errc::resource_unavailable_try_again);  // refused at creation, and said so
    }
    if (pool) {
      int accepted = 0;
      std::atomic<int> ran{0};
      for (int i = 0; i < 20; ++i) accepted += pool->submit([&] { ++ran; }).accepted() ? 1 : 0;
      pool->shutdown(ShutdownMode::graceful);
      const Accounting acc = pool->accounting();
      CHECK(acc.submitted == 20);
      CHECK(acc.balanced());
      CHECK(acc.completed == static_cast<std::uint64_t>(accepted));
      CHECK(ran == accepted);
    }
  }
  CHECK(live_threads() == threads_before);
}
