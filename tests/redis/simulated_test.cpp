// Redis' threaded I/O in the simulation (virtual time on the default machine:
// 2 CPUs, os-threads costs): how long an idle I/O thread burns a CPU, and
// when the I/O threads help (the writes dominate) and when they do not (the
// main thread's own work, reading and executing, dominates). Issue 42, items
// 7 and 8.
#include <chrono>

#include <catch2/catch.hpp>

#include "pools/core/sim/world.h"
#include "pools/core/trace_log.h"
#include "pools/redis/server.h"

using namespace std::chrono_literals;
using namespace poolscope;
using namespace poolscope::redis;

namespace {

// The first event of `kind` and `rule` at or after `from`.
Time first(TraceLog& log, EventKind kind, std::string_view rule, Time from = Time(0)) {
  log.sync();
  for (const Event& e : log.events())
    if (e.kind == kind && label_code(e.rule) == rule && Time(e.time) >= from) return Time(e.time);
  FAIL("no " << kind_name(kind) << " " << rule);
  return {};
}

// One burst of `n` clients per entry of `at` (at that instant), each reply's
// write a `write` sleep; returns the instant the last reply was written.
Time last_write(Config config, Nanos write, std::initializer_list<std::pair<Nanos, int>> bursts) {
  sim::World world;
  TraceStream stream{std::size_t{1} << 14};
  Time end{};
  world.run([&] {
    Clock& clock = world.clock();
    Server s(config, {.clock = &clock, .stream = &stream, .name = "redis-io"});
    for (const auto& [t, n] : bursts) {
      clock.sleep_until(Time(t));
      for (int i = 0; i < n; ++i) s.putClientInPendingWriteQueue([&] {
          clock.sleep_for(write);
          end = std::max(end, clock.now());
        });
    }
    s.shutdown_(false);
  });
  REQUIRE(world.leaked().empty());
  return end;
}

}  // namespace

TEST_CASE("redis-io, simulated: an idle I/O thread spins until serverCron stops threaded I/O, then 0.23 ms more") {
  sim::World world;
  TraceStream stream{std::size_t{1} << 14};
  TraceLog log{stream};
  world.run([&] {
    Clock& clock = world.clock();
    // Redis' defaults but io-threads 2: one I/O thread, 1,000,000 reads a spin.
    Server s(Config{.io_threads_num = 2}, {.clock = &clock, .stream = &stream, .name = "redis-io"});
    for (int i = 0; i < 4; ++i) s.putClientInPendingWriteQueue([] {});  // 2 x io-threads: threaded
    clock.sleep_until(Time(1s));
    s.shutdown_(false);
  });
  REQUIRE(world.leaked().empty());

  const Time barrier = first(log, EventKind::pool_state, "barrier");
  const Time cron = first(log, EventKind::pool_state, "cron-stop-threaded-io");
  const Time park = first(log, EventKind::worker_idle, "io-thread-park");
  CHECK(barrier < 1ms);
  // Threaded I/O stays on after the batch: nothing is pending, so beforeSleep
  // returns before stopThreadedIOIfNeeded. The next serverCron (hz 10) stops it.
  CHECK(cron >= 100ms);
  CHECK(cron < 101ms);
  // Meanwhile the I/O thread spins, its mutex free; once the main thread holds
  // it, the spin in progress (1,000,000 reads, 0.23 ms) ends and it parks.
  CHECK(park > cron);
  CHECK(park - cron <= 250us);
  // The CPU the run burnt is that spin: about 100 ms of an idle thread, for
  // four replies that took no time. (With a pause per read and a yield every
  // 20 µs, 1,000,000 reads took 38 ms of CPU in a real run and about 2.2 s
  // here.)
  CHECK(world.cpu_used() >= 100ms);
  CHECK(world.cpu_used() < 102ms);
}

TEST_CASE("redis-io, simulated: I/O threads help when the writes dominate, not when the main thread's work does") {
  // 400 clients at once. The main thread reads and executes every command
  // (exec) before any write; the writes are dealt over the I/O threads.
  const Config one{.io_threads_num = 1};
  const Config four{.io_threads_num = 4};

  SECTION("writes dominate: 1 ms writes, 10 µs commands") {
    Config c1 = one, c4 = four;
    c1.exec_ = c4.exec_ = 10us;
    const Time t1 = last_write(c1, 1ms, {{0s, 400}});
    const Time t4 = last_write(c4, 1ms, {{0s, 400}});
    INFO("io-threads 1: " << t1.count() << " ns, io-threads 4: " << t4.count() << " ns");
    CHECK(t1 >= 404ms);  // 400 x 10 µs, then 400 x 1 ms, all on the main thread
    CHECK(t4 < 110ms);   // 400 x 10 µs, then 100 x 1 ms on each of 4 threads
  }
  SECTION("commands dominate: 10 µs writes, 1 ms commands") {
    Config c1 = one, c4 = four;
    c1.exec_ = c4.exec_ = 1ms;
    const Time t1 = last_write(c1, 10us, {{0s, 400}});
    const Time t4 = last_write(c4, 10us, {{0s, 400}});
    INFO("io-threads 1: " << t1.count() << " ns, io-threads 4: " << t4.count() << " ns");
    CHECK(t1 >= 404ms);
    CHECK(t4 >= 400ms);  // the main thread executes all 400 whatever io-threads says
    CHECK(t4 > t1 * 95 / 100);
  }
  SECTION("reads dominate: io-threads-do-reads moves them off the main thread, once the threads are active") {
    // 1 ms reads. A first burst of 8 turns threaded I/O on (its reads are the
    // main thread's: a read is postponed only while the threads are active);
    // the 400 at 20 ms then have their reads dealt over the four threads.
    Config no = four, yes = four;
    no.read_ = yes.read_ = 1ms;
    yes.io_threads_do_reads = true;
    const Time t_no = last_write(no, 10us, {{0s, 8}, {20ms, 400}});
    const Time t_yes = last_write(yes, 10us, {{0s, 8}, {20ms, 400}});
    INFO("do-reads no: " << t_no.count() << " ns, yes: " << t_yes.count() << " ns");
    CHECK(t_no >= 420ms);  // 400 reads of 1 ms on the main thread, from 20 ms
    // Four threads read 100 each, on 2 CPUs: about half.
    CHECK(t_yes < t_no * 6 / 10);
  }
}

TEST_CASE("redis-io, simulated: spins 0 still lets virtual time move (the idle loop is lock, unlock, again)") {
  sim::World world;
  TraceStream stream{std::size_t{1} << 14};
  TraceLog log{stream};
  world.run([&] {
    Clock& clock = world.clock();
    Server s(Config{.io_threads_num = 2, .spins_ = 0}, {.clock = &clock, .stream = &stream, .name = "redis-io"});
    for (int i = 0; i < 4; ++i) s.putClientInPendingWriteQueue([] {});
    clock.sleep_until(Time(1s));
    s.shutdown_(false);
  });
  REQUIRE(world.leaked().empty());
  // Threaded I/O stays on until serverCron, the I/O thread going round its
  // loop (a yield's worth of virtual CPU each time); it parks right after.
  const Time cron = first(log, EventKind::pool_state, "cron-stop-threaded-io");
  const Time park = first(log, EventKind::worker_idle, "io-thread-park", cron);
  CHECK(cron >= 100ms);
  CHECK(park - cron < 10us);
}
