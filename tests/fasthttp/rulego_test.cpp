// rulego's WorkerPool (github.com/rulego/rulego v0.37.0, utils/pool/
// workerpool.go), fasthttp's workerPool with changes, and what rulego's engine
// does when it refuses (engine/rule_context.go SubmitTask): the `flavor=rulego`
// of the fasthttp design (docs/pools/fasthttp.md, "rulego"). The pool's rules
// must otherwise stay fasthttp's.
#include <atomic>

#include "pools/core/registry.h"
#include "pools/fasthttp/rulego.h"
#include "tests/fasthttp/rig.h"

using namespace poolscope;
using namespace poolscope::fasthttp;
using test::Gate;
using test::Rig;

namespace {

// rulego's pool and its engine's SubmitTask on a manual clock, traced.
struct RulegoRig {
  ManualClock clock;
  TraceStream stream{std::size_t{1} << 16};
  TraceLog log{stream};
  rulego::WorkerPool wp;
  rulego::DefaultRuleContext ctx;

  RulegoRig(Config config, rulego::Fallback fallback)
      : wp(config, {.clock = &clock, .stream = &stream, .name = "rulego"}), ctx(wp, fallback) {
    wp.Start();
  }
  ~RulegoRig() {
    wp.Stop();
    wp.join();
    ctx.join();
  }
  std::vector<Event> events(const TraceLog::Pred& pred) {
    log.sync();
    std::vector<Event> out;
    for (const Event& e : log.events())
      if (pred(e)) out.push_back(e);
    return out;
  }
};

}  // namespace

TEST_CASE("rulego Submit: a refusal is the error \"no idle workers\", under the code fasthttp uses, and traces nothing") {
  RulegoRig rig({.MaxWorkersCount = 1}, rulego::Fallback::goroutine);
  Gate gate;
  Job busy{rig.wp.trace().submitted(), gate.task()};
  REQUIRE(rig.wp.Submit(busy));
  bool ran = false;
  Job refused{rig.wp.trace().submitted(), [&] { ran = true; }};
  auto err = rig.wp.Submit(refused);
  REQUIRE_FALSE(err);
  const Label why = err.error();
  CHECK(why == rulego::kErrNoIdleWorkers);
  CHECK(label_code(why) == label_code(kNoIdleWorkers));  // the same rule...
  CHECK(label_text(why) != label_text(kNoIdleWorkers));  // ...in rulego's words
  CHECK(std::string(label_text(why)).find("errors.New(\"no idle workers\")") != std::string::npos);
  CHECK(refused);  // the task is still the caller's: SubmitTask decides
  CHECK(rig.events(is_kind(EventKind::task_refused)).empty());
  gate.open();
  rig.wp.Stop();
  rig.wp.join();
  CHECK_FALSE(ran);
}

TEST_CASE("rulego Start after Stop does nothing (startOnce): no cleaner again, where fasthttp starts one") {
  {
    Rig rig({.MaxWorkersCount = 2});  // fasthttp
    rig.wp.stop();
    rig.wp.join();
    rig.wp.start();
    CHECK(rig.events(is_kind(EventKind::pool_state, kStartCleaner)).size() == 2);
    // mustStop is never reset: a worker serves one task and exits.
    Event e = rig.serve([] {});
    rig.wp.join();
    CHECK(rig.exited(e.worker).rule == kMustStop);
    rig.wp.stop();
  }
  RulegoRig rig({.MaxWorkersCount = 2}, rulego::Fallback::goroutine);
  rig.wp.Stop();
  rig.wp.join();
  rig.wp.Start();
  CHECK(rig.events(is_kind(EventKind::pool_state, kStartCleaner)).size() == 1);
  // Nor is mustStop reset in rulego: the task runs on a worker that then exits.
  REQUIRE(rig.ctx.SubmitTask([] {}));
  rig.wp.join();
  test::await_count(rig.log, is_kind(EventKind::worker_exited, kMustStop), 1, "the worker exits with must-stop");
  rig.wp.Stop();  // stopCh is nil: returns at once
}

TEST_CASE("rulego SubmitTask (v0.31.3 to v0.37.0): a refused task runs on a goroutine of its own, outside the pool") {
  RulegoRig rig({.MaxWorkersCount = 1}, rulego::Fallback::goroutine);
  Gate gate;
  REQUIRE(rig.ctx.SubmitTask(gate.task()));
  gate.await_arrivals(1);
  // The one worker is busy: Submit fails, and the engine runs go task().
  Gate second;
  REQUIRE(rig.ctx.SubmitTask(second.task()));
  second.await_arrivals(1);
  CHECK(rig.ctx.goroutines() == 1);
  CHECK(rig.wp.state().workers == 1);  // the pool itself is still at MaxWorkersCount

  const auto spawns = rig.events(is_kind(EventKind::worker_spawned, rulego::kFallbackGoroutine));
  REQUIRE(spawns.size() == 1);
  const WorkerId g = spawns[0].worker;
  const auto handoffs = rig.events(is_kind(EventKind::task_handoff, rulego::kFallbackGoroutine));
  REQUIRE(handoffs.size() == 1);
  CHECK(handoffs[0].worker == g);
  const TaskId t = handoffs[0].task;
  CHECK(spawns[0].counters.workers == 2);  // in the trace, the goroutine is a worker beside the pool's one
  second.open();
  test::await_count(rig.log, is_kind(EventKind::worker_exited, rulego::kGoroutineDone), 1, "the goroutine ends");
  gate.open();
  rig.wp.Stop();
  rig.wp.join();
  rig.ctx.join();
  // Every task accounted for: both completed, none refused.
  const Accounting a = rig.wp.trace().accounting();
  CHECK(a.submitted == 2);
  CHECK(a.completed == 2);
  CHECK(a.refused == 0);
  CHECK(rig.events(is_kind(EventKind::task_refused)).empty());
  // The goroutine's own lane: started, finished, exited, in that order.
  const auto mine = rig.events([g](const Event& e) { return e.worker == g; });
  REQUIRE(mine.size() == 5);
  CHECK(mine[0].kind == EventKind::worker_spawned);
  CHECK(mine[1].kind == EventKind::task_handoff);
  CHECK(mine[2].kind == EventKind::task_started);
  CHECK(mine[2].task == t);
  CHECK(mine[3].kind == EventKind::task_finished);
  CHECK(mine[4].kind == EventKind::worker_exited);
  CHECK(rig.ctx.goroutines() == 0);
}

TEST_CASE("rulego SubmitTask (v0.18.0 to v0.31.2, fallback none): a refused task is logged and never runs") {
  RulegoRig rig({.MaxWorkersCount = 1}, rulego::Fallback::none);
  Gate gate;
  REQUIRE(rig.ctx.SubmitTask(gate.task()));
  std::atomic<bool> ran{false};
  auto r = rig.ctx.SubmitTask([&] { ran = true; });
  REQUIRE_FALSE(r);
  CHECK(r.error() == rulego::kErrNoIdleWorkers);
  gate.open();
  rig.wp.Stop();
  rig.wp.join();
  CHECK_FALSE(ran);
  CHECK(rig.events(is_kind(EventKind::task_refused, rulego::kErrNoIdleWorkers)).size() == 1);
  CHECK(rig.events(is_kind(EventKind::worker_spawned, rulego::kFallbackGoroutine)).empty());
  CHECK(rig.wp.trace().accounting().balanced());
}

TEST_CASE("rulego in the registry: flavor=rulego falls back to a goroutine by default, rulego-version v0.31.2 refuses") {
  ManualClock clock;
  {
    auto pool = Registry::global().create("fasthttp", {{"flavor", "rulego"}, {"MaxWorkersCount", 1}}, {.clock = &clock});
    CHECK(pool->params().at("rulego-version") == "v0.37.0");
    Gate gate;
    CHECK(pool->submit(gate.task()).accepted());
    Gate second;
    CHECK(pool->submit(second.task()).accepted());
    second.await_arrivals(1);
    CHECK(pool->state().workers == 2);  // the pool's worker and the goroutine, both busy
    CHECK(pool->state().busy == 2);
    second.open();
    gate.open();
    pool->shutdown(ShutdownMode::graceful);
    CHECK(pool->accounting().balanced());
    CHECK(pool->accounting().completed == 2);
    CHECK(pool->state() == Counters{});
  }
  {
    auto pool = Registry::global().create(
        "fasthttp", {{"flavor", "rulego"}, {"rulego-version", "v0.31.2"}, {"MaxWorkersCount", 1}}, {.clock = &clock});
    Gate gate;
    CHECK(pool->submit(gate.task()).accepted());
    SubmitResult r = pool->submit([] {});
    CHECK(r.fate == Fate::refused);
    CHECK(r.reason == rulego::kErrNoIdleWorkers);
    gate.open();
    pool->shutdown(ShutdownMode::graceful);
    CHECK(pool->accounting().balanced());
  }
}

TEST_CASE("rulego in the registry: under concurrent submitters every task is accounted for, and state() ends at zero") {
  TraceStream stream{std::size_t{1} << 16};
  TraceLog log{stream};
  auto pool = Registry::global().create("fasthttp", {{"flavor", "rulego"}, {"MaxWorkersCount", 2}},
                                        {.stream = &stream, .name = "rulego"});
  std::atomic<int> ran{0}, not_accepted{0};
  {
    std::vector<Thread> submitters;  // joined at the end of the block
    for (int s = 0; s < 4; ++s)
      submitters.emplace_back("submitter", [&] {
        for (int i = 0; i < 250; ++i)
          if (!pool->submit([&] { ran.fetch_add(1); }).accepted()) not_accepted.fetch_add(1);
      });
  }
  pool->shutdown(ShutdownMode::graceful);
  CHECK(not_accepted.load() == 0);
  CHECK(ran.load() == 1000);
  const Accounting a = pool->accounting();
  CHECK(a.submitted == 1000);
  CHECK(a.completed == 1000);
  CHECK(a.balanced());
  CHECK(pool->state() == Counters{});
  log.sync();
  REQUIRE_FALSE(log.events().empty());
  CHECK(log.events().back().counters == Counters{});  // every fallback goroutine's lane ended too
}
