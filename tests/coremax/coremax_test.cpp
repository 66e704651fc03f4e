// The seed's pool as written: its submit order, its FIFO idle workers, its
// blocking, its handlers, and its flaw (no worker ever expires).
#include <atomic>
#include <stdexcept>
#include <system_error>
#include <utility>
#include <vector>

#include "pools/core/registry.h"
#include "pools/coremax/pool.h"
#include "tests/support/sync.h"

// Inside the design's namespace, `Pool` is the seed's pool, not poolscope::Pool.
namespace poolscope::coremax {

using namespace std::chrono_literals;
using poolscope::test::await_condition;
using poolscope::test::await_event;
using poolscope::test::Gate;

namespace {

struct Rig {
  ManualClock clock;
  TraceStream stream{std::size_t{1} << 16};
  TraceLog log{stream};
  TraceTarget target() { return {.clock = &clock, .stream = &stream, .name = "coremax"}; }
  std::size_t count(const TraceLog::Pred& pred) {
    log.sync();
    return log.count(pred);
  }
  void await_count(const TraceLog::Pred& pred, std::size_t n, const std::string& what) {
    await_condition([&] { return count(pred) >= n; }, what);
  }
  // The worker the task with this id was handed to.
  WorkerId handed_to(TaskId task) {
    Event e = await_event(
        log, [task](const Event& e) { return e.kind == EventKind::task_handoff && e.task == task; },
        "task " + std::to_string(task) + "'s hand-off");
    return e.worker;
  }
};

// Opens the gate on leaving the scope. Declare the gate before the pool and
// this after the pool (and after any thread that waits on the pool), so that
// the gate opens first and outlives every worker that passes it.
struct OpenOnExit {
  Gate& g;
  ~OpenOnExit() { g.open(); }
};

}  // namespace

TEST_CASE("coremax: an idle worker takes the task before a new core worker starts") {
  Rig rig;
  Pool p(2, 4, 2, {}, rig.target());
  CHECK(p.submit([] {}) == std::error_code{});
  await_event(rig.log, is_kind(EventKind::worker_idle, kWorkersQueue), "worker 1 is idle");
  CHECK(p.submit([] {}) == std::error_code{});
  await_event(rig.log, is_kind(EventKind::task_handoff, kWorkersQueue), "task 2 went to the idle worker");
  CHECK(p.running_size() == 1);  // Java would have started a second core thread
  CHECK(rig.count(is_kind(EventKind::worker_spawned)) == 1);
}

TEST_CASE("coremax: core workers, then the task queue, then workers up to max, then pool is full") {
  Rig rig;
  Gate gate;
  Pool p(1, 3, 2, {}, rig.target());
  OpenOnExit open{gate};
  auto step = [&](int running, int queued) {
    CHECK(p.submit(gate.task()) == std::error_code{});
    CHECK(p.running_size() == running);
    CHECK(p.queue_size() == queued);
  };
  step(1, 0);  // below coreSize: a new worker
  step(1, 1);  // queued
  step(1, 2);
  step(2, 2);  // the task queue is full: a worker beyond core
  step(3, 2);
  CHECK(p.submit(gate.task()) == ErrPoolFull);
  CHECK(rig.count(is_kind(EventKind::worker_spawned, kBelowCore)) == 1);
  CHECK(rig.count(is_kind(EventKind::worker_spawned, kTaskQueueFull)) == 2);
  CHECK(rig.count(is_kind(EventKind::task_refused, kPoolFull)) == 1);
  gate.open();
  p.close();
  p.join();
  CHECK(rig.count(is_kind(EventKind::task_finished)) == 5);
  CHECK(p.trace().accounting().balanced());
}

// The seed's own verdict: "core and max are nominal". The course lab adds
// keep-alive; this test then fails, and its new version checks the shrink.
TEST_CASE("coremax: workers never expire, however long they idle (the seed's flaw)") {
  Rig rig;
  Gate gate;
  Pool p(1, 4, 0, {}, rig.target());
  OpenOnExit open{gate};
  for (int i = 0; i < 4; ++i) CHECK(p.submit(gate.task()) == std::error_code{});  // no queue: straight to max
  CHECK(p.running_size() == 4);
  gate.open();
  rig.await_count(is_kind(EventKind::worker_idle), 4, "4 idle workers");
  CHECK(rig.clock.waiters() == 0);  // nobody even waits on time
  rig.clock.advance(24h);
  CHECK(p.running_size() == 4);
  CHECK(p.idle_size() == 4);
  CHECK(rig.count(is_kind(EventKind::worker_exited)) == 0);
}

TEST_CASE("coremax: the worker idle longest gets the next task (a FIFO workers queue)") {
  Rig rig;
  Gate gates[3];
  Gate hold;
  Pool p(3, 3, 0, {}, rig.target());
  OpenOnExit open0{gates[0]}, open1{gates[1]}, open2{gates[2]}, openHold{hold};
  for (Gate& g : gates) p.submit(g.task());
  WorkerId w1 = rig.handed_to(1), w2 = rig.handed_to(2), w3 = rig.handed_to(3);
  // They go idle in the order 2, 1, 3.
  std::size_t idle = 0;
  for (int i : {1, 0, 2}) {
    gates[i].open();
    rig.await_count(is_kind(EventKind::worker_idle), ++idle, "the next worker is idle");
  }
  p.submit(hold.task());
  p.submit(hold.task());
  p.submit(hold.task());
  CHECK(rig.handed_to(4) == w2);
  CHECK(rig.handed_to(5) == w1);
  CHECK(rig.handed_to(6) == w3);
}

TEST_CASE("coremax: with isBlocking, a submitter waits for an idle worker") {
  Rig rig;
  Gate gate;
  Pool p(1, 1, 1, {.isBlocking = true}, rig.target());
  p.submit(gate.task());  // runs
  p.submit(gate.task());  // queued
  std::atomic<bool> ran{false};
  std::error_code err = ErrPoolFull;
  Thread submitter("submitter", [&] { err = p.submit([&] { ran = true; }); });
  OpenOnExit open{gate};  // after the submitter, which waits for the gated worker
  await_event(rig.log, is_kind(EventKind::submitter_blocked), "the submitter blocks");
  CHECK(p.block_size() == 1);
  gate.open();  // the worker runs both tasks, goes idle, and the submitter hands it task 3
  submitter.join();
  CHECK(err == std::error_code{});
  await_condition([&] { return ran.load(); }, "task 3 ran");
  CHECK(p.block_size() == 0);
  CHECK(rig.count(is_kind(EventKind::submitter_unblocked)) == 1);
}

TEST_CASE("coremax: blockMaxNum caps the blocked submitters, and close wakes them with pool is closed") {
  Rig rig;
  Gate gate;
  Pool p(1, 1, 0, {.isBlocking = true, .blockMaxNum = 1}, rig.target());
  p.submit(gate.task());
  std::error_code err;
  Thread submitter("submitter", [&] { err = p.submit([] {}); });
  OpenOnExit open{gate};  // after the submitter, which waits for the gated worker
  await_event(rig.log, is_kind(EventKind::submitter_blocked), "one submitter blocks");
  CHECK(p.submit([] {}) == ErrPoolFull);  // a second may not wait
  p.close();
  submitter.join();
  CHECK(err == ErrPoolClosed);
  CHECK(p.submit([] {}) == ErrPoolClosed);
  gate.open();
  p.join();
  CHECK(p.running_size() == 0);
  CHECK(p.trace().accounting().balanced());
}

TEST_CASE("coremax: pre-allocation starts idle workers up front") {
  Rig rig;
  Pool p(2, 4, 4, {.isPreAllocation = true, .allocationNum = 3}, rig.target());
  CHECK(p.running_size() == 3);
  CHECK(p.idle_size() == 3);
  CHECK(rig.count(is_kind(EventKind::worker_spawned, kPreAllocation)) == 3);
  p.submit([] {});
  CHECK(rig.handed_to(1) != 0);
  CHECK(rig.count(is_kind(EventKind::task_handoff, kWorkersQueue)) == 1);
  CHECK(p.running_size() == 3);
}

TEST_CASE("coremax: a task that throws goes to the panic handler, and its worker carries on") {
  Rig rig;
  std::atomic<int> panics{0};
  std::string what;
  Pool p(1, 1, 4,
         {.panicHandler =
              [&](std::exception_ptr e) {
                try {
                  std::rethrow_exception(e);
                } catch (const std::exception& ex) {
                  what = ex.what();
                }
                ++panics;
              }},
         rig.target());
  p.submit([] { throw std::runtime_error("boom"); });
  p.submit([] {});
  p.close();
  p.join();
  CHECK(panics == 1);
  CHECK(what == "boom");
  CHECK(rig.count(is_kind(EventKind::worker_spawned)) == 1);
  CHECK(rig.count(is_kind(EventKind::task_threw)) == 1);
  CHECK(rig.count(is_kind(EventKind::task_finished)) == 1);
}

TEST_CASE("coremax: close runs the queued tasks and close_now drops them") {
  for (bool now : {false, true}) {
    CAPTURE(now);
    Rig rig;
    Gate gate;
    Pool p(1, 1, 4, {}, rig.target());
    OpenOnExit open{gate};
    for (int i = 0; i < 4; ++i) p.submit(gate.task());
    gate.await_arrivals(1);
    if (now)
      CHECK(p.close_now() == 3);
    else
      p.close();
    CHECK(p.is_closed());
    CHECK(p.submit([] {}) == ErrPoolClosed);
    gate.open();
    p.join();
    CHECK(p.running_size() == 0);
    Accounting a = p.trace().accounting();
    CHECK(a.completed == (now ? 1u : 4u));
    CHECK(a.dropped == (now ? 3u : 0u));
    CHECK(a.balanced());
    CHECK(rig.count(is_kind(EventKind::worker_exited, kPoolClose)) == 1);
  }
}

// A capture whose destructor reads the pool's queue, which takes its lock:
// destroyed with the lock held, it would deadlock. Only the last move counts.
class ReadsQueueOnDestroy {
 public:
  ReadsQueueOnDestroy(const Pool& p, std::atomic<int>& seen) : p_(&p), seen_(&seen) {}
  ReadsQueueOnDestroy(ReadsQueueOnDestroy&& other) noexcept
      : p_(other.p_), seen_(std::exchange(other.seen_, nullptr)) {}
  ~ReadsQueueOnDestroy() {
    if (seen_) seen_->store(p_->queue_size());
  }

 private:
  const Pool* p_;
  std::atomic<int>* seen_;
};

TEST_CASE("coremax: close_now and close release the tasks they drop without the pool's lock") {
  for (bool now : {true, false}) {
    CAPTURE(now);
    Rig rig;
    Gate gate;
    // close() drops only with no worker alive: coreSize 0, so the task waits in the queue.
    Pool p(now ? 1 : 0, 1, 4, {}, rig.target());
    OpenOnExit open{gate};
    if (now) {
      p.submit(gate.task());
      gate.await_arrivals(1);
    }
    std::atomic<int> seen{-1};
    REQUIRE(p.submit([probe = ReadsQueueOnDestroy(p, seen)] {}) == std::error_code{});
    REQUIRE(p.queue_size() == 1);
    CHECK((now ? p.close_now() : p.close()) == 1);
    CHECK(seen == 0);  // destroyed after the queue was emptied, and the lock let go
    gate.open();
    p.join();
    CHECK(p.trace().accounting().balanced());
  }
}

TEST_CASE("coremax: the reject handler chooses the error") {
  Rig rig;
  const std::error_code busy = std::make_error_code(std::errc::resource_unavailable_try_again);
  Gate gate;  // before the pool: ~Pool joins the worker that passes it
  Pool p(0, 1, 0, {.rejectHandler = [&](const Task&) { return busy; }}, rig.target());
  OpenOnExit open{gate};
  p.submit(gate.task());
  CHECK(p.submit([] {}) == busy);
  CHECK(rig.count(is_kind(EventKind::task_refused, kRejectHandler)) == 1);
}

TEST_CASE("coremax: a reject handler's nil counts as ErrPoolFull, and the errors read as Go's") {
  Rig rig;
  Gate gate;
  Pool p(0, 1, 0, {.rejectHandler = [](const Task&) { return std::error_code{}; }}, rig.target());
  OpenOnExit open{gate};
  p.submit(gate.task());
  const std::error_code err = p.submit([] {});
  CHECK(err == ErrPoolFull);
  CHECK(err.message() == "pool is full");
  CHECK(std::error_code(ErrPoolClosed).message() == "pool is closed");
  CHECK(rig.count(is_kind(EventKind::task_refused, kPoolFull)) == 1);
}

// The trap of coreSize 0: only a full queue starts a worker (step 3), and a
// queued task is taken only by a worker that has just run a task. So the
// first taskQueueCap tasks wait for a worker that the next task starts.
TEST_CASE("coremax: with coreSize 0, tasks wait in the queue until it is full (the trap)") {
  Rig rig;
  Pool p(0, 2, 3, {}, rig.target());
  std::atomic<int> ran{0};
  for (int i = 0; i < 3; ++i) CHECK(p.submit([&] { ++ran; }) == std::error_code{});
  CHECK(p.running_size() == 0);
  CHECK(p.queue_size() == 3);
  CHECK(rig.count(is_kind(EventKind::worker_spawned)) == 0);

  SECTION("close drops the tasks no worker will ever take, so every task is accounted for") {
    CHECK(p.close() == 3);
    CHECK(p.queue_size() == 0);
    CHECK(rig.count(is_kind(EventKind::task_dropped, kCloseNoWorker)) == 3);
    p.join();
    CHECK(ran == 0);
    Accounting a = p.trace().accounting();
    CHECK(a.dropped == 3);
    CHECK(a.balanced());
  }
  SECTION("the task that finds the queue full starts a worker, which then runs them all") {
    CHECK(p.submit([&] { ++ran; }) == std::error_code{});
    CHECK(rig.count(is_kind(EventKind::worker_spawned, kTaskQueueFull)) == 1);
    rig.await_count(is_kind(EventKind::task_finished), 4, "the 4 tasks ran");
    CHECK(p.close() == 0);  // a worker is alive: nothing is stranded
    p.join();
    CHECK(ran == 4);
    CHECK(p.trace().accounting().balanced());
  }
}

TEST_CASE("coremax: through the registry, a graceful shutdown with coreSize 0 accounts for the stranded tasks") {
  Rig rig;
  auto pool =
      Registry::global().create("coremax", {{"coreSize", 0}, {"maxSize", 2}, {"taskQueueCap", 4}}, rig.target());
  for (int i = 0; i < 3; ++i) CHECK(pool->submit([] {}).accepted());
  pool->shutdown(ShutdownMode::graceful);
  Accounting a = pool->accounting();
  CHECK(a.dropped == 3);
  CHECK(a.balanced());
  Event stopped = await_event(rig.log, is_kind(EventKind::pool_stopped), "the pool stopped");
  CHECK(stopped.arg == 3);
}

TEST_CASE("coremax: the constructor refuses what the registry refuses (std::invalid_argument)") {
  CHECK_THROWS_AS(Pool(0, 0, 1), std::invalid_argument);  // `workers` would take a modulus by 0
  CHECK_THROWS_WITH(Pool(0, 0, 1), "coremax: maxSize 0 must be at least 1");
  CHECK_THROWS_AS(Pool(-1, 1, 1), std::invalid_argument);
  CHECK_THROWS_AS(Pool(5, 4, 1), std::invalid_argument);  // more workers than `workers` holds
  CHECK_THROWS_WITH(Pool(5, 4, 1), "coremax: coreSize 5 must not exceed maxSize 4");
  CHECK_THROWS_AS(Pool(1, 4, -1), std::invalid_argument);
  CHECK_THROWS_AS(Pool(1, 4, 1, {.isPreAllocation = true, .allocationNum = 5}), std::invalid_argument);
  CHECK_THROWS_AS(Pool(1, 4, 1, {.allocationNum = -1}), std::invalid_argument);
  CHECK_THROWS_AS(Pool(1, 4, 1, {.isBlocking = true, .blockMaxNum = -1}), std::invalid_argument);
  CHECK_NOTHROW(Pool(0, 1, 0));
  CHECK_NOTHROW(Pool(4, 4, 0, {.isPreAllocation = true, .allocationNum = 4}));
  CHECK_NOTHROW(Pool(1, 4, 1, {.allocationNum = 9}));  // unused without isPreAllocation, as in the registry
}

TEST_CASE("coremax: close_now drops the queue and closes in one step, so nothing is queued after it") {
  Rig rig;
  Gate gate;
  Pool p(1, 1, 1 << 12, {}, rig.target());
  REQUIRE(p.submit(gate.task()) == std::error_code{});  // the only worker is held: the rest queue
  std::vector<Thread> submitters;
  OpenOnExit open{gate};
  for (int s = 0; s < 4; ++s)
    submitters.emplace_back("submitter", [&p] {
      for (int i = 0; i < 500 && p.submit([] {}) != ErrPoolClosed; ++i) {
      }
    });
  await_condition([&] { return p.queue_size() >= 100; }, "100 tasks queued");
  int dropped = p.close_now();
  for (Thread& t : submitters) t.join();
  CHECK(p.queue_size() == 0);
  gate.open();
  p.join();
  rig.log.sync();
  bool closed = false;
  std::size_t queuedAfter = 0;
  for (const Event& e : rig.log.events()) {
    if (e.kind == EventKind::pool_state && e.rule == kCloseNow) closed = true;
    if (closed && e.kind == EventKind::task_queued) ++queuedAfter;
  }
  CHECK(closed);
  CHECK(queuedAfter == 0);
  Accounting a = p.trace().accounting();
  CHECK(a.dropped == static_cast<std::uint64_t>(dropped));
  CHECK(a.completed == 1);
  CHECK(a.balanced());
}

TEST_CASE("coremax: registry config errors, and nothing is live") {
  auto error_path = [](const json& config) {
    try {
      Registry::global().create("coremax", config, {});
    } catch (const ConfigError& e) {
      return e.path();
    }
    return std::string("(no error)");
  };
  CHECK(error_path({{"coreSize", 5}, {"maxSize", 4}}) == "/coreSize");
  CHECK(error_path({{"isPreAllocation", true}, {"allocationNum", 9}}) == "/allocationNum");
  CHECK(error_path({{"maxSize", 0}}) == "/maxSize");
  CHECK(error_path({{"isPreAllocation", true}, {"allocationNum", 8}}) == "(no error)");
  auto pool = Registry::global().create("coremax", {{"coreSize", 1}, {"isBlocking", true}}, {});
  CHECK(pool->params()["coreSize"] == 1);
  CHECK(pool->params()["isBlocking"] == true);
  CHECK_THROWS_AS(Registry::global().tune(*pool, "maxSize", 9), ConfigError);
}

}  // namespace poolscope::coremax
