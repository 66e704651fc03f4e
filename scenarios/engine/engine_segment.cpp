// One segment of a run: the pools that run at once (all of them, or one at a
// time when the scenario's schedule is sequential), in four phases. Index:
//   Segment, SegmentClock      what a segment holds; its clock in a simulation
//   run_segment                the four phases, in order:
//     create_pools             the segment's clock, each pool from the registry
//     start_drivers            submitters and closed-loop clients per pool
//     monitor                  each poll: the trace into the metrics, then
//       watch                    each pool's watchdog, which may
//       report_stall             name a stall and shut the pool down at once,
//       close_pools              and the shutdown once the workload is over
//     collect                  join the drivers, record each pool's outcome
//   drain_trace, segment_paused  what the phases share
#include <algorithm>
#include <thread>

#include "pools/core/registry.h"
#include "scenarios/engine/engine_parts.h"
#include "scenarios/engine/process_stats.h"

namespace poolscope::scenario {

namespace {

// The clocks of pools abandoned with their threads stuck (a shutdown that
// hung): those threads may still wake on them, so they live as long as the
// process. Kept in a list rather than leaked, so that LeakSanitizer sees
// them as held, not lost.
void keep_for_abandoned_threads(std::shared_ptr<Clock> clock) {
  static std::mutex m;
  static auto* kept = new std::vector<std::shared_ptr<Clock>>;
  std::lock_guard g(m);
  kept->push_back(std::move(clock));
}

// How often a simulated run drains the trace and looks for stalls, in
// virtual time (a real run polls every RunOptions::poll of wall time).
constexpr Nanos kSimulatedPoll = std::chrono::milliseconds(10);

// A segment's clock in a simulation: the World's virtual time, counted from
// the segment's start, as each segment of a real run has a clock of its own.
class SegmentClock final : public Clock {
 public:
  SegmentClock(Clock& world, Time origin) : world_(world), origin_(origin) {}
  Time now() const override { return world_.now() - origin_; }
  std::cv_status wait_until(CondVar& cv, LockRef lock, Time deadline) override {
    return world_.wait_until(cv, lock, deadline + origin_);
  }

 private:
  Clock& world_;
  Time origin_;
};

}  // namespace

// A segment: its clock, a driver per pool, and the host's figures at its start.
struct Run::Segment {
  std::shared_ptr<Clock> clock;
  AdjustableClock* real_clock = nullptr;  // clock, in a real run
  std::vector<std::unique_ptr<Driver>> drivers;
  ProcessSample before;
  std::size_t threads_before = 0;
  std::uint64_t peak_rss = 0;
};

void Run::run_segment(const std::vector<std::size_t>& indices) {
  Segment seg;
  seg.before = sample_process();
  seg.threads_before = threads_created();
  seg.peak_rss = seg.before.rss_bytes;
  create_pools(seg, indices);
  start_drivers(seg);
  monitor(seg);
  collect(seg, indices);
}

// The segment's clock and its pools, each with the driver that feeds it.
void Run::create_pools(Segment& seg, const std::vector<std::size_t>& indices) {
  {
    // Published as soon as it exists, and born paused if the run is, so that
    // scenario time never moves unseen (now() reads 0 until then).
    std::lock_guard g(m_);
    if (sim::World* w = world_.load()) {
      seg.clock = std::make_shared<SegmentClock>(w->clock(), w->now());
    } else {
      auto real = std::make_shared<AdjustableClock>(scale_, paused_);
      seg.real_clock = real.get();
      seg.clock = std::move(real);
    }
    clock_ = seg.clock;
  }

  const Registry& registry = Registry::global();
  for (std::size_t i : indices) {
    auto d = std::make_unique<Driver>(*this, i, *seg.clock);
    // In a simulation, the pool's threads are named after it in reports.
    if (sim::World* w = sim::active()) w->set_group(pool_group(d->entry.name));
    outcome_.pools[i].name = d->entry.name;
    outcome_.pools[i].design = d->entry.design;
    outcome_.pools[i].ran_on = simulated_ ? "simulation" : options_.runtime == "goroutines" ? "goroutines" : "os-threads";
    outcome_.pools[i].config = d->entry.config;
    outcome_.pools[i].trace_id = kNoTrace;
    try {
      d->pool = registry.create(d->entry.design, d->entry.config,
                                TraceTarget{.clock = seg.clock.get(), .stream = &stream_, .name = d->entry.name});
    } catch (const std::system_error& e) {
      // A design that starts a helper thread in its constructor (a cleaner,
      // a purge ticker, a dispatcher) and was refused it: this pool does
      // not run, and the run ends early.
      note_thread_refused("pool '" + d->entry.name + "' at creation", e);
      continue;
    }
    d->ctx.pool = d->pool.get();
    d->ctx.clock = seg.clock.get();
    outcome_.pools[i].name = d->entry.name;
    outcome_.pools[i].design = d->entry.design;
    outcome_.pools[i].trace_id = d->pool->trace().id();
    seg.drivers.push_back(std::move(d));
  }
  if (sim::World* w = sim::active()) w->set_group("");
  {
    std::lock_guard g(metrics_m_);
    metrics_.set_pools(stream_.pools());
  }
  {
    // scale_ under the lock set_time_scale takes: from here on it updates these drivers too.
    std::lock_guard g(m_);
    for (auto& d : seg.drivers) {
      // Simulated spin tasks hold a virtual CPU for their whole duration: the pacer, not the task, sets the speed.
      d->ctx.time_scale.store(simulated_ ? 1.0 : scale_, std::memory_order_relaxed);
      live_.push_back(d.get());
    }
  }
}

// The submitters and closed-loop clients of every pool.
void Run::start_drivers(Segment& seg) {
  const auto submitters = static_cast<std::size_t>(scenario_.submitters);
  for (auto& d : seg.drivers) {
    d->lateness.resize(submitters);
    d->active = static_cast<int>(submitters + workload_.clients.size());
    Driver* p = d.get();
    if (sim::World* w = sim::active()) w->set_group(pool_group(d->entry.name));
    // A thread the system refuses is one fewer to wait for; the run then
    // ends early (note_thread_refused), and what was submitted is accounted.
    for (std::size_t k = 0; k < submitters; ++k) {
      try {
        d->threads.emplace_back("submit-" + std::to_string(k), [p, k, submitters] { p->submitter(k, submitters); });
      } catch (const std::system_error& e) {
        d->active--;
        note_thread_refused("submitter " + std::to_string(k) + " of pool '" + d->entry.name + "'", e);
      }
    }
    for (std::size_t c = 0; c < workload_.clients.size(); ++c) {
      try {
        d->threads.emplace_back("client-" + std::to_string(c), [p, c] { p->client(c); });
      } catch (const std::system_error& e) {
        d->active--;
        note_thread_refused("client " + std::to_string(c) + " of pool '" + d->entry.name + "'", e);
      }
    }
  }
  if (sim::World* w = sim::active()) w->set_group("");
}

// Each poll: drains the trace into the metrics, watches every pool for
// stalls, and shuts the pools down once the workload is over (or the run is
// stopped), until every pool is closed or given up on.
void Run::monitor(Segment& seg) {
  std::vector<Event> batch;
  bool draining = false;
  bool hung = false;
  // The last look, for a real run: a wall gap of at least kStarvedGap in
  // which the process's CPU time moved less than 1/kStarvedShare of it is a
  // process that did not run at all (the monitor alone polls every 2 ms).
  constexpr Nanos kStarvedGap = std::chrono::milliseconds(250);
  constexpr double kStarvedShare = 100;
  starved_until_ = Time(-1);  // each segment has a clock of its own
  starved_scenario_ = Nanos(0);
  auto last_wall = std::chrono::steady_clock::now();
  double last_cpu = simulated_ ? 0 : sample_process().cpu_seconds;
  Time last_now = seg.clock->now();
  for (;;) {
    drain_trace(batch);
    const Time now = seg.clock->now();
    if (!simulated_) {
      const ProcessSample sample = sample_process();
      seg.peak_rss = std::max(seg.peak_rss, sample.rss_bytes);
      // Read after `now`: a stop anywhere before here is in this gap, and
      // the windows restart from `at`, after it, whatever `now` said.
      const auto wall = std::chrono::steady_clock::now();
      const Time at = seg.clock->now();
      const Nanos gap = wall - last_wall;
      if (gap >= kStarvedGap &&
          (sample.cpu_seconds - last_cpu) * 1e9 * kStarvedShare < static_cast<double>(gap.count()))
        note_starved(at, gap, at - last_now);
      last_wall = wall;
      last_cpu = sample.cpu_seconds;
      last_now = at;
    }
    bool stop;
    {
      std::lock_guard g(m_);
      stop = stop_requested_;
    }
    for (auto& d : seg.drivers)
      if (watch(seg, *d, now)) hung = true;
    if (close_pools(seg, now, stop, hung, draining)) break;
    if (simulated_)
      seg.clock->sleep_for(kSimulatedPoll);
    else
      default_clock().sleep_for(options_.poll);  // real time; a goroutine's sleep under Go's runtime
  }
}

// One pool's watchdog at one poll. A stalled pool has its waiting parents
// released once its shutdown has dropped the queue, and the shutdown limit to
// return in; a busy one is held to the bound on the whole run, then to the
// watchdog. True when its shutdown hung.
bool Run::watch(const Segment& seg, Driver& d, Time now) {
  PoolOutcome& out = outcome_.pools[d.index];
  if (d.closed) return false;
  if (out.stall) {
    auto since = elapsed() - d.stalled_at;
    // Shutdown-now drops what waits first; only then are the parents that
    // wait for their children released, so dropped children stay dropped.
    if (d.release_pending && (d.pool->state().queued == 0 || since > std::chrono::milliseconds(200))) {
      d.ctx.cancel.cancel();
      d.release_pending = false;
    }
    if (since > options_.shutdown_limit) return out.shutdown_hung = true;
    return false;
  }
  const std::uint64_t in_flight = outstanding(d.pool->accounting());
  // The bound on the whole run: long past the workload's end and still
  // busy (tasks outstanding, or a submitter still inside submit).
  const bool overrun = (in_flight > 0 || d.active > 0) &&
                       now - starved_scenario_ > workload_.end + overrun_limit(watchdog_, workload_.end) &&
                       !segment_paused(seg);
  if (!overrun && in_flight == 0) {
    d.busy_since = Time(-1);
    return false;
  }
  Time last_progress;
  // The pool's gauges as its trace last showed them (asking the pool
  // would add a scheduling point to a simulation, and change it).
  Counters traced;
  {
    std::lock_guard g(metrics_m_);
    const metrics::PoolMetrics* pm = metrics_.pool(out.trace_id);
    last_progress = Time(pm ? pm->last_progress() : 0);
    if (pm) traced = pm->counters();
  }
  if (overrun) {
    report_stall(d, now, last_progress, "overrun");
    return false;
  }
  if (d.busy_since < Time(0)) d.busy_since = now;
  if (!parents_block_workers(traced, d.ctx.parents_waiting_on_workers.load(std::memory_order_relaxed))) {
    d.parents_blocked_since = Time(-1);
  } else if (d.parents_blocked_since < Time(0) || d.parents_blocked_since < starved_until_) {
    d.parents_blocked_since = now;  // (again, after a starved process ran again)
    if (!simulated_) d.parents_blocked_wall = elapsed();
  }
  // The window without progress: from the pool's last task start or end,
  // its first outstanding task, or the end of a starvation, the latest.
  const Time from = std::max({d.busy_since, last_progress, starved_until_});
  if (!simulated_ && from != d.window_from) {
    d.window_from = from;
    d.window_wall = elapsed();
  }
  // A real run also needs the wall-clock floor: scenario time alone, scaled
  // down, is a few milliseconds that a busy machine can take from any thread.
  // (A simulation's time is virtual: no machine can take any of it.)
  auto floor_passed = [&](Nanos since) { return simulated_ || elapsed() - since >= options_.stall_wall_floor; };
  const char* reason = nullptr;
  if (now - from > watchdog_ && floor_passed(d.window_wall))
    reason = "no-progress";
  // The blind spot of the rule above: every worker has waited the watchdog
  // time for children queued behind it, while tasks kept starting and
  // ending elsewhere (a caller running them itself). Without that
  // progress, no-progress names it, as before.
  else if (d.parents_blocked_since >= Time(0) && now - d.parents_blocked_since > watchdog_ &&
           floor_passed(d.parents_blocked_wall) && last_progress > d.parents_blocked_since)
    reason = "parents-blocked";
  if (reason && !segment_paused(seg)) report_stall(d, now, last_progress, reason);
  return false;
}

// A stall (StallReport's reasons): recorded with the pool's state, then the
// pool's submitters stop and it is shut down at once; watch() releases the
// parents waiting for children once the queue is dropped.
void Run::report_stall(Driver& d, Time now, Time last_progress, const char* reason) {
  outcome_.pools[d.index].stall = StallReport{now, last_progress, d.pool->state(), d.pool->accounting(), reason};
  d.stalled_at = elapsed();
  d.stop_submitting();
  d.start_closer(ShutdownMode::now);
  d.release_pending = true;
}

// The process did not run for `wall` (`scenario` of the segment's clock)
// before `now` (monitor): said in the outcome, and no pool's watchdog counts
// that time (watch() starts its windows again from now; the overrun bound
// leaves it out).
void Run::note_starved(Time now, Nanos wall, Nanos scenario) {
  outcome_.starved.push_back({now, wall});
  starved_scenario_ += std::max(scenario, Nanos(0));
  starved_until_ = now;
}

// The end of the workload, or an early end (stop() or a pool that will not
// shut down): the submitters stop and the pools are shut down, gracefully
// once their work in flight is done, or at once. True once every pool is
// closed or hung.
bool Run::close_pools(Segment& seg, Time now, bool stop, bool hung, bool& draining) {
  bool submitted_all = std::all_of(seg.drivers.begin(), seg.drivers.end(), [](auto& d) { return d->active == 0; });
  if (!draining && (stop || hung || (now >= workload_.end && submitted_all))) {
    draining = true;
    bool early = stop || hung;
    for (auto& d : seg.drivers) {
      d->stop_submitting();
      if (early) d->ctx.cancel.cancel();
      // A graceful drain waits (below) for the work in flight to finish, with
      // the watchdog still watching; an early end or drain "now" starts at once.
      if (early || scenario_.drain == ShutdownMode::now) d->start_closer(ShutdownMode::now);
    }
  } else if (draining && stop) {
    for (auto& d : seg.drivers) {
      d->ctx.cancel.cancel();
      d->start_closer(ShutdownMode::now);
    }
  }
  if (draining)
    for (auto& d : seg.drivers)
      if (!d->closing && outstanding(d->pool->accounting()) == 0) d->start_closer(ShutdownMode::graceful);
  return draining && std::all_of(seg.drivers.begin(), seg.drivers.end(), [&](auto& d) {
           return d->closed.load() || outcome_.pools[d->index].shutdown_hung;
         });
}

// Joins the drivers and records each pool's outcome.
void Run::collect(Segment& seg, const std::vector<std::size_t>& indices) {
  std::vector<Event> batch;
  {
    std::lock_guard g(m_);
    live_.clear();
    done_before_ += seg.clock->now();
  }
  for (auto& d : seg.drivers) {
    PoolOutcome& out = outcome_.pools[d->index];
    if (out.shutdown_hung) {
      // Its threads are stuck (maybe holding its locks): leave them, the
      // runner exits. Report what is known without asking the pool.
      out.config = d->entry.config;
      out.accounting = out.stall->accounting;
      out.children_refused = d->ctx.children_refused;
      (void)d.release();
      // Its threads may still wake on the segment's clock: keep that alive too.
      keep_for_abandoned_threads(seg.clock);
      continue;
    }
    for (Thread& t : d->threads) t.join();
    if (d->closer) d->closer->join();
    out.config = d->pool->params();
    out.accounting = d->pool->accounting();
    out.children_refused = d->ctx.children_refused;
    for (auto& v : d->lateness) out.lateness.insert(out.lateness.end(), v.begin(), v.end());
    d->pool.reset();
  }
  drain_trace(batch);
  // The host's figures: a simulated pool has none of its own.
  if (scenario_.schedule == Schedule::sequential && indices.size() == 1 && !simulated_) {
    ProcessSample after = sample_process();
    PoolOutcome& out = outcome_.pools[indices[0]];
    out.cpu_seconds = after.cpu_seconds - seg.before.cpu_seconds;
    out.peak_rss_bytes = seg.peak_rss;
    out.threads_created = threads_created() - seg.threads_before;
  }
  {
    std::lock_guard g(m_);
    clock_.reset();
  }
}

// The trace so far into the metrics (`batch`: the caller's buffer, reused).
void Run::drain_trace(std::vector<Event>& batch) {
  batch.clear();
  stream_.drain(batch);
  std::lock_guard g(metrics_m_);
  metrics_.add(batch);
}

bool Run::segment_paused(const Segment& seg) const { return seg.real_clock && seg.real_clock->paused(); }

}  // namespace poolscope::scenario
