// The scenario engine: one Run drives every pool of a scenario. Index of the
// engine's files, in the order a run goes through them:
//   engine.cpp                        Run: its lifecycle, its live controls, control()
//     Run::Run, start, wait, advance  the controller thread runs control(), or
//                                     advances a simulation (or the caller does, sliced)
//     stop, pause, resume, step ...   live control and views, for the GUI
//     control                         the segments: all pools at once, or one at a time
//     run_scenario                    a run to its end, in one call
//   engine_segment.cpp                run_segment, one segment in four phases:
//                                     create_pools, start_drivers, monitor (the
//                                     watchdog), collect
//   engine_driver.cpp                 Driver: one pool's submitters, clients and closer
//   engine_simulation.cpp             begin/advance/end_simulation: a simulated run,
//                                     control() inside a sim::World
//   engine_parts.h                    Run's nested types those files share
#include "scenarios/engine/engine.h"

#include <algorithm>
#include <cstdio>

#include "scenarios/engine/engine_parts.h"
#include "scenarios/engine/pacer.h"
#include "scenarios/engine/process_stats.h"
#include "scenarios/engine/runtime.h"

namespace poolscope::scenario {

// No limit on a slice: the simulation runs to its end in one.
constexpr std::uint64_t kToTheEnd = ~std::uint64_t{0};

bool RunOutcome::stalled() const {
  return std::any_of(pools.begin(), pools.end(), [](const PoolOutcome& p) { return p.stall.has_value(); });
}

namespace {

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

}  // namespace

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
      if (!simulated_ && options_.runtime == "goroutines")
        return run_on_goroutines([this] { control(); },
                                 [](const std::string& report) { std::fprintf(stderr, "poolscope: %s", report.c_str()); });
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

void Run::pause_at(std::optional<Time> at) {
  if (pacer_) pacer_->pause_at(at);
}

std::optional<Time> Run::paused_at() const { return pacer_ ? pacer_->paused_at() : std::nullopt; }

bool Run::paused() const {
  {
    std::lock_guard g(m_);
    if (paused_) return true;
  }
  return pacer_ && pacer_->paused();  // (paused by itself at pause_at's moment)
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

// The controller: the segments one after another (sequential) or one with
// every pool, then the host's figures for the whole run.
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