// Redis' threaded I/O against networking.c's rules: the 2 x io-threads
// threshold, the round-robin deal from the head, the barrier, and parking
// by the main thread's mutexes, on the manual clock (serverCron only runs
// when a test advances it). The main thread is held busy by a task of its
// own waiting at a gate, so the replies queued meanwhile form the next batch.
#include <map>
#include <vector>

#include "pools/core/registry.h"
#include "pools/redis/server.h"
#include "tests/redis/rig.h"

using namespace poolscope;
using namespace poolscope::redis;
using namespace std::chrono_literals;
using test::await_condition;
using test::Gate;
using test::Rig;

namespace {

Config config(int io_threads) { return Config{.io_threads_num = io_threads, .hz = 10, .spins_ = 1000}; }

// Holds the main thread in a one-task batch until `hold` opens.
void hold_main(Server& s, Gate& hold) {
  s.putClientInPendingWriteQueue(hold.task());
  hold.await_arrivals(1);
}

// worker id -> the tasks handed to it, in order, with rule `rule`.
std::map<WorkerId, std::vector<TaskId>> deal(Rig& rig, std::string_view rule) {
  std::map<WorkerId, std::vector<TaskId>> out;
  for (const Event& e : rig.events(EventKind::task_handoff, rule)) out[e.worker].push_back(e.task);
  return out;
}

}  // namespace

TEST_CASE("redis-io: io-threads 1 starts no thread: the main thread writes every reply") {
  Rig rig;
  Server s(config(1), rig.target("redis-io"));
  CHECK(rig.count(EventKind::worker_spawned) == 1);
  CHECK(rig.count(EventKind::worker_spawned, "main-thread") == 1);
  for (int i = 0; i < 20; ++i) s.putClientInPendingWriteQueue([] {});
  s.shutdown_(false);
  CHECK(rig.count(EventKind::task_handoff, "single-threaded") == 20);
  CHECK(rig.count(EventKind::pool_state, "start-threaded-io") == 0);
  CHECK(s.trace().accounting().completed == 20);
}

TEST_CASE("redis-io: the I/O threads start parked on the mutexes the main thread holds (initThreadedIO)") {
  Rig rig;
  Server s(config(4), rig.target("redis-io"));
  CHECK(rig.count(EventKind::worker_spawned, "io-thread") == 3);
  rig.await_at_least(EventKind::worker_idle, "io-thread-park", 3);
  CHECK_FALSE(s.io_threads_active());
  CHECK(s.state() == Counters{.workers = 4});
}

TEST_CASE("redis-io: below 2 x io-threads pending the main thread writes alone: at 2 x it starts the threads") {
  Rig rig;
  Server s(config(4), rig.target("redis-io"));

  Gate hold;
  hold_main(s, hold);
  for (int i = 0; i < 7; ++i) s.putClientInPendingWriteQueue([] {});
  CHECK(s.state().queued == 7);
  hold.open();
  await_condition([&] { return s.trace().accounting().completed == 8; }, "7 replies written");
  CHECK(rig.count(EventKind::task_handoff, "below-threshold") == 8);  // the held one too
  CHECK(rig.count(EventKind::pool_state, "start-threaded-io") == 0);

  Gate hold2;
  hold_main(s, hold2);
  for (int i = 0; i < 8; ++i) s.putClientInPendingWriteQueue([] {});
  hold2.open();
  rig.await_at_least(EventKind::pool_state, "barrier", 1);
  CHECK(rig.count(EventKind::pool_state, "start-threaded-io") == 1);
  CHECK(s.io_threads_active());
  auto dealt = deal(rig, "round-robin");
  REQUIRE(dealt.size() == 4);
  for (const auto& [worker, tasks] : dealt) CHECK(tasks.size() == 2);
  CHECK(rig.events(EventKind::pool_state, "barrier").front().arg2 == 8);
}

TEST_CASE("redis-io: the deal goes round-robin from the head of the list, newest first, slot 0 the main thread") {
  Rig rig;
  Server s(config(4), rig.target("redis-io"));
  Gate hold;
  hold_main(s, hold);  // task 1
  std::vector<TaskId> c(10);
  for (int i = 1; i <= 9; ++i) c[static_cast<std::size_t>(i)] = s.putClientInPendingWriteQueue([] {});
  hold.open();
  rig.await_at_least(EventKind::pool_state, "barrier", 1);
  auto dealt = deal(rig, "round-robin");
  const auto main = rig.events(EventKind::worker_spawned, "main-thread").front().worker;
  const auto io = rig.events(EventKind::worker_spawned, "io-thread");
  REQUIRE(io.size() == 3);
  CHECK(dealt[main] == std::vector<TaskId>{c[9], c[5], c[1]});
  CHECK(dealt[io[0].worker] == std::vector<TaskId>{c[8], c[4]});
  CHECK(dealt[io[1].worker] == std::vector<TaskId>{c[7], c[3]});
  CHECK(dealt[io[2].worker] == std::vector<TaskId>{c[6], c[2]});
}

TEST_CASE("redis-io: the main thread waits at the barrier until the slowest slice is done") {
  Rig rig;
  Server s(config(2), rig.target("redis-io"));
  Gate hold;
  hold_main(s, hold);
  Gate slow;
  // Four replies, dealt newest first: the 4th and the 2nd to slot 0 (the
  // main thread), the 3rd and the 1st to slot 1, whose first one is slow.
  s.putClientInPendingWriteQueue([] {});
  s.putClientInPendingWriteQueue([] {});
  s.putClientInPendingWriteQueue(slow.task());
  s.putClientInPendingWriteQueue([] {});
  hold.open();
  slow.await_arrivals(1);
  // The main thread's slice (2 replies) is done, the I/O thread's is not: no barrier yet.
  await_condition([&] { return s.trace().accounting().completed == 3; }, "the main thread's slice written");
  CHECK(rig.count(EventKind::pool_state, "barrier") == 0);
  await_condition([&] { return s.state().busy == 1; }, "only the slow slice's thread busy; the main thread spins");
  CHECK(rig.count(EventKind::pool_state, "barrier") == 0);
  slow.open();
  rig.await_at_least(EventKind::pool_state, "barrier", 1);
  CHECK(rig.events(EventKind::pool_state, "barrier").front().arg2 == 4);
}

TEST_CASE("redis-io: too few pending replies stop threaded I/O, in beforeSleep or in serverCron") {
  Rig rig;
  Server s(config(2), rig.target("redis-io"));
  auto threaded_batch = [&] {
    Gate hold;
    hold_main(s, hold);
    for (int i = 0; i < 4; ++i) s.putClientInPendingWriteQueue([] {});
    hold.open();
    await_condition([&] { return s.trace().accounting().completed == s.trace().accounting().submitted; },
                    "the batch written");
  };

  threaded_batch();
  CHECK(s.io_threads_active());
  // beforeSleep: one reply is fewer than 2 x 2: stopThreadedIO, then synchronous.
  s.putClientInPendingWriteQueue([] {});
  rig.await_at_least(EventKind::pool_state, "stop-threaded-io", 1);
  rig.await_at_least(EventKind::task_handoff, "below-threshold", 2);  // the hold and this one
  CHECK_FALSE(s.io_threads_active());

  threaded_batch();
  CHECK(s.io_threads_active());
  // No reply at all: beforeSleep does nothing, but serverCron, every 100 ms at hz 10, parks them.
  rig.clock.advance(99ms);
  CHECK(s.io_threads_active());
  rig.clock.advance(1ms);
  rig.await_at_least(EventKind::pool_state, "cron-stop-threaded-io", 1);
  CHECK_FALSE(s.io_threads_active());
  // The I/O thread parks again once its spin finds nothing: a park after the stop.
  await_condition(
      [&] {
        rig.log.sync();
        bool stopped = false;
        for (const Event& e : rig.log.events()) {
          if (test::has_code(e, EventKind::pool_state, "cron-stop-threaded-io")) stopped = true;
          if (stopped && test::has_code(e, EventKind::worker_idle, "io-thread-park")) return true;
        }
        return false;
      },
      "the I/O thread parked after serverCron stopped threaded I/O");
}

TEST_CASE("redis-io: shutdown-now drops the replies still pending: graceful writes them") {
  Rig rig;
  {
    Server s(config(2), rig.target("redis-io"));
    Gate hold;
    hold_main(s, hold);
    for (int i = 0; i < 5; ++i) s.putClientInPendingWriteQueue([] {});
    std::size_t dropped = 0;
    Thread stopping("stop", [&] { dropped = s.shutdown_(true); });
    rig.await_at_least(EventKind::task_dropped, "shutdown", 5);
    hold.open();
    stopping.join();
    CHECK(dropped == 5);
    CHECK(s.trace().accounting().balanced());
    CHECK(s.state() == Counters{});
  }
  {
    Rig rig2;
    Server s(config(2), rig2.target("redis-io"));
    Gate hold;
    hold_main(s, hold);
    for (int i = 0; i < 5; ++i) s.putClientInPendingWriteQueue([] {});
    Thread stopping("stop", [&] { s.shutdown_(false); });
    hold.open();
    stopping.join();
    CHECK(s.trace().accounting().completed == 6);
    CHECK(rig2.count(EventKind::worker_exited, "shutdown") == 2);
    CHECK(s.state() == Counters{});
  }
}

TEST_CASE("redis-io: with 4 threads, 4 submitters x 2,000 replies are all written and accounted for") {
  Rig rig;
  auto pool = Registry::global().create("redis-io", {{"io-threads", 4}, {"spins", 1000}}, rig.target("redis-io"));
  std::atomic<int> ran{0}, accepted{0};
  std::vector<Thread> submitters;
  for (int t = 0; t < 4; ++t)
    submitters.emplace_back("submitter", [&] {
      for (int i = 0; i < 2000; ++i) accepted += pool->submit([&] { ++ran; }).accepted() ? 1 : 0;
    });
  for (Thread& t : submitters) t.join();
  CHECK(accepted == 8000);
  pool->shutdown(ShutdownMode::graceful);
  Accounting acc = pool->accounting();
  CHECK(acc.submitted == 8000);
  CHECK(acc.completed == 8000);
  CHECK(ran == 8000);
  CHECK(pool->state() == Counters{});
}

TEST_CASE("redis-io: Redis' defaults and limits") {
  const Design& d = Registry::global().get("redis-io");
  CHECK(d.param("io-threads")->default_value == 1);
  CHECK(d.param("io-threads")->max == 128);
  CHECK(d.param("hz")->default_value == 10);
  CHECK(d.param("spins")->default_value == 1000000);
  Rig rig;
  CHECK_THROWS_WITH(Server(Config{.io_threads_num = 129}, rig.target("redis-io")),
                    "Fatal: too many I/O threads configured. The maximum number is 128.");
}
