// Redis' bio threads against bio.c's rules: one thread and one FIFO list per
// job type, the running job still counted as pending, bioWaitStepOfType.
#include "pools/redis/bio.h"

#include <mutex>
#include <vector>

#include "pools/core/registry.h"
#include "pools/core/sim/world.h"
#include "tests/redis/rig.h"

using namespace poolscope;
using namespace poolscope::redis;
using test::await_condition;
using test::Gate;
using test::Rig;

TEST_CASE("redis-bio: one thread per job type, started by bioInit") {
  Rig rig;
  Bio bio(rig.target("redis-bio"));
  CHECK(rig.count(EventKind::worker_spawned, "bio-init") == 3);
  rig.await_at_least(EventKind::worker_idle, "bio-newjob-cond", 3);
  CHECK(bio.state() == Counters{.workers = 3});
}

TEST_CASE("redis-bio: a type's jobs run one at a time, first in first out: the running one is still pending") {
  Rig rig;
  Bio bio(rig.target("redis-bio"));
  Gate a, b, c;
  std::mutex m;
  std::vector<int> order;
  auto job = [&](Gate& g, int i) {
    return [&, i] {
      g.pass();
      std::lock_guard l(m);
      order.push_back(i);
    };
  };
  bio.bioCreateLazyFreeJob(job(a, 1));
  bio.bioCreateLazyFreeJob(job(b, 2));
  bio.bioCreateLazyFreeJob(job(c, 3));
  a.await_arrivals(1);
  CHECK(bio.bioPendingJobsOfType(BIO_LAZY_FREE) == 3);  // the running job counts
  CHECK(bio.state() == Counters{.workers = 3, .busy = 1, .queued = 2});
  CHECK(b.arrived() == 0);
  a.open();
  b.await_arrivals(1);
  CHECK(bio.bioPendingJobsOfType(BIO_LAZY_FREE) == 2);
  b.open();
  c.await_arrivals(1);
  CHECK(bio.bioPendingJobsOfType(BIO_LAZY_FREE) == 1);
  c.open();
  bio.bioKillThreads(false);
  CHECK(order == std::vector<int>{1, 2, 3});
  CHECK(bio.bioPendingJobsOfType(BIO_LAZY_FREE) == 0);
}

TEST_CASE("redis-bio: a job waits only behind jobs of its own type") {
  Rig rig;
  Bio bio(rig.target("redis-bio"));
  Gate slow_fsync;
  bio.bioCreateFsyncJob(slow_fsync.task());
  slow_fsync.await_arrivals(1);
  std::atomic<bool> closed{false}, freed{false}, second_fsync{false};
  bio.bioCreateFsyncJob([&] { second_fsync = true; });
  bio.bioCreateCloseJob([&] { closed = true; });
  bio.bioCreateLazyFreeJob([&] { freed = true; });
  await_condition([&] { return closed && freed; }, "the close and the lazy free ran beside the slow fsync");
  CHECK_FALSE(second_fsync);
  CHECK(bio.bioPendingJobsOfType(BIO_AOF_FSYNC) == 2);
  slow_fsync.open();
  bio.bioKillThreads(false);
  CHECK(second_fsync);
}

TEST_CASE("redis-bio: bioWaitStepOfType returns once one job of the type is done") {
  Rig rig;
  Bio bio(rig.target("redis-bio"));
  CHECK(bio.bioWaitStepOfType(BIO_CLOSE_FILE) == 0);  // nothing pending: no wait
  Gate gate;
  bio.bioCreateCloseJob(gate.task());
  bio.bioCreateCloseJob([] {});
  gate.await_arrivals(1);
  std::atomic<long> tid{0};
  std::atomic<unsigned long long> left{99};
  Thread waiter("waiter", [&] {
    tid = test::current_tid();
    left = bio.bioWaitStepOfType(BIO_CLOSE_FILE);
  });
  await_condition([&] { return tid != 0; }, "the waiter began");
  test::await_blocked(tid, "bioWaitStepOfType waits for a step");
  CHECK(left == 99);
  gate.open();
  waiter.join();
  CHECK(left <= 1);  // the first job is done; the second may be too
  bio.bioKillThreads(false);
}

TEST_CASE("redis-bio: shutdown-now drops the jobs that have not started") {
  Rig rig;
  auto pool = Registry::global().create("redis-bio", {{"jobType", "BIO_LAZY_FREE"}}, rig.target("redis-bio"));
  Gate gate;
  REQUIRE(pool->submit(gate.task()).accepted());
  gate.await_arrivals(1);
  for (int i = 0; i < 4; ++i) REQUIRE(pool->submit([] {}).accepted());
  Thread stopping("stop", [&] { pool->shutdown(ShutdownMode::now); });
  rig.await_at_least(EventKind::task_dropped, "shutdown", 4);
  gate.open();
  stopping.join();
  Accounting acc = pool->accounting();
  CHECK(acc.completed == 1);
  CHECK(acc.dropped == 4);
  CHECK(acc.balanced());
}

TEST_CASE("redis-bio: the job type is the caller's: one type by default, round-robin only when asked") {
  Rig rig;
  SECTION("default: every task is a lazy free, as every bioCreateLazyFreeJob is") {
    auto pool = Registry::global().create("redis-bio", nullptr, rig.target("redis-bio"));
    for (int i = 0; i < 9; ++i) REQUIRE(pool->submit([] {}).accepted());
    pool->shutdown(ShutdownMode::graceful);
    CHECK(rig.count(EventKind::task_queued, "bio-lazy-free") == 9);
    CHECK(rig.count(EventKind::task_queued) == 9);
  }
  SECTION("jobType round-robin deals the tasks over the three threads") {
    auto pool = Registry::global().create("redis-bio", {{"jobType", "round-robin"}}, rig.target("redis-bio"));
    for (int i = 0; i < 9; ++i) REQUIRE(pool->submit([] {}).accepted());
    pool->shutdown(ShutdownMode::graceful);
    CHECK(rig.count(EventKind::task_queued, "bio-close-file") == 3);
    CHECK(rig.count(EventKind::task_queued, "bio-aof-fsync") == 3);
    CHECK(rig.count(EventKind::task_queued, "bio-lazy-free") == 3);
  }
}

namespace {

// A burst of 30 jobs of 10 ms at t = 0 on the default simulated machine;
// returns when the last one ended.
Nanos burst_done(const json& config) {
  using namespace std::chrono_literals;
  sim::World world;
  TraceStream stream{std::size_t{1} << 12};
  Time end{};
  world.run([&] {
    Clock& clock = world.clock();
    auto pool = Registry::global().create("redis-bio", config, {.clock = &clock, .stream = &stream, .name = "bio"});
    for (int i = 0; i < 30; ++i) REQUIRE(pool->submit([&] { clock.sleep_for(10ms); }).accepted());
    pool->shutdown(ShutdownMode::graceful);
    end = clock.now();
  });
  return end;
}

}  // namespace

TEST_CASE("redis-bio, simulated: a burst of one job type runs on one thread, round-robin gives three times that") {
  using namespace std::chrono_literals;
  // Redis: 30 lazy frees run one after another on the BIO_LAZY_FREE thread.
  const Nanos one_type = burst_done(nullptr);
  CHECK(one_type >= 300ms);
  CHECK(one_type < 302ms);
  // round-robin (not Redis): the same jobs on three threads, a third of the time.
  const Nanos spread = burst_done({{"jobType", "round-robin"}});
  CHECK(spread >= 100ms);
  CHECK(spread < 102ms);
}
