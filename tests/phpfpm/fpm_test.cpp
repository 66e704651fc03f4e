// php-fpm's process manager (seed-systems.md §2): the config checks, the
// once-a-second maintenance on a manual clock (one second at a time, each
// tick awaited, every forked child awaited in accept() before the next),
// ondemand's fork per wake-up of the master and its idle timeout,
// max_requests. fidelity_test.cpp has the figures measured on php-fpm 8.2.36.
#include <atomic>
#include <memory>
#include <string>
#include <vector>

#include "pools/core/thread.h"
#include "pools/core/trace_log.h"
#include "pools/phpfpm/fpm_worker_pool.h"
#include "tests/support/sync.h"
#include "tests/support/trace_rig.h"

using namespace poolscope;
using namespace poolscope::phpfpm;
using namespace std::chrono_literals;
using test::await_condition;
using test::Gate;

namespace {

struct Rig : test::TraceRig {
  TraceTarget target() { return TraceRig::target("phpfpm"); }
};

fpm_worker_pool_config_s dynamic(int max_children, int start, int min_spare, int max_spare) {
  fpm_worker_pool_config_s c = fpm_worker_pool_config_alloc();
  c.pm = PM_STYLE_DYNAMIC;
  c.pm_max_children = max_children;
  c.pm_start_servers = start;
  c.pm_min_spare_servers = min_spare;
  c.pm_max_spare_servers = max_spare;
  REQUIRE(fpm_conf_process_all_pools(c).error.empty());
  return c;
}

void await_still(fpm_worker_pool_s& wp);

// Moves the clock one second, to the next heartbeat, and waits for its tick,
// then until the children are still: each in accept() or in a request (none
// just forked), and none in accept() while a connection waits for it.
void tick(Rig& rig, fpm_worker_pool_s& wp, std::size_t n) {
  rig.clock.advance(1s);
  rig.await_count(EventKind::cleaner_pass, "maintenance", n);
  await_still(wp);
}

void await_still(fpm_worker_pool_s& wp) {
  await_condition(
      [&] {
        Counters c = wp.counters_();
        const auto idle = static_cast<std::uint32_t>(wp.idle_());
        return idle + c.busy == c.workers && (idle == 0 || c.queued == 0);
      },
      "every child in accept() or in a request, and no connection waiting for an idle one");
}

std::size_t spawned(Rig& rig, std::string_view rule) { return rig.count(EventKind::worker_spawned, rule); }

}  // namespace

TEST_CASE("phpfpm: the config's defaults and fpm_conf's checks, in order, with php-fpm's texts") {
  fpm_worker_pool_config_s c = fpm_worker_pool_config_alloc();
  CHECK(c.listen_backlog == -1);  // 8.2: somaxconn
  CHECK(c.pm_max_spawn_rate == 32);
  CHECK(c.pm_process_idle_timeout == 10);
  CHECK(c.pm_max_requests == 0);
  CHECK(fpm_conf_process_all_pools(c).error ==
        "[pool www] the process manager is missing (static, dynamic or ondemand)");
  c.pm = PM_STYLE_DYNAMIC;
  CHECK(fpm_conf_process_all_pools(c).error == "[pool www] pm.max_children must be a positive value");
  c.pm_max_children = 5;
  CHECK(fpm_conf_process_all_pools(c).error == "[pool www] pm.min_spare_servers(0) must be a positive value");
  c.pm_min_spare_servers = 4;
  CHECK(fpm_conf_process_all_pools(c).error == "[pool www] pm.max_spare_servers(0) must be a positive value");
  c.pm_max_spare_servers = 6;
  CHECK(fpm_conf_process_all_pools(c).error ==
        "[pool www] pm.min_spare_servers(4) and pm.max_spare_servers(6) cannot be greater than pm.max_children(5)");
  c.pm_max_spare_servers = 3;
  CHECK(fpm_conf_process_all_pools(c).error ==
        "[pool www] pm.max_spare_servers(3) must not be less than pm.min_spare_servers(4)");
  c.pm_min_spare_servers = 1;
  c.pm_start_servers = 4;
  CHECK(fpm_conf_process_all_pools(c).error ==
        "[pool www] pm.start_servers(4) must not be less than pm.min_spare_servers(1) and not greater than "
        "pm.max_spare_servers(3)");
  c.pm_start_servers = 0;
  conf_check ok = fpm_conf_process_all_pools(c);
  CHECK(ok.error.empty());
  CHECK(c.pm_start_servers == 2);  // 1 + (3 - 1) / 2
  REQUIRE(ok.notices.size() == 1);
  CHECK(ok.notices[0] == "[pool www] pm.start_servers is not set. It's been set to 2.");
  c.pm_max_spawn_rate = 0;
  CHECK(fpm_conf_process_all_pools(c).error == "[pool www] pm.max_spawn_rate must be a positive value");

  fpm_worker_pool_config_s o = fpm_worker_pool_config_alloc();
  o.pm = PM_STYLE_ONDEMAND;
  o.pm_max_children = 5;
  o.pm_min_spare_servers = 2;
  o.pm_process_idle_timeout = 0;
  CHECK(fpm_conf_process_all_pools(o).error == "[pool www] pm.process_idle_timeout(0s) must be greater than 0s");
  o.pm_process_idle_timeout = 10;
  o.listen_backlog = 100;
  CHECK(fpm_conf_process_all_pools(o).notices.empty());  // 8.2: only a backlog below -1 is too low
  CHECK(o.listen_backlog == 100);
  CHECK(o.pm_min_spare_servers == 0);
}

TEST_CASE("phpfpm: dynamic forks 1, 2, 4, 8 ... per second while short of min_spare, and says it seems busy") {
  Rig rig;
  fpm_worker_pool_config_s c = dynamic(60, 20, 20, 30);
  fpm_worker_pool_s wp(c, rig.target());
  CHECK(spawned(rig, "start-servers") == 20);
  Gate gate;
  for (int i = 0; i < 20; ++i) REQUIRE(wp.connect_(Job{wp.trace_().submitted(), gate.task()}) == kNoLabel);
  gate.await_arrivals(20);  // every child busy: 0 idle

  const std::vector<std::size_t> forks = {1, 2, 4, 8, 5, 0};  // capped by min_spare - idle at the fifth
  std::size_t total = 0;
  for (std::size_t t = 0; t < forks.size(); ++t) {
    CAPTURE(t + 1);
    tick(rig, wp, t + 1);
    total += forks[t];
    CHECK(spawned(rig, "spare-spawn") == total);
  }
  CHECK(wp.idle_() == 20);
  CHECK(wp.idle_spawn_rate_() == 1);  // idle reached min_spare: the rate starts over
  // "seems busy" at the ticks whose rate was 8 and 16; the %d is the rate, not what was forked.
  auto busy = rig.events(EventKind::pool_state, "seems-busy");
  REQUIRE(busy.size() == 2);
  CHECK(busy[0].arg == 8);
  CHECK(busy[1].arg == 16);
  CHECK(busy[1].arg2 == 15);  // idle children at that tick
  gate.open();
  wp.fpm_pctl_(false);
}

TEST_CASE("phpfpm: the spawn rate doubles once a second up to pm.max_spawn_rate 32, then stays there") {
  // Confirmed on php-fpm 8.2.36 (issue 42 item 6): 1, 2, 4, 8, ... then the cap.
  Rig rig;
  fpm_worker_pool_s wp(dynamic(200, 100, 100, 150), rig.target());
  Gate gate;
  for (int i = 0; i < 100; ++i) REQUIRE(wp.connect_(Job{wp.trace_().submitted(), gate.task()}) == kNoLabel);
  gate.await_arrivals(100);
  const std::vector<std::size_t> forks = {1, 2, 4, 8, 16, 32, 32, 5};  // the last: min_spare - idle
  std::size_t total = 0;
  for (std::size_t t = 0; t < forks.size(); ++t) {
    CAPTURE(t + 1);
    tick(rig, wp, t + 1);
    total += forks[t];
    CHECK(spawned(rig, "spare-spawn") == total);
  }
  gate.open();
  wp.fpm_pctl_(false);
}

TEST_CASE("phpfpm: pm.max_spawn_rate 5 is checked before doubling: the rates are 1, 2, 4, 8, 8") {
  Rig rig;
  fpm_worker_pool_config_s c = dynamic(80, 30, 30, 45);
  c.pm_max_spawn_rate = 5;
  fpm_worker_pool_s wp(c, rig.target());
  Gate gate;
  for (int i = 0; i < 30; ++i) REQUIRE(wp.connect_(Job{wp.trace_().submitted(), gate.task()}) == kNoLabel);
  gate.await_arrivals(30);
  const std::vector<std::size_t> forks = {1, 2, 4, 8, 8, 7};
  std::size_t total = 0;
  for (std::size_t t = 0; t < forks.size(); ++t) {
    CAPTURE(t + 1);
    tick(rig, wp, t + 1);
    total += forks[t];
    CHECK(spawned(rig, "spare-spawn") == total);
  }
  CHECK(rig.count(EventKind::pool_state, "seems-busy") == 3);
  gate.open();
  wp.fpm_pctl_(false);
}

TEST_CASE("phpfpm: one max_children warning per episode: then one idle child stopped per tick, the oldest first") {
  Rig rig;
  fpm_worker_pool_s wp(dynamic(5, 2, 2, 3), rig.target());
  std::vector<std::unique_ptr<Gate>> gates;
  for (int i = 0; i < 5; ++i) {
    gates.push_back(std::make_unique<Gate>());
    REQUIRE(wp.connect_(Job{wp.trace_().submitted(), gates.back()->task()}) == kNoLabel);
  }
  await_still(wp);   // the 2 start servers took a connection each; 3 wait
  tick(rig, wp, 1);  // idle 0 < 2: fork 1 (it takes a waiting connection)
  tick(rig, wp, 2);  // fork 2 (rate 2): 5 children, all busy
  await_condition([&] { return wp.counters_() == Counters{5, 5, 0, 0}; }, "5 busy children");
  for (std::size_t t = 3; t <= 6; ++t) tick(rig, wp, t);
  CHECK(wp.max_children_reached_() == 1);
  auto warned = rig.events(EventKind::pool_state, "max-children-reached");
  REQUIRE(warned.size() == 1);
  CHECK(warned[0].arg == 5);

  for (auto& g : gates) g->open();
  await_condition([&] { return wp.idle_() == 5; }, "5 idle children");
  tick(rig, wp, 7);  // idle 5 > 3: stop one
  rig.await_count(EventKind::worker_exited, "pm-kill", 1);
  tick(rig, wp, 8);  // idle 4 > 3: stop another
  rig.await_count(EventKind::worker_exited, "pm-kill", 2);
  tick(rig, wp, 9);  // idle 3: nobody
  auto reaped = rig.events(EventKind::worker_reaped, "max-spare");
  REQUIRE(reaped.size() == 2);
  // The two children forked at start (time 0) go first, one per tick.
  CHECK(reaped[0].worker <= 2);
  CHECK(reaped[1].worker <= 2);
  CHECK(reaped[0].worker != reaped[1].worker);
  CHECK(rig.count(EventKind::worker_spawned, "respawn") == 0);  // stopped by the PM: not replaced
  CHECK(wp.counters_().workers == 3);
  wp.fpm_pctl_(false);
}

TEST_CASE("phpfpm: ondemand forks when no child is idle, then stops only the oldest idle child once idle past the timeout") {
  Rig rig;
  fpm_worker_pool_config_s c = fpm_worker_pool_config_alloc();
  c.pm = PM_STYLE_ONDEMAND;
  c.pm_max_children = 5;
  REQUIRE(fpm_conf_process_all_pools(c).error.empty());
  fpm_worker_pool_s wp(c, rig.target());
  CHECK(wp.counters_().workers == 0);  // nothing at start

  Gate a, b;
  REQUIRE(wp.connect_(Job{wp.trace_().submitted(), a.task()}) == kNoLabel);  // child A, forked at 0
  a.await_arrivals(1);
  tick(rig, wp, 1);
  REQUIRE(wp.connect_(Job{wp.trace_().submitted(), b.task()}) == kNoLabel);  // A is busy: child B, at 1
  b.await_arrivals(1);
  CHECK(spawned(rig, "ondemand-accept") == 2);
  rig.clock.advance(500ms);
  b.open();  // B idle since 1.5 s
  await_condition([&] { return wp.idle_() == 1; }, "B idle");
  rig.clock.advance(500ms);
  rig.await_count(EventKind::cleaner_pass, "maintenance", 2);
  for (std::size_t t = 3; t <= 9; ++t) tick(rig, wp, t);
  a.open();  // A idle since 9 s
  await_condition([&] { return wp.idle_() == 2; }, "A idle");
  for (std::size_t t = 10; t <= 19; ++t) tick(rig, wp, t);
  // At 12 s, B (idle since 1 s) was past the timeout, but only A, the oldest, is looked at.
  CHECK(rig.count(EventKind::worker_reaped) == 0);
  tick(rig, wp, 20);  // 9 < 20 - 10: A
  rig.await_count(EventKind::worker_exited, "pm-kill", 1);
  tick(rig, wp, 21);  // 1 < 21 - 10: B
  rig.await_count(EventKind::worker_exited, "pm-kill", 2);
  auto reaped = rig.events(EventKind::worker_reaped, "idle-timeout");
  REQUIRE(reaped.size() == 2);
  CHECK(reaped[0].worker == 1);
  CHECK(reaped[1].worker == 2);
  CHECK(reaped[0].time == std::chrono::nanoseconds(20s).count());
  wp.fpm_pctl_(false);
}

TEST_CASE("phpfpm: ondemand at max_children warns once and the connection waits in the backlog") {
  Rig rig;
  fpm_worker_pool_config_s c = fpm_worker_pool_config_alloc();
  c.pm = PM_STYLE_ONDEMAND;
  c.pm_max_children = 2;
  REQUIRE(fpm_conf_process_all_pools(c).error.empty());
  fpm_worker_pool_s wp(c, rig.target());
  Gate gate;
  for (int i = 0; i < 2; ++i) {
    REQUIRE(wp.connect_(Job{wp.trace_().submitted(), gate.task()}) == kNoLabel);
    gate.await_arrivals(i + 1);
  }
  REQUIRE(wp.connect_(Job{wp.trace_().submitted(), gate.task()}) == kNoLabel);
  REQUIRE(wp.connect_(Job{wp.trace_().submitted(), gate.task()}) == kNoLabel);
  rig.await_count(EventKind::pool_state, "ondemand-max-children", 1);  // the master's wake-up
  CHECK(wp.counters_() == Counters{2, 2, 2, 0});
  auto warned = rig.events(EventKind::pool_state, "ondemand-max-children");
  REQUIRE(warned.size() == 1);
  CHECK(warned[0].arg == 2);
  CHECK(label_text(warned[0].rule).find("server reached max_children setting (%d)") != std::string_view::npos);
  gate.open();
  wp.fpm_pctl_(false);
  CHECK(rig.count(EventKind::task_finished) == 4);
}

TEST_CASE("phpfpm: a child that served pm.max_requests exits and is replaced at once, not at a tick") {
  Rig rig;
  fpm_worker_pool_config_s c = fpm_worker_pool_config_alloc();
  c.pm = PM_STYLE_STATIC;
  c.pm_max_children = 1;
  c.pm_max_requests = 2;
  REQUIRE(fpm_conf_process_all_pools(c).error.empty());
  fpm_worker_pool_s wp(c, rig.target());
  CHECK(spawned(rig, "static-children") == 1);
  for (int i = 0; i < 5; ++i) REQUIRE(wp.connect_(Job{wp.trace_().submitted(), [] {}}) == kNoLabel);
  rig.await_count(EventKind::task_finished, "", 5);
  rig.await_count(EventKind::worker_exited, "max-requests", 2);
  rig.await_count(EventKind::worker_spawned, "respawn", 2);
  CHECK(rig.count(EventKind::cleaner_pass) == 0);  // the clock never moved
  wp.fpm_pctl_(false);
}

TEST_CASE("phpfpm: the listen backlog (listen.backlog + 1) is the only queue: past it a connection is refused") {
  Rig rig;
  fpm_worker_pool_config_s c = fpm_worker_pool_config_alloc();
  c.pm = PM_STYLE_STATIC;
  c.pm_max_children = 1;
  c.listen_backlog = 2;
  REQUIRE(fpm_conf_process_all_pools(c).error.empty());
  fpm_worker_pool_s wp(c, rig.target());
  Gate gate;
  REQUIRE(wp.connect_(Job{wp.trace_().submitted(), gate.task()}) == kNoLabel);
  gate.await_arrivals(1);
  for (int i = 0; i < 3; ++i) CHECK(wp.connect_(Job{wp.trace_().submitted(), gate.task()}) == kNoLabel);  // 2 + 1
  CHECK(wp.connect_(Job{wp.trace_().submitted(), gate.task()}) == phpfpm::rules::kBacklogFull);
  CHECK(wp.counters_() == Counters{1, 1, 3, 0});
  gate.open();
  wp.fpm_pctl_(false);
  CHECK(rig.count(EventKind::task_finished) == 4);
}

TEST_CASE("phpfpm: shutdown-now resets the backlog: graceful serves it first") {
  for (bool terminating : {true, false}) {
    CAPTURE(terminating);
    Rig rig;
    fpm_worker_pool_config_s c = fpm_worker_pool_config_alloc();
    c.pm = PM_STYLE_STATIC;
    c.pm_max_children = 1;
    REQUIRE(fpm_conf_process_all_pools(c).error.empty());
    fpm_worker_pool_s wp(c, rig.target());
    Gate gate;
    for (int i = 0; i < 4; ++i) REQUIRE(wp.connect_(Job{wp.trace_().submitted(), gate.task()}) == kNoLabel);
    gate.await_arrivals(1);
    Thread opener("opener", [&] {
      await_condition([&] { return rig.count(EventKind::pool_state) == 1; }, "the shutdown began");
      gate.open();
    });
    const int dropped = wp.fpm_pctl_(terminating);
    opener.join();
    CHECK(dropped == (terminating ? 3 : 0));
    CHECK(rig.count(EventKind::task_finished) == (terminating ? 1u : 4u));
    CHECK(rig.count(EventKind::worker_exited, terminating ? "terminating" : "finishing") == 1);
    CHECK(wp.counters_() == Counters{});
  }
}

TEST_CASE("phpfpm: a refused fork leaves the connection in the backlog: the next accept event forks again") {
  Rig rig;
  fpm_worker_pool_config_s c = fpm_worker_pool_config_alloc();
  c.pm = PM_STYLE_ONDEMAND;
  c.pm_max_children = 5;
  REQUIRE(fpm_conf_process_all_pools(c).error.empty());
  fpm_worker_pool_s wp(c, rig.target());
  {
    struct Disarm {
      ~Disarm() { testing::refuse_threads("", 0); }
    } disarm;
    testing::refuse_threads("php-fpm-", 1);
    REQUIRE(wp.connect_(Job{wp.trace_().submitted(), [] {}}) == kNoLabel);
    rig.await_count(EventKind::worker_exited, "thread-create-failed", 1);  // the master's fork, refused
  }
  CHECK(wp.counters_() == Counters{0, 0, 1, 0});
  REQUIRE(wp.connect_(Job{wp.trace_().submitted(), [] {}}) == kNoLabel);
  rig.await_count(EventKind::task_finished, "", 2);
  wp.fpm_pctl_(false);
}
