// nginx's thread pool against ngx_thread_pool.c's rules: the overflow
// arithmetic of `waiting`, FIFO, completions batched on the event loop, no
// growth, and the two ways out. Nothing here sleeps: tasks wait at gates,
// the tests wait for trace events, and the pool has no timer at all.
#include "pools/nginx/thread_pool.h"

#include <mutex>
#include <stdexcept>
#include <thread>
#include <vector>

#include "pools/core/registry.h"
#include "pools/core/trace_log.h"
#include "tests/support/sync.h"
#include "tests/support/trace_rig.h"

using namespace poolscope;
using namespace poolscope::nginx;
using test::await_condition;
using test::Gate;

namespace {

struct Rig : test::TraceRig {
  std::mutex m;
  std::vector<std::string> lines;

  Config config(ngx_uint_t threads, ngx_int_t max_queue) {
    return Config{.threads = threads, .max_queue = max_queue, .log = [this](ngx_log_level, const std::string& line) {
                    std::lock_guard g(m);
                    lines.push_back(line);
                  }};
  }
  TraceTarget target() { return TraceRig::target("nginx"); }
  std::string last_line() {
    std::lock_guard g(m);
    return lines.empty() ? std::string() : lines.back();
  }
};

ngx_int_t post(ThreadPool& tp, Task fn) { return tp.ngx_thread_task_post(tp.ngx_thread_task_alloc(std::move(fn))); }

}  // namespace

TEST_CASE("nginx: every thread starts at init, none is added or reaped (ngx_thread_pool_init)") {
  Rig rig;
  ThreadPool tp(rig.config(3, 64), rig.target());
  CHECK(rig.count(EventKind::worker_spawned, "thread-pool-init") == 3);
  rig.await_at_least(EventKind::worker_idle, "cond-wait", 3);
  for (int i = 0; i < 50; ++i) REQUIRE(post(tp, [] {}) == NGX_OK);
  await_condition([&] { return tp.trace().accounting().completed == 50; }, "50 tasks ran");
  CHECK(rig.count(EventKind::worker_spawned) == 3);
  CHECK(rig.count(EventKind::worker_reaped) == 0);
  CHECK(tp.state().workers == 3);
  tp.quit();
  CHECK(rig.count(EventKind::worker_exited, "exit-task") == 3);
  CHECK(tp.state() == Counters{});
}

TEST_CASE("nginx: waiting counts the parked threads negative, and a post is refused at max_queue") {
  Rig rig;
  ThreadPool tp(rig.config(2, 3), rig.target());
  rig.await_at_least(EventKind::worker_idle, "cond-wait", 2);
  CHECK(tp.waiting_() == -2);  // "the number may become negative"

  Gate gate;
  REQUIRE(post(tp, gate.task()) == NGX_OK);
  REQUIRE(post(tp, gate.task()) == NGX_OK);
  gate.await_arrivals(2);
  CHECK(tp.waiting_() == 0);  // two posts, and neither thread has come back for more
  for (int i = 0; i < 3; ++i) REQUIRE(post(tp, gate.task()) == NGX_OK);
  CHECK(tp.state() == Counters{.workers = 2, .busy = 2, .queued = 3});
  CHECK(post(tp, gate.task()) == NGX_ERROR);
  CHECK(rig.last_line() == "thread pool \"default\" queue overflow: 3 tasks waiting");
  CHECK(rig.count(EventKind::task_refused, "queue-overflow") == 1);
  gate.open();
  tp.quit();
  CHECK(tp.trace().accounting().completed == 5);
}

TEST_CASE("nginx: max_queue=0 hands a task to a parked thread or refuses it") {
  Rig rig;
  ThreadPool tp(rig.config(2, 0), rig.target());
  rig.await_at_least(EventKind::worker_idle, "cond-wait", 2);
  Gate gate;
  CHECK(post(tp, gate.task()) == NGX_OK);  // waiting -2 -> -1
  CHECK(post(tp, gate.task()) == NGX_OK);  // -1 -> 0
  CHECK(post(tp, gate.task()) == NGX_ERROR);
  CHECK(rig.last_line() == "thread pool \"default\" queue overflow: 0 tasks waiting");
  gate.open();
  tp.quit();
}

TEST_CASE("nginx: one queue, first in first out") {
  Rig rig;
  ThreadPool tp(rig.config(1, 16), rig.target());
  Gate gate;
  std::mutex m;
  std::vector<int> order;
  REQUIRE(post(tp, gate.task()) == NGX_OK);
  gate.await_arrivals(1);
  for (int i = 0; i < 5; ++i)
    REQUIRE(post(tp, [&, i] {
              std::lock_guard g(m);
              order.push_back(i);
            }) == NGX_OK);
  gate.open();
  tp.quit();
  CHECK(order == std::vector<int>{0, 1, 2, 3, 4});
  CHECK(rig.count(EventKind::task_handoff, "queue-head") == 6);
}

TEST_CASE("nginx: completions run on the event loop, one at a time, batched per wake-up (ngx_thread_pool_handler)") {
  Rig rig;
  ThreadPool tp(rig.config(1, 16), rig.target());
  std::mutex m;
  std::vector<int> completed;
  std::vector<std::thread::id> completers;
  std::thread::id pool_thread;
  Gate loop_busy;

  // A's completion holds the event loop, so B, C and D finish meanwhile.
  auto a = tp.ngx_thread_task_alloc([&] { pool_thread = std::this_thread::get_id(); });
  a->event.handler = [&] {
    {
      std::lock_guard g(m);
      completed.push_back(0);
      completers.push_back(std::this_thread::get_id());
    }
    loop_busy.pass();
  };
  REQUIRE(tp.ngx_thread_task_post(std::move(a)) == NGX_OK);
  loop_busy.await_arrivals(1);
  for (int i = 1; i <= 3; ++i) {
    auto t = tp.ngx_thread_task_alloc([] {});
    t->event.handler = [&, i] {
      std::lock_guard g(m);
      completed.push_back(i);
      completers.push_back(std::this_thread::get_id());
    };
    REQUIRE(tp.ngx_thread_task_post(std::move(t)) == NGX_OK);
  }
  // The thread is back for more (waiting -1) only after it put D on the done queue.
  await_condition([&] { return tp.trace().accounting().completed == 4 && tp.waiting_() == -1; },
                  "B, C and D ran on the pool thread and wait on the done queue");
  {
    std::lock_guard g(m);
    CHECK(completed == std::vector<int>{0});  // their completions wait for the loop
  }
  loop_busy.open();
  await_condition(
      [&] {
        std::lock_guard g(m);
        return completed.size() == 4;
      },
      "every completion ran");
  tp.quit();

  CHECK(completed == std::vector<int>{0, 1, 2, 3});  // in completion order
  for (std::thread::id id : completers) {
    CHECK(id == completers.front());  // one thread...
    CHECK(id != pool_thread);         // ...the event loop, not the pool's
  }
  std::vector<Event> passes = rig.events(EventKind::pool_state, "thread-pool-handler");
  REQUIRE(passes.size() >= 2);
  CHECK(passes.front().arg == 1);  // A alone
  std::int64_t after_a = 0;
  for (std::size_t i = 1; i < passes.size(); ++i) after_a += passes[i].arg;
  CHECK(after_a == 3);
  CHECK(passes[1].arg == 3);  // one wake-up, three completions: ngx_notify coalesced
}

TEST_CASE("nginx: quit waits for every posted task and its completion, then ends the threads one by one") {
  Rig rig;
  ThreadPool tp(rig.config(2, 16), rig.target());
  Gate gate;
  REQUIRE(post(tp, gate.task()) == NGX_OK);
  REQUIRE(post(tp, gate.task()) == NGX_OK);
  gate.await_arrivals(2);
  REQUIRE(post(tp, [] {}) == NGX_OK);  // queued behind them
  std::atomic<bool> returned{false};
  Thread quitting("quit", [&] {
    tp.quit();
    returned = true;
  });
  rig.await_at_least(EventKind::pool_state, "quit", 1);
  CHECK_FALSE(returned);
  CHECK(rig.count(EventKind::worker_exited) == 0);
  gate.open();
  quitting.join();
  CHECK(tp.trace().accounting().completed == 3);
  std::int64_t completions = 0;
  for (const Event& e : rig.events(EventKind::pool_state, "thread-pool-handler")) completions += e.arg;
  CHECK(completions == 3);
  // Every task finished before the first exit task ran.
  rig.log.sync();
  std::size_t i = 0, finish_at = 0, exit_at = 0;
  for (const Event& e : rig.log.events()) {
    if (e.kind == EventKind::task_finished) finish_at = i;
    if (e.kind == EventKind::worker_exited && exit_at == 0) exit_at = i;
    ++i;
  }
  CHECK(finish_at < exit_at);
  CHECK(rig.count(EventKind::worker_exited, "exit-task") == 2);
}

TEST_CASE("nginx: terminate drops the queue, lets running tasks finish, and runs no more completions") {
  Rig rig;
  ThreadPool tp(rig.config(1, 16), rig.target());
  Gate gate;
  std::atomic<bool> completion_ran{false};
  auto a = tp.ngx_thread_task_alloc(gate.task());
  a->event.handler = [&] { completion_ran = true; };
  REQUIRE(tp.ngx_thread_task_post(std::move(a)) == NGX_OK);
  gate.await_arrivals(1);
  REQUIRE(post(tp, [] {}) == NGX_OK);
  REQUIRE(post(tp, [] {}) == NGX_OK);
  std::size_t dropped = 0;
  Thread terminating("terminate", [&] { dropped = tp.terminate(); });
  rig.await_at_least(EventKind::task_dropped, "terminate-drop", 2);
  rig.await_at_least(EventKind::pool_state, "terminate", 1);  // the loop is told before A can finish
  gate.open();
  terminating.join();
  CHECK(dropped == 2);
  CHECK_FALSE(completion_ran);
  Accounting acc = tp.trace().accounting();
  CHECK(acc.completed == 1);
  CHECK(acc.dropped == 2);
  CHECK(acc.balanced());
  CHECK(tp.state() == Counters{});
}

TEST_CASE("nginx: the directive's checks keep nginx's texts") {
  Rig rig;
  CHECK_THROWS_WITH(ThreadPool(Config{.threads = 0}, rig.target()), "invalid threads value \"threads=0\"");
  CHECK_THROWS_WITH(ThreadPool(Config{.threads = 1, .max_queue = -1}, rig.target()),
                    "invalid max_queue value \"max_queue=-1\"");
}

TEST_CASE("nginx: registered with nginx's defaults, refusing with queue-overflow behind the Pool interface") {
  const Design& d = Registry::global().get("nginx");
  CHECK(d.param("threads")->default_value == 32);
  CHECK(d.param("max_queue")->default_value == 65536);
  Rig rig;
  auto pool = Registry::global().create("nginx", {{"threads", 1}, {"max_queue", 1}}, rig.target());
  Gate gate;
  REQUIRE(pool->submit(gate.task()).accepted());
  gate.await_arrivals(1);
  REQUIRE(pool->submit(gate.task()).accepted());
  SubmitResult r = pool->submit(gate.task());
  CHECK(r.fate == Fate::refused);
  CHECK(label_code(r.reason) == "queue-overflow");
  gate.open();
  pool->shutdown(ShutdownMode::graceful);
  CHECK(pool->accounting().balanced());
}
