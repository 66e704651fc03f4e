// A simulated run: control() inside a sim::World (begin_simulation), run in
// slices by the controller thread or, when sliced, by the caller
// (advance_simulation), then ended (end_simulation); drain_simulated feeds
// the metrics on the World's OS thread. Each segment's clock is the World's
// virtual time (engine_segment.cpp).
#include "scenarios/engine/engine_parts.h"
#include "scenarios/engine/pacer.h"

namespace poolscope::scenario {

sim::Settings simulation_settings(const Scenario& s) {
  sim::Settings settings;
  SimulationSpec spec = s.simulation.value_or(SimulationSpec{});
  settings.seed = spec.seed ? *spec.seed : derive_seed(s.seed, "simulation", 0);
  settings.cpus = spec.cpus;
  settings.costs = sim::parse_costs(spec.costs);
  settings.policy = sim::parse_policy(spec.policy);
  return settings;
}

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
  if (options_.chooser) world.set_chooser(options_.chooser);
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
  if (options_.chooser) out.schedule = world.schedule();
  outcome_.simulation = std::move(out);
  world_ = nullptr;
  finished_ = true;
}

}  // namespace poolscope::scenario
