// gopool (bytedance/gopkg util/gopool): the rules of CtxGo and worker.run,
// pinned by counting events (gopool has no clock: nothing here advances
// one). Tasks wait at Gates; the tests wait for trace events and states.
#include "pools/gopool/pool.h"

#include <atomic>
#include <limits>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "pools/core/thread.h"
#include "pools/gopool/gopool.h"
#include "tests/gopool/rig.h"

using namespace poolscope;
using namespace poolscope::gopool;
using test::await_condition;
using test::Gate;
using test::GopoolRig;

namespace {

void await_workers(const pool& p, std::int32_t n) {
  await_condition([&] { return p.WorkerCount() == n; }, std::to_string(n) + " workers");
}

}  // namespace

TEST_CASE("gopool: NewConfig's ScaleThreshold is 1, so every task on an empty list starts a worker") {
  CHECK(NewConfig().ScaleThreshold == 1);
  GopoolRig rig;
  pool p("t", 10, NewConfig(), rig.target());
  std::vector<std::unique_ptr<Gate>> gates;
  for (int i = 0; i < 3; ++i) {
    gates.push_back(std::make_unique<Gate>());
    p.Go(gates.back()->task());
  }
  for (auto& g : gates) g->await_arrivals(1);
  CHECK(rig.count(EventKind::worker_spawned, "scale-threshold") == 3);
  CHECK(p.WorkerCount() == 3);
  CHECK(p.counters_() == Counters{3, 3, 0, 0});

  // Each worker exits the moment the list is empty: never a worker_idle.
  for (int i = 0; i < 3; ++i) {
    gates[static_cast<std::size_t>(i)]->open();
    rig.await_count(EventKind::worker_exited, static_cast<std::size_t>(i) + 1);
    CHECK(p.WorkerCount() == 2 - i);
  }
  CHECK(rig.count(EventKind::worker_exited, "list-empty") == 3);
  CHECK(rig.count(EventKind::worker_idle) == 0);
  CHECK(p.counters_() == Counters{});
}

TEST_CASE("gopool: at cap, tasks wait on the list and the first free worker takes the head (FIFO)") {
  GopoolRig rig;
  pool p("t", 2, NewConfig(), rig.target());
  std::vector<std::unique_ptr<Gate>> gates;
  for (int i = 0; i < 5; ++i) {
    gates.push_back(std::make_unique<Gate>());
    p.Go(gates.back()->task());
  }
  gates[0]->await_arrivals(1);
  gates[1]->await_arrivals(1);
  CHECK(p.counters_() == Counters{2, 2, 3, 0});
  CHECK(rig.count(EventKind::worker_spawned) == 2);
  CHECK(rig.count(EventKind::task_queued, "task-list") == 5);  // every task goes on the list first

  const WorkerId first = rig.worker_of(1);
  gates[0]->open();
  gates[2]->await_arrivals(1);                       // task 3, the head, is next
  CHECK(rig.worker_of(3) == first);                  // taken by the worker that ran task 1
  CHECK(rig.count(EventKind::worker_spawned) == 2);  // no new worker
  for (auto& g : gates) g->open();
  p.shutdown_(false);
  CHECK(rig.count(EventKind::task_finished) == 5);
  CHECK(rig.count(EventKind::worker_spawned) == 2);
}

TEST_CASE("gopool: ScaleThreshold 3: a worker when none runs, then one more only at 3 waiting tasks") {
  GopoolRig rig;
  pool p("t", 10, Config{.ScaleThreshold = 3}, rig.target());
  Gate first;
  p.Go(first.task());
  first.await_arrivals(1);  // the list is empty again: taskCount 0
  CHECK(rig.count(EventKind::worker_spawned, "no-worker") == 1);

  Gate rest;
  p.Go(rest.task());  // taskCount 1 < 3
  p.Go(rest.task());  // 2 < 3
  CHECK(rig.count(EventKind::worker_spawned) == 1);
  CHECK(p.counters_().queued == 2);
  p.Go(rest.task());  // 3 >= 3, and 1 < cap
  rest.await_arrivals(1);
  CHECK(rig.count(EventKind::worker_spawned, "scale-threshold") == 1);
  CHECK(rig.count(EventKind::worker_spawned) == 2);
  first.open();
  rest.open();
  p.shutdown_(false);
  CHECK(rig.count(EventKind::task_finished) == 4);
}

TEST_CASE("gopool: SetCap stops no worker: it only keeps new ones from starting") {
  GopoolRig rig;
  pool p("t", 10, NewConfig(), rig.target());
  Gate gate;
  for (int i = 0; i < 4; ++i) p.Go(gate.task());
  gate.await_arrivals(4);
  p.SetCap(1);
  CHECK(rig.count(EventKind::param_tuned, "SetCap") == 1);
  p.Go(gate.task());  // taskCount 1 >= 1 but 4 workers >= cap 1, and WorkerCount() != 0
  CHECK(p.counters_() == Counters{4, 4, 1, 0});
  CHECK(rig.count(EventKind::worker_spawned) == 4);
  CHECK(rig.count(EventKind::worker_exited) == 0);
  gate.open();
  p.shutdown_(false);
  CHECK(rig.count(EventKind::task_finished) == 5);
  CHECK(rig.count(EventKind::worker_spawned) == 4);
}

TEST_CASE("gopool: a panic goes to the panic handler with its ctx, and the worker runs the next task") {
  GopoolRig rig;
  pool p("t", 1, NewConfig(), rig.target());
  std::atomic<int> calls{0};
  std::atomic<int> seen_ctx{0};
  p.SetPanicHandler([&](const Context& ctx, std::exception_ptr r) {
    ++calls;
    seen_ctx = std::any_cast<int>(ctx);
    CHECK_THROWS_WITH(std::rethrow_exception(r), "boom");
  });
  Gate gate;
  p.Go(gate.task());
  gate.await_arrivals(1);
  p.CtxGo(42, [] { throw std::runtime_error("boom"); });
  std::atomic<bool> after{false};
  p.Go([&] { after = true; });
  gate.open();
  p.shutdown_(false);
  CHECK(calls == 1);
  CHECK(seen_ctx == 42);
  CHECK(after);
  CHECK(rig.count(EventKind::task_threw) == 1);
  CHECK(rig.count(EventKind::worker_spawned) == 1);  // one worker ran all three
  CHECK(rig.worker_of(2) == rig.worker_of(1));
  CHECK(rig.worker_of(3) == rig.worker_of(1));
}

TEST_CASE("gopool: without a panic handler, the panic is logged as GOPOOL: panic in pool") {
  GopoolRig rig;
  pool p("svc", 1, NewConfig(), rig.target());
  std::vector<std::string> lines;
  p.set_logger_([&](const Context&, const std::string& msg) { lines.push_back(msg); });
  p.Go([] { throw std::runtime_error("boom"); });
  p.shutdown_(false);
  REQUIRE(lines.size() == 1);
  CHECK(lines[0] == "GOPOOL: panic in pool: svc: boom: ");
}

TEST_CASE("gopool: bursts pay a worker start per task each time, since no worker outlives the list") {
  GopoolRig rig;
  pool p("t", 100, NewConfig(), rig.target());
  for (int burst = 1; burst <= 3; ++burst) {
    Gate gate;
    for (int i = 0; i < 5; ++i) p.Go(gate.task());
    gate.await_arrivals(5);
    CHECK(p.WorkerCount() == 5);
    gate.open();
    await_workers(p, 0);  // the gap: nothing is kept
    rig.await_count(EventKind::worker_exited, static_cast<std::size_t>(5 * burst));
    CHECK(rig.count(EventKind::worker_spawned) == static_cast<std::size_t>(5 * burst));
  }
  CHECK(rig.count(EventKind::worker_idle) == 0);
}

TEST_CASE("gopool: CtxGo joins no exited worker's thread: the next worker to exit does (issue 42, item 14)") {
  GopoolRig rig;
  pool p("t", 100, NewConfig(), rig.target());
  test::OsThreads os;
  Gate first;
  for (int i = 0; i < 3; ++i) p.Go(first.task());
  first.await_arrivals(3);
  first.open();
  await_workers(p, 0);
  os.await_none_added("the three workers' threads ended");
  // Each joined the ones that had exited before it; the last is left (and
  // any that exited at the same moment).
  const std::size_t left = p.threads_();
  CHECK(left >= 1);
  CHECK(left <= 3);

  Gate second;
  p.Go(second.task());  // Go's `go func()`: a start, no join
  second.await_arrivals(1);
  CHECK(p.threads_() == left + 1);
  second.open();
  await_workers(p, 0);
  await_condition([&] { return p.threads_() == 1; }, "the exiting worker joined the one before it");
  p.shutdown_(false);
  CHECK(p.threads_() == 0);
}

TEST_CASE("gopool: a refused thread leaves the task on the list: the next CtxGo, seeing no worker, starts one") {
  GopoolRig rig;
  pool p("t", 10, NewConfig(), rig.target());
  {
    struct Disarm {
      ~Disarm() { testing::refuse_threads("", 0); }
    } disarm;
    testing::refuse_threads("gopool-", 1);
    p.Go([] {});
  }
  CHECK(rig.count(EventKind::worker_exited, "thread-create-failed") == 1);
  CHECK(p.WorkerCount() == 0);
  CHECK(p.counters_().queued == 1);
  p.Go([] {});
  p.shutdown_(false);
  CHECK(rig.count(EventKind::task_finished) == 2);
}

TEST_CASE("gopool: shutdown (poolscope's) drops the list when asked, then waits for the running tasks") {
  GopoolRig rig;
  pool p("t", 1, NewConfig(), rig.target());
  Gate gate;
  p.Go(gate.task());
  gate.await_arrivals(1);
  for (int i = 0; i < 3; ++i) p.Go([] {});
  Thread opener("opener", [&] {
    await_condition([&] { return rig.count(EventKind::task_dropped, "shutdown-now") == 3; }, "3 dropped");
    gate.open();
  });
  CHECK(p.shutdown_(true) == 3);
  opener.join();
  CHECK(rig.count(EventKind::task_finished) == 1);
  CHECK(p.counters_() == Counters{});
}

TEST_CASE("gopool: RegisterPool refuses a second pool of the same name: GetPool finds the first") {
  pool a("registered-once", 1, NewConfig());
  pool b("registered-once", 1, NewConfig());
  CHECK_FALSE(RegisterPool(a));
  std::error_code err = RegisterPool(b);
  CHECK(err == ErrAlreadyRegistered);
  CHECK(err.message() == "name: %s already registered");
  CHECK(GetPool("registered-once") == &a);
  CHECK(GetPool("nobody") == nullptr);
}

TEST_CASE("gopool: the package-level Go runs on the default pool, uncapped since 2023") {
  CHECK(defaultPool().Name() == "gopool.DefaultPool");
  CHECK(defaultPool().cap_() == std::numeric_limits<std::int32_t>::max());
  std::atomic<bool> ran{false};
  Go([&] { ran = true; });
  await_condition([&] { return ran.load(); }, "the task ran");
  await_workers(defaultPool(), 0);
}
