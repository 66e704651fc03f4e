// The scenario engine: one Run drives every pool of a scenario. Index:
//   Run::Run, start, stop, wait         the controller thread runs control(),
//                                      or advances a simulation
//   advance                            a sliced simulation: the caller advances it
//   control                            the segments: all pools at once, or one at a time
//   run_segment                        one segment, in four phases:
//     create_pools                     the segment's clock, each pool from the registry
//     start_drivers                    submitters and closed-loop clients per pool
//     monitor                          drain the trace into the metrics, the watchdog,
//                                      the shutdown once the workload is over
//     collect                          join the drivers, record each pool's outcome
//   Driver                             one pool's submitters, clients and closer
//   begin/advance/end_simulation       a simulated run: control() inside a sim::World,
//                                      each segment on the World's virtual clock
#include "scenarios/engine/engine.h"

#include <algorithm>
#include <thread>

#include "pools/core/registry.h"
#include "pools/core/sim/world.h"
#include "pools/core/thread.h"
#include "scenarios/engine/pacer.h"
#include "scenarios/engine/process_stats.h"
#include "scenarios/engine/task_body.h"

namespace poolscope::scenario {

// No limit on a slice: the simulation runs to its end in one.
constexpr std::uint64_t kToTheEnd = ~std::uint64_t{0};

bool RunOutcome::stalled() const {
  return std::any_of(pools.begin(), pools.end(), [](const PoolOutcome& p) { return p.stall.has_value(); });
}

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

Nanos longest(const TaskInstance& t) {
  Nanos d = t.duration;
  for (const TaskInstance& c : t.children) d = std::max(d, longest(c));
  return d;
}

// Without an explicit watchdog: 10 s, or twice the longest task the workload
// holds, so a long task alone is never mistaken for a stall (one pass over
// the streamed arrivals, none kept).
Nanos effective_watchdog(const Scenario& s) {
  if (s.watchdog) return *s.watchdog;
  Nanos longest_task{0};
  for (ArrivalStream arrivals(s); std::optional<ScheduledTask> a = arrivals.next();)
    longest_task = std::max(longest_task, longest(a->task));
  for (std::uint32_t i = 0; i < s.phases.size(); ++i) {
    if (s.phases[i].arrival.kind != ArrivalSpec::Kind::closed_loop) continue;
    Rng rng(derive_seed(s.seed, "watchdog", i));
    for (int k = 0; k < 1000; ++k) longest_task = std::max(longest_task, longest(make_task(s.phases[i].task, rng)));
  }
  return std::max(Nanos(std::chrono::seconds(10)), 2 * longest_task);
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

sim::Settings simulation_settings(const Scenario& s) {
  sim::Settings settings;
  SimulationSpec spec = s.simulation.value_or(SimulationSpec{});
  settings.seed = spec.seed ? *spec.seed : derive_seed(s.seed, "simulation", 0);
  settings.cpus = spec.cpus;
  settings.costs = sim::parse_costs(spec.costs);
  settings.policy = sim::parse_policy(spec.policy);
  return settings;
}

// One pool in one segment: the pool, its submitters and clients, its closer.
struct Run::Segment {
  std::shared_ptr<Clock> clock;
  AdjustableClock* real_clock = nullptr;  // clock, in a real run
  std::vector<std::unique_ptr<Driver>> drivers;
  ProcessSample before;
  std::size_t threads_before = 0;
  std::uint64_t peak_rss = 0;
};

struct Run::Driver {
  Driver(Run& r, std::size_t idx, Clock& c)
      : run(r), index(idx), entry(r.scenario_.pools[idx]), clock(c), arrivals(r.scenario_) {}

  Run& run;
  std::size_t index;
  const PoolEntry& entry;
  Clock& clock;
  TaskContext ctx;
  SharedArrivals arrivals;  // this pool's, generated as its submitters take them
  std::vector<std::vector<std::int64_t>> lateness;     // one vector per submitter thread
  std::unique_ptr<Pool> pool;

  Mutex m;
  CondVar cv;
  bool stopping = false;
  std::atomic<int> active{0};  // submitter and client threads still going
  std::vector<Thread> threads;
  std::unique_ptr<Thread> closer;
  std::atomic<bool> closing{false};  // shutdown has begun
  std::atomic<bool> closed{false};   // and returned
  Time busy_since{-1};
  Time parents_blocked_since{-1};  // since when parents_block_workers() has held
  Nanos stalled_at{0};  // Run::elapsed() when the stall was seen
  bool release_pending = false;  // stalled: release waiting parents once shutdown has dropped the queue

  // Sleeps on the scenario clock; false once the driver is stopping.
  bool sleep_until(Time t) {
    std::unique_lock lock(m);
    while (!stopping && clock.now() < t) cv.wait_until(lock, clock, t);
    return !stopping;
  }
  void stop_submitting() {
    {
      std::lock_guard g(m);
      stopping = true;
    }
    cv.notify_all();
  }
  void start_closer(ShutdownMode mode) {
    if (closer || closing) return;
    closing = true;
    try {
      closer = std::make_unique<Thread>("closer", [this, mode] {
        pool->shutdown(mode);
        closed = true;
      });
    } catch (const std::system_error& e) {
      // No thread for it: shut down here, on the controller, at once (a
      // graceful shutdown could wait for work that needs this thread).
      run.note_thread_refused("closer for pool '" + entry.name + "'", e);
      pool->shutdown(ShutdownMode::now);
      closed = true;
    }
  }

  void submitter(std::size_t k, std::size_t n) {
    mark_engine_thread();
    for (std::uint64_t i = k; std::optional<ScheduledTask> a = arrivals.take(i); i += n) {
      if (!sleep_until(a->at)) break;
      lateness[k].push_back((clock.now() - a->at).count());
      auto task = std::make_shared<const TaskInstance>(std::move(a->task));
      submit_task(*pool, make_runnable(task, ctx), SubmitOptions{task->priority});
    }
    sleep_until(run.workload_.end);
    active--;
  }

  void client(std::size_t c) {
    mark_engine_thread();
    const ClientPlan& plan = run.workload_.clients[c];
    ClientStream stream(run.scenario_.phases[plan.phase], plan.seed);
    if (sleep_until(plan.start)) {
      // The first task is due at the phase's start, like a scheduled arrival:
      // a client thread that got the CPU late still submits it.
      do {
        auto task = std::make_shared<const TaskInstance>(stream.next_task());
        auto done = std::make_shared<Countdown>(1);
        if (submit_task(*pool, make_runnable(task, ctx, done), SubmitOptions{task->priority}).accepted())
          done->wait(ctx.cancel);
        if (!sleep_until(std::min(plan.end, clock.now() + stream.next_think()))) break;
      } while (clock.now() < plan.end);
    }
    active--;
  }
};

Run::Run(Scenario scenario, RunOptions options)
    : scenario_(std::move(scenario)),
      options_(options),
      // Counted against the bound first: a scenario of 10^15 arrivals is
      // refused here, with the phase named, before anything runs. The
      // arrivals themselves are streamed (Driver::arrivals), never listed.
      workload_((count_workload(scenario_, options.limits), plan_workload(scenario_))),
      watchdog_(effective_watchdog(scenario_)),
      stream_(options.trace_capacity),
      metrics_(options.keep_events),
      simulated_(options.simulation || scenario_.simulation),
      scale_(scenario_.time_scale) {
  if (simulated_ && options_.paced) pacer_ = std::make_unique<Pacer>(scale_);
  outcome_.watchdog = watchdog_;
  outcome_.workload_end = workload_.end;
}

Run::~Run() {
  stop();
  if (controller_) controller_->join();
  // A sliced run left midway ends as a stopped one does, its threads joined,
  // rather than abandoned with their stacks.
  if (sim_ && options_.sliced) advance(kToTheEnd);
}

void Run::start() {
  started_wall_ = std::chrono::steady_clock::now();
  if (simulated_) begin_simulation();
  if (simulated_ && options_.sliced) return;  // the caller advances it
  try {
    controller_ = std::make_unique<Thread>("run", [this] {
      if (!simulated_) return control();
      advance_simulation(kToTheEnd);
    });
  } catch (const std::system_error& e) {
    note_thread_refused("the run's controller", e);
    std::lock_guard g(m_);
    outcome_.stopped = stop_requested_ = true;
    outcome_.pools.resize(scenario_.pools.size());
    for (std::size_t i = 0; i < scenario_.pools.size(); ++i) {
      outcome_.pools[i].name = scenario_.pools[i].name;
      outcome_.pools[i].design = scenario_.pools[i].design;
      outcome_.pools[i].config = scenario_.pools[i].config;
      outcome_.pools[i].trace_id = kNoTrace;
    }
    finished_ = true;
  }
}

void Run::note_thread_refused(const std::string& which, const std::system_error& e) {
  std::lock_guard g(m_);
  if (!outcome_.thread_refused) outcome_.thread_refused = which + ": " + e.code().message();
  stop_requested_ = true;  // end early, like stop()
}

void Run::wait() {
  if (controller_) controller_->join();
  // (A paced one is held back by its pacer until the wall clock catches up.)
  if (simulated_ && options_.sliced)
    while (!advance(kToTheEnd)) {
    }
}

bool Run::advance(std::uint64_t max_switches) {
  if (!options_.sliced) throw std::logic_error("Run::advance: only a sliced run is advanced by its caller");
  return finished_ || advance_simulation(max_switches);
}

bool Run::held() const { return pacer_ && pacer_->held(); }

bool Run::finished() const { return finished_.load(); }

void Run::stop() {
  std::lock_guard g(m_);
  stop_requested_ = true;
  // A paused run cannot drain.
  if (pacer_) pacer_->release();
  if (auto* c = dynamic_cast<AdjustableClock*>(clock_.get())) c->resume();
}

void Run::pause() {
  std::lock_guard g(m_);
  paused_ = true;
  if (pacer_) pacer_->pause();
  if (auto* c = dynamic_cast<AdjustableClock*>(clock_.get())) c->pause();
}

void Run::resume() {
  std::lock_guard g(m_);
  paused_ = false;
  if (pacer_) pacer_->resume();
  if (auto* c = dynamic_cast<AdjustableClock*>(clock_.get())) c->resume();
}

void Run::step() {
  if (pacer_) pacer_->step();
}

bool Run::paused() const {
  std::lock_guard g(m_);
  return paused_;
}

void Run::set_time_scale(double scale) {
  if (scale <= 0) return;
  std::lock_guard g(m_);
  scale_ = scale;
  if (pacer_) pacer_->set_speed(scale);
  if (auto* c = dynamic_cast<AdjustableClock*>(clock_.get())) c->set_scale(scale);
  if (!simulated_)
    for (Driver* d : live_) d->ctx.time_scale.store(scale, std::memory_order_relaxed);
}

double Run::time_scale() const {
  std::lock_guard g(m_);
  return scale_;
}

Time Run::now() const {
  std::lock_guard g(m_);
  return clock_ ? clock_->now() : Time(0);
}

double Run::progress() const {
  std::lock_guard g(m_);
  if (finished_) return 1.0;
  double segments = scenario_.schedule == Schedule::sequential ? static_cast<double>(scenario_.pools.size()) : 1.0;
  double total = static_cast<double>(workload_.end.count()) * segments;
  double done = static_cast<double>((done_before_ + (clock_ ? clock_->now() : Time(0))).count());
  return total > 0 ? std::min(1.0, done / total) : 1.0;
}

bool Run::with_pool(std::string_view name, const std::function<void(Pool&)>& f) {
  // A simulated pool belongs to its World: nothing outside may call into it.
  if (simulated_) return false;
  std::lock_guard g(m_);
  for (Driver* d : live_)
    if (d->entry.name == name && d->pool && !d->closing) {
      f(*d->pool);
      return true;
    }
  return false;
}

Nanos Run::elapsed() const {
  if (sim::World* w = world_.load()) return w->now();
  return std::chrono::steady_clock::now() - started_wall_;
}

std::vector<std::pair<std::string, std::uint64_t>> Run::events_dropped() const {
  std::vector<std::pair<std::string, std::uint64_t>> out;
  if (stream_.dropped() == 0) return out;
  for (const PoolInfo& p : stream_.pools())
    if (const std::uint64_t n = stream_.dropped(p.id); n > 0) out.emplace_back(p.name, n);
  return out;
}

bool Run::segment_paused(const Segment& seg) const { return seg.real_clock && seg.real_clock->paused(); }

// A simulated run: the whole of control() runs as the World's main thread,
// so every thread the engine and the pools start is the World's. The World
// runs on whichever OS thread advances it: the controller's, or the caller's
// in a sliced run.
struct Run::Simulation {
  explicit Simulation(const sim::Settings& settings) : world(settings), out{.settings = world.settings()} {}
  sim::World world;
  RunOutcome::Simulation out;
  std::vector<Event> batch;  // drain_simulated's
  bool draining_when_full = false;
};

void Run::begin_simulation() {
  sim_ = std::make_unique<Simulation>(options_.simulation ? *options_.simulation : simulation_settings(scenario_));
  sim::World& world = sim_->world;
  // Before the pacer holds virtual time back (a pause, a step, a slow
  // speed), the trace so far goes into the metrics: a live view then shows
  // every event up to the instant the run waits at, not only up to the
  // monitor's last poll. The World's OS thread is the stream's one consumer
  // either way (the monitor is one of its fibers).
  if (pacer_ && options_.sliced)  // the caller's thread must not block: the slice ends instead
    world.set_pacer([this](Time, Time to) {
      if (pacer_->try_pass(to)) return true;
      drain_simulated();
      return false;
    });
  else if (pacer_)
    world.set_pacer([this](Time from, Time to) {
      pacer_->pace(from, to, [this] { drain_simulated(); });
      return true;
    });
  world_ = &world;
  world.start([this] { control(); });
}

// The trace so far into the metrics, on the World's OS thread.
void Run::drain_simulated() {
  std::vector<Event>& batch = sim_->batch;
  batch.clear();
  stream_.drain(batch);
  if (batch.empty()) return;
  std::lock_guard g(metrics_m_);
  metrics_.set_pools(stream_.pools());  // a pool still being created is named already
  metrics_.add(batch);
}

bool Run::advance_simulation(std::uint64_t max_switches) {
  // No event is dropped in a simulation: a full stream is drained there and
  // then, on the thread that runs the slices, which records every event of
  // the World's threads (set at the first slice, unset by end_simulation).
  if (!sim_->draining_when_full) {
    stream_.drain_when_full([this] { drain_simulated(); });
    sim_->draining_when_full = true;
  }
  try {
    if (!sim_->world.run_for(max_switches)) return false;
  } catch (const sim::Failure& f) {
    // Its threads are abandoned where they stood: report what is known.
    sim_->out.failure = f.what();
    {
      std::lock_guard g(m_);
      outcome_.stopped = true;
    }
    outcome_.events_recorded = stream_.recorded();
    outcome_.events_dropped = stream_.dropped();
    drain_simulated();
  }
  end_simulation();
  return true;
}

void Run::end_simulation() {
  stream_.drain_when_full({});
  sim::World& world = sim_->world;
  RunOutcome::Simulation& out = sim_->out;
  out.steps = world.steps();
  out.switches = world.switches();
  out.threads = world.threads_started();
  // The World's count, not the host's (whose count includes this controller, racily).
  outcome_.threads_created = static_cast<std::size_t>(world.threads_started() - 1);
  out.virtual_end = world.now();
  out.cpu = world.cpu_used();
  out.leaked = world.leaked();
  outcome_.simulation = std::move(out);
  world_ = nullptr;
  finished_ = true;
}

void Run::control() {
  auto start_wall = std::chrono::steady_clock::now();
  ProcessSample before = sample_process();
  std::size_t threads_before = threads_created();
  outcome_.pools.resize(scenario_.pools.size());
  if (scenario_.schedule == Schedule::sequential) {
    for (std::size_t i = 0; i < scenario_.pools.size(); ++i) {
      {
        std::lock_guard g(m_);
        if (stop_requested_) break;
      }
      run_segment({i});
    }
  } else {
    std::vector<std::size_t> all(scenario_.pools.size());
    for (std::size_t i = 0; i < all.size(); ++i) all[i] = i;
    run_segment(all);
  }
  ProcessSample after = sample_process();
  outcome_.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_wall).count();
  outcome_.cpu_seconds = after.cpu_seconds - before.cpu_seconds;
  outcome_.peak_rss_bytes = after.peak_rss_bytes;
  outcome_.threads_created = threads_created() - threads_before;
  outcome_.events_recorded = stream_.recorded();
  outcome_.events_dropped = stream_.dropped();
  // Where they were dropped, for the table and the GUI (a pool never created has no events).
  const std::vector<PoolInfo> traced = stream_.pools();
  for (PoolOutcome& p : outcome_.pools)
    if (p.trace_id < traced.size() && traced[p.trace_id].name == p.name) p.events_dropped = stream_.dropped(p.trace_id);
  {
    std::lock_guard g(m_);
    outcome_.stopped = stop_requested_;
  }
  finished_ = true;
}

// One segment of a run: the pools that run at once (all of them, or one at a
// time when the scenario's schedule is sequential), in four phases.
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
    if (sim::World* w = sim::active()) w->set_group("pool '" + d->entry.name + "'");
    outcome_.pools[i].name = d->entry.name;
    outcome_.pools[i].design = d->entry.design;
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
    if (sim::World* w = sim::active()) w->set_group("pool '" + d->entry.name + "'");
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

// Drains the trace into the metrics, watches for stalls, and shuts the pools
// down once the workload is over (or the run is stopped).
void Run::monitor(Segment& seg) {
  std::vector<Event> batch;
  bool draining = false;
  bool hung = false;
  for (;;) {
    batch.clear();
    stream_.drain(batch);
    {
      std::lock_guard g(metrics_m_);
      metrics_.add(batch);
    }
    if (!simulated_) seg.peak_rss = std::max(seg.peak_rss, sample_process().rss_bytes);
    const Time now = seg.clock->now();
    bool stop;
    {
      std::lock_guard g(m_);
      stop = stop_requested_;
    }

    for (auto& d : seg.drivers) {
      PoolOutcome& out = outcome_.pools[d->index];
      if (d->closed) continue;
      if (out.stall) {
        auto since = elapsed() - d->stalled_at;
        // Shutdown-now drops what waits first; only then are the parents that
        // wait for their children released, so dropped children stay dropped.
        if (d->release_pending && (d->pool->state().queued == 0 || since > std::chrono::milliseconds(200))) {
          d->ctx.cancel.cancel();
          d->release_pending = false;
        }
        if (since > options_.shutdown_limit) hung = out.shutdown_hung = true;
        continue;
      }
      std::uint64_t in_flight = outstanding(d->pool->accounting());
      // The bound on the whole run: long past the workload's end and still
      // busy (tasks outstanding, or a submitter still inside submit).
      if ((in_flight > 0 || d->active > 0) && now > workload_.end + overrun_limit(watchdog_, workload_.end) &&
          !segment_paused(seg)) {
        Time last_progress;
        {
          std::lock_guard g(metrics_m_);
          const metrics::PoolMetrics* pm = metrics_.pool(out.trace_id);
          last_progress = Time(pm ? pm->last_progress() : 0);
        }
        out.stall = StallReport{now, last_progress, d->pool->state(), d->pool->accounting(), "overrun"};
        d->stalled_at = elapsed();
        d->stop_submitting();
        d->start_closer(ShutdownMode::now);
        d->release_pending = true;
        continue;
      }
      if (in_flight == 0) {
        d->busy_since = Time(-1);
        continue;
      }
      if (d->busy_since < Time(0)) d->busy_since = now;
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
      if (!parents_block_workers(traced, d->ctx.parents_waiting_on_workers.load(std::memory_order_relaxed)))
        d->parents_blocked_since = Time(-1);
      else if (d->parents_blocked_since < Time(0))
        d->parents_blocked_since = now;
      const char* reason = nullptr;
      if (now - std::max(d->busy_since, last_progress) > watchdog_)
        reason = "no-progress";
      // The blind spot of the rule above: every worker has waited the watchdog
      // time for children queued behind it, while tasks kept starting and
      // ending elsewhere (a caller running them itself). Without that
      // progress, no-progress names it, as before.
      else if (d->parents_blocked_since >= Time(0) && now - d->parents_blocked_since > watchdog_ &&
               last_progress > d->parents_blocked_since)
        reason = "parents-blocked";
      if (reason && !segment_paused(seg)) {
        out.stall = StallReport{now, last_progress, d->pool->state(), d->pool->accounting(), reason};
        d->stalled_at = elapsed();
        d->stop_submitting();
        d->start_closer(ShutdownMode::now);
        d->release_pending = true;
      }
    }

    bool submitted_all = std::all_of(seg.drivers.begin(), seg.drivers.end(), [](auto& d) { return d->active == 0; });
    if (!draining && (stop || hung || (now >= workload_.end && submitted_all))) {
      // The end of the workload, or an early end: stop() or a pool that will not shut down.
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
    if (draining && std::all_of(seg.drivers.begin(), seg.drivers.end(),
                                [&](auto& d) { return d->closed.load() || outcome_.pools[d->index].shutdown_hung; }))
      break;
    if (simulated_)
      seg.clock->sleep_for(kSimulatedPoll);
    else
      std::this_thread::sleep_for(options_.poll);
  }

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
  batch.clear();
  stream_.drain(batch);
  {
    std::lock_guard g(metrics_m_);
    metrics_.add(batch);
  }
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

RunResult run_scenario(const Scenario& scenario, const RunOptions& options) {
  // Nothing watches a run to its end from outside: a simulated one runs on
  // this thread (the only one a web page has), without a controller.
  RunOptions o = options;
  o.sliced = true;
  Run run(scenario, o);
  run.start();
  run.wait();
  return RunResult{run.outcome(), run.metrics()};
}

}  // namespace poolscope::scenario
