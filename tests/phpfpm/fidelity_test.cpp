// php-fpm 8.2.36 measured on Debian 12 (issue 42): ondemand forks once per
// wake-up of its master; the backlog holds backlog + 1; a full backlog is
// refused, waited out or retransmitted by the client; -1 is the default
// backlog; ondemand's idle stop falls timeout to timeout + 1 s after the idle
// moment. The measured workloads are shipped scenarios, run here in the
// simulation (virtual time on the default machine, several schedule seeds);
// the rules underneath run on a manual clock.
#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "pools/core/trace_log.h"
#include "pools/phpfpm/fpm_worker_pool.h"
#include "scenarios/engine/engine.h"
#include "tests/support/sync.h"

using namespace poolscope;
using namespace poolscope::phpfpm;
using namespace std::chrono_literals;
using test::await_condition;
using test::Gate;

namespace {

// A shipped scenario, simulated under schedule seed `seed`, every event kept.
scenario::RunResult simulate(const std::string& file, std::uint64_t seed) {
  const scenario::Scenario s =
      scenario::load_scenario(std::filesystem::path(POOLSCOPE_SOURCE_DIR) / "scenarios" / "library" / file);
  scenario::RunOptions o;
  o.keep_events = true;
  o.simulation = scenario::simulation_settings(s);
  o.simulation->seed = seed;
  return scenario::run_scenario(s, o);
}

struct PoolRun {
  metrics::Summary summary;
  std::vector<Event> events;
  std::vector<Event> of(EventKind kind, std::string_view rule = {}) const {
    std::vector<Event> out;
    for (const Event& e : events)
      if (e.kind == kind && (rule.empty() || label_code(e.rule) == rule)) out.push_back(e);
    return out;
  }
};

PoolRun pool_run(const scenario::RunResult& r, const std::string& name) {
  for (const scenario::PoolOutcome& p : r.outcome.pools) {
    if (p.name != name) continue;
    PoolRun run{r.metrics.pool(p.trace_id)->summary(), {}};
    for (const Event& e : r.metrics.events())
      if (e.pool == p.trace_id) run.events.push_back(e);
    return run;
  }
  FAIL("no pool " << name);
  return {};
}

double seconds(std::int64_t ns) { return static_cast<double>(ns) / 1e9; }

struct ManualRig {
  ManualClock clock;
  TraceStream stream{std::size_t{1} << 16};
  TraceLog log{stream};
  TraceTarget target() { return {.clock = &clock, .stream = &stream, .name = "phpfpm"}; }
  std::size_t count(EventKind kind, std::string_view rule = {}) {
    log.sync();
    const std::vector<Event> events = log.events();
    return static_cast<std::size_t>(std::count_if(events.begin(), events.end(), [&](const Event& e) {
      return e.kind == kind && (rule.empty() || label_code(e.rule) == rule);
    }));
  }
  void await_count(EventKind kind, std::string_view rule, std::size_t n) {
    await_condition([&] { return count(kind, rule) == n; }, std::to_string(n) + " " + std::string(rule));
  }
};

fpm_worker_pool_config_s ondemand_config(int max_children, int idle_timeout) {
  fpm_worker_pool_config_s c = fpm_worker_pool_config_alloc();
  c.pm = PM_STYLE_ONDEMAND;
  c.pm_max_children = max_children;
  c.pm_process_idle_timeout = idle_timeout;
  REQUIRE(fpm_conf_process_all_pools(c).error.empty());
  return c;
}

}  // namespace

TEST_CASE("phpfpm 8.2.36: ondemand forks 1 to 4 children for a burst of 20, never reaching max_children 10") {
  // Measured: max_children 10, process_idle_timeout 2s, bursts of 20
  // requests of 100 ms whose connects took 0.6-2.6 ms: 1 to 4 forks a
  // burst, peak 2-4, 4-6 over two bursts, a burst done in 0.7-2.0 s, and
  // "reached max_children" never logged.
  for (std::uint64_t seed : {1, 2, 3, 4, 5}) {
    CAPTURE(seed);
    const PoolRun run = pool_run(simulate("phpfpm-ondemand-bursts.json", seed), "phpfpm-ondemand");
    CHECK(run.summary.completed == 40);
    CHECK(run.summary.refused == 0);
    const std::vector<Event> forks = run.of(EventKind::worker_spawned, "ondemand-accept");
    for (const auto& [from, to] : {std::pair{0s, 7s}, std::pair{7s, 14s}}) {
      CAPTURE(from.count());
      const auto in = [&](const Event& e) { return e.time >= Nanos(from).count() && e.time < Nanos(to).count(); };
      const auto burst_forks = std::count_if(forks.begin(), forks.end(), in);
      CHECK(burst_forks >= 1);
      CHECK(burst_forks <= 4);
      std::int64_t last_end = 0;
      for (const Event& e : run.of(EventKind::task_finished))
        if (in(e)) last_end = std::max(last_end, e.time - Nanos(from).count());
      CHECK(seconds(last_end) >= 0.7);
      CHECK(seconds(last_end) <= 2.0);
    }
    CHECK(forks.size() >= 4);
    CHECK(forks.size() <= 6);
    CHECK(run.summary.peak_workers >= 2);
    CHECK(run.summary.peak_workers <= 4);
    CHECK(run.of(EventKind::pool_state, "ondemand-max-children").empty());
    // Between the bursts every child was stopped: the second starts from none.
    CHECK(run.summary.reaped_by_rule.at("idle-timeout") == forks.size());
  }
}

TEST_CASE("phpfpm ondemand: connections that arrive while the master forks wake it once more, not once each") {
  ManualRig rig;
  fpm_worker_pool_config_s c = ondemand_config(10, 10);
  c.fork_time_ = 600us;
  c.child_start_ = 1500us;
  fpm_worker_pool_s wp(c, rig.target());
  Gate gate;
  for (int i = 0; i < 5; ++i) REQUIRE(wp.connect_(Job{wp.trace_().submitted(), gate.task()}) == kNoLabel);
  rig.await_count(EventKind::worker_spawned, "ondemand-accept", 1);  // one wake-up: one fork
  gate.await_arrivals(1);
  // The master is in fork() until 0.6 ms: five more connections, one event.
  for (int i = 0; i < 5; ++i) REQUIRE(wp.connect_(Job{wp.trace_().submitted(), gate.task()}) == kNoLabel);
  rig.clock.advance(600us);
  rig.await_count(EventKind::worker_spawned, "ondemand-accept", 2);
  gate.await_arrivals(2);
  rig.clock.advance(600us);  // 1.2 ms: back in epoll_wait; no connection since, no event, no fork
  await_condition([&] { return wp.counters_() == Counters{2, 2, 8, 0}; }, "2 busy children, 8 waiting");
  CHECK(rig.count(EventKind::worker_spawned) == 2);
  // A connection now wakes the master, which finds no idle child: a third.
  REQUIRE(wp.connect_(Job{wp.trace_().submitted(), gate.task()}) == kNoLabel);
  rig.await_count(EventKind::worker_spawned, "ondemand-accept", 3);
  gate.open();
  wp.fpm_pctl_(false);
  CHECK(rig.count(EventKind::task_finished) == 11);
}

TEST_CASE("phpfpm ondemand: a child is not idle until child_start after its fork, so the master forks again") {
  ManualRig rig;
  fpm_worker_pool_config_s c = ondemand_config(10, 10);
  c.child_start_ = 1500us;
  fpm_worker_pool_s wp(c, rig.target());
  REQUIRE(wp.connect_(Job{wp.trace_().submitted(), [] {}}) == kNoLabel);
  rig.await_count(EventKind::task_finished, "", 1);  // served; the child waits in accept(), still starting
  rig.clock.advance(600us);
  REQUIRE(wp.connect_(Job{wp.trace_().submitted(), [] {}}) == kNoLabel);
  rig.await_count(EventKind::worker_spawned, "ondemand-accept", 2);
  rig.await_count(EventKind::task_finished, "", 2);
  rig.clock.advance(1500us);  // 2.1 ms: both have started
  await_condition([&] { return wp.idle_() == 2; }, "2 idle children");
  REQUIRE(wp.connect_(Job{wp.trace_().submitted(), [] {}}) == kNoLabel);
  rig.await_count(EventKind::task_finished, "", 3);
  CHECK(rig.count(EventKind::worker_spawned) == 2);
  wp.fpm_pctl_(false);
}

TEST_CASE("phpfpm: the backlog holds listen.backlog + 1: -1 (8.2's default) and anything above somaxconn hold somaxconn + 1") {
  ManualRig rig;
  fpm_worker_pool_config_s c = fpm_worker_pool_config_alloc();
  CHECK(c.listen_backlog == -1);
  CHECK(c.somaxconn_ == 4096);
  c.pm = PM_STYLE_STATIC;
  c.pm_max_children = 1;
  REQUIRE(fpm_conf_process_all_pools(c).error.empty());
  {
    fpm_worker_pool_s wp(c, rig.target());
    CHECK(wp.listen_queue_limit_() == 4097);
  }
  c.listen_backlog = 100000;
  CHECK(fpm_worker_pool_s(c, rig.target()).listen_queue_limit_() == 4097);
  c.somaxconn_ = 128;
  CHECK(fpm_worker_pool_s(c, rig.target()).listen_queue_limit_() == 129);

  c.listen_backlog = 8;
  fpm_worker_pool_s wp(c, rig.target());
  Gate gate;
  REQUIRE(wp.connect_(Job{wp.trace_().submitted(), gate.task()}) == kNoLabel);
  gate.await_arrivals(1);  // the child took one: 9 more fit
  for (int i = 0; i < 9; ++i) CHECK(wp.connect_(Job{wp.trace_().submitted(), gate.task()}) == kNoLabel);
  CHECK(wp.connect_(Job{wp.trace_().submitted(), gate.task()}) == phpfpm::rules::kBacklogFull);
  CHECK(wp.counters_() == Counters{1, 1, 9, 0});
  gate.open();
  wp.fpm_pctl_(false);
}

TEST_CASE("phpfpm 8.2.36: static 4, backlog 8, 40 requests at once: what a full backlog does is the client's") {
  // Measured: non-blocking unix 13 completed, 27 refused in every run;
  // blocking unix 40 completed, connects waited up to 0.36 s; TCP 40
  // completed, all done at 1.54 s. The connects start 100 ms into the run,
  // when the children wait in accept().
  constexpr std::int64_t kConnects = Nanos(100ms).count();
  for (std::uint64_t seed : {1, 2, 3}) {
    CAPTURE(seed);
    const scenario::RunResult r = simulate("phpfpm-backlog.json", seed);

    const PoolRun nonblocking = pool_run(r, "nonblocking-unix");
    CHECK(nonblocking.summary.completed == 13);
    CHECK(nonblocking.summary.refused == 27);
    CHECK(nonblocking.summary.refused_by_reason.at("backlog-full") == 27);

    const PoolRun blocking = pool_run(r, "blocking-unix");
    CHECK(blocking.summary.completed == 40);
    CHECK(blocking.summary.refused == 0);
    // One client thread: each connect() that waits holds up the next; the
    // last returns when a child's accept() makes room, about 0.35 s in.
    CHECK(blocking.summary.peak_blocked == 1);
    std::int64_t last_connect = 0;
    for (const Event& e : blocking.of(EventKind::submitter_unblocked)) last_connect = std::max(last_connect, e.time);
    CHECK(seconds(last_connect - kConnects) == Approx(0.36).margin(0.03));

    const PoolRun tcp = pool_run(r, "tcp");
    CHECK(tcp.summary.completed == 40);
    CHECK(tcp.summary.refused == 0);
    CHECK(tcp.of(EventKind::task_queued, "syn-dropped").size() == 27);
    std::int64_t last_end = 0;
    for (const Event& e : tcp.of(EventKind::task_finished)) last_end = std::max(last_end, e.time);
    // The model's 1.65 s: 13 in at once, 27 SYNs dropped; at 1 s 13 more, the
    // other 14 half-open; at 1.2 s 13 of them, the last at 1.6 s.
    CHECK(seconds(last_end - kConnects) == Approx(1.54).margin(0.15));
  }
}

TEST_CASE("phpfpm 8.2: an ondemand pool with a small backlog gets no warning: only a backlog below -1 is raised") {
  fpm_worker_pool_config_s c = ondemand_config(5, 10);
  c.listen_backlog = 8;
  conf_check small = fpm_conf_process_all_pools(c);
  CHECK(small.notices.empty());
  CHECK(c.listen_backlog == 8);
  c.listen_backlog = -5;
  conf_check negative = fpm_conf_process_all_pools(c);
  REQUIRE(negative.notices.size() == 1);
  CHECK(negative.notices[0] ==
        "[pool www] listen.backlog(-5) was too low for the ondemand process manager. I updated it for you to -1.");
  CHECK(c.listen_backlog == -1);
}

TEST_CASE("phpfpm ondemand: the idle stop falls timeout to timeout + 1 s after the idle moment, by the clock's phase") {
  // process_idle_timeout 2: the child goes idle at `idle` (pool time); the
  // tick that stops it is the first whose whole second of CLOCK_MONOTONIC is
  // past the idle one's + 2. phase: the monotonic clock's fraction at t = 0.
  struct Case {
    Nanos phase, idle, stopped;
  };
  const std::vector<Case> cases = {
      {0ms, 1000ms, 4s},   // idle on a whole second: 3 s (timeout + 1)
      {0ms, 1200ms, 4s},   // 2.8 s
      {0ms, 1900ms, 4s},   // 2.1 s
      {500ms, 1400ms, 4s}, // monotonic 1.9 s: 2.6 s
      {500ms, 1600ms, 5s}, // monotonic 2.1 s: 3.4 s, where phase 0 gives 2.4 s
      {0ms, 1600ms, 4s},
  };
  for (const Case& k : cases) {
    CAPTURE(k.phase.count(), k.idle.count());
    ManualRig rig;
    fpm_worker_pool_config_s c = ondemand_config(1, 2);
    c.clock_phase_ = k.phase;
    fpm_worker_pool_s wp(c, rig.target());
    Gate gate;
    REQUIRE(wp.connect_(Job{wp.trace_().submitted(), gate.task()}) == kNoLabel);
    gate.await_arrivals(1);
    std::size_t ticks = 0;
    Nanos t{0};
    auto to = [&](Nanos when) {  // moves the clock to `when`, a tick at a time
      while (t < when) {
        const Nanos step = std::min(when, (t / 1s + 1) * Nanos(1s)) - t;
        rig.clock.advance(step);
        t += step;
        if (t % 1s == 0ns) rig.await_count(EventKind::cleaner_pass, "maintenance", ++ticks);
      }
    };
    to(k.idle);
    gate.open();
    await_condition([&] { return wp.idle_() == 1; }, "the child idle");
    while (rig.count(EventKind::worker_reaped, "idle-timeout") == 0 && t < 10s) to(t + 1s - t % 1s);
    CHECK(t == k.stopped);
    const Nanos after = k.stopped - k.idle;
    if (k.phase == 0ms) {
      CHECK(after > 2s);
      CHECK(after <= 3s);
    }
    wp.fpm_pctl_(false);
  }
}
