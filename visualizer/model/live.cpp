#include "visualizer/model/live.h"

#include <algorithm>

#include "pools/core/platform.h"
#include "pools/core/registry.h"
#include "scenarios/engine/library.h"
#include "scenarios/engine/scenario.h"
#include "scenarios/engine/workload.h"

namespace poolscope::gui {

// What a live run may schedule. A page keeps every event in its memory (at
// most 2 GiB, about 1 KiB a task with its events and index): refused before
// it starts, rather than failing midway.
scenario::Limits live_limits() {
  if (platform::has_threads()) return {};
  return {.max_tasks = 2'000'000,
          .raise = "a web page's memory holds no more: poolscope-gui on a desktop runs bigger scenarios"};
}

LiveSession::LiveSession(json document, std::string file, std::filesystem::path base_dir)
    : doc_(std::move(document)), file_(std::move(file)), base_dir_(std::move(base_dir)) {
  validate();
  if (scenario_) {
    doc_ = scenario_->to_json();  // normalized: every pool named, every default spelled out
    time_scale_ = scenario_->time_scale;
    if (scenario_->simulation) sim_spec_ = *scenario_->simulation;
  }
  // No threads to run on (a web page): the simulation is the only mode.
  if (!platform::has_threads()) set_simulated(true);
  loaded_ = doc_;
}

LiveSession::~LiveSession() { end_run(); }

std::unique_ptr<LiveSession> LiveSession::load(const std::filesystem::path& file) {
  // Read, checked and counted as `poolscope validate` does (a regular file,
  // its size, its depth, the workload's bound), so the GUI refuses what the
  // runner refuses, with the same message.
  auto s = std::make_unique<LiveSession>(scenario::read_scenario_json(file), file.string(), file.parent_path());
  if (!s->scenario_) throw ConfigError("", s->error_);  // it names the file and the JSON path already
  return s;
}

std::unique_ptr<LiveSession> LiveSession::load_default() {
  try {
    return load(scenario::resolve_scenario(std::string(scenario::kDefaultScenario)));
  } catch (const std::exception&) {
  }
  json pools = json::array();
  for (const std::string& name : Registry::global().names()) pools.push_back({{"design", name}});
  json doc = {
      {"name", "every design"},
      {"lesson", "every registered design under the same bursts, then idle: who grows, who refuses, who reaps"},
      {"seed", 1},
      {"time_scale", 1},
      {"task", {{"duration", {{"dist", "exponential"}, {"mean", "50ms"}}}}},
      {"phases",
       {{{"name", "warm"}, {"duration", "2s"}, {"arrival", {{"kind", "poisson"}, {"rate", 40}}}},
        {{"name", "bursts"}, {"duration", "4s"}, {"arrival", {{"kind", "burst"}, {"count", 40}, {"every", "1s"}}}},
        {{"name", "idle"}, {"duration", "8s"}, {"arrival", {{"kind", "idle"}}}}}},
      {"pools", pools},
  };
  return std::make_unique<LiveSession>(doc, "(built in)", std::filesystem::current_path());
}

void LiveSession::validate() {
  try {
    scenario_ = scenario::parse_scenario(doc_, file_, base_dir_);
    try {
      scenario::count_workload(*scenario_, live_limits());  // an edit may make it too big to run
    } catch (const ConfigError& e) {
      throw scenario::ScenarioError(file_, e);
    }
    error_.clear();
  } catch (const std::exception& e) {
    scenario_.reset();
    error_ = e.what();
  }
}

bool LiveSession::edited() const {
  json a = doc_, b = loaded_;
  if (simulated()) a.erase("time_scale"), b.erase("time_scale");
  return a != b;
}

void LiveSession::set_param(std::size_t pool, const std::string& param, const json& value) {
  json& config = doc_["pools"][pool]["config"];
  if (value.is_null())
    config.erase(param);
  else
    config[param] = value;
  validate();
}

void LiveSession::set_seed(std::uint64_t seed) {
  doc_["seed"] = seed;
  validate();
}

void LiveSession::apply(const scenario::Overrides& overrides) {
  doc_ = scenario::apply_overrides(doc_, overrides);
  validate();
  if (!scenario_) return;
  time_scale_ = scenario_->time_scale;
  if (scenario_->simulation) sim_spec_ = *scenario_->simulation;
}

void LiveSession::add_pool(const std::string& design) {
  // A name not yet used: the design's, then design-2, design-3 ...
  auto taken = [&](const std::string& name) {
    for (const json& p : doc_["pools"])
      if (p.value("name", p.value("design", "")) == name) return true;
    return false;
  };
  std::string name = design;
  for (int k = 2; taken(name); ++k) name = design + "-" + std::to_string(k);
  doc_["pools"].push_back({{"name", name}, {"design", design}, {"config", json::object()}});
  validate();
}

void LiveSession::remove_pool(std::size_t pool) {
  json& pools = doc_["pools"];
  if (pool < pools.size()) pools.erase(pool);
  validate();
}

bool LiveSession::simulated() const {
  auto it = doc_.find("simulation");
  return it != doc_.end() && !it->is_null() && *it != false;
}

void LiveSession::set_simulated(bool on) {
  if (on == simulated() || (!on && !platform::has_threads())) return;
  if (on)
    doc_["simulation"] = sim_spec_.to_json();
  else
    doc_.erase("simulation");
  // Each mode's own range of speeds: 1000x suits the simulation, not real threads.
  const double lo = on ? kSimSpeedMin : kRealScaleMin, hi = on ? kSimSpeedMax : kRealScaleMax;
  time_scale_ = std::clamp(time_scale_, lo, hi);
  doc_["time_scale"] = time_scale_;
  validate();
}

void LiveSession::set_simulation(const scenario::SimulationSpec& spec) {
  sim_spec_ = spec;
  if (simulated()) doc_["simulation"] = spec.to_json();
  validate();
}

std::uint64_t LiveSession::schedule_seed() const {
  if (sim_spec_.seed) return *sim_spec_.seed;
  scenario::Scenario s = scenario_ ? *scenario_ : scenario::Scenario{};
  s.simulation = sim_spec_;
  return scenario::simulation_settings(s).seed;
}

RunMode LiveSession::mode() const {
  if (run_) return run_sim_ ? RunMode::of(*run_sim_) : RunMode::real();
  if (!simulated()) return RunMode::real();
  RunMode m{.simulated = true, .seed = schedule_seed(), .cpus = sim_spec_.cpus, .costs = sim_spec_.costs,
            .policy = sim_spec_.policy};
  return m;
}

LiveSession::State LiveSession::state() const {
  if (!run_) return State::ready;
  if (run_->finished()) return State::finished;
  return run_->paused() ? State::paused : State::running;
}

bool LiveSession::start(bool paused) {
  end_run();  // stops and joins the previous run, if any
  if (!scenario_) return false;
  scenario::Scenario s = *scenario_;
  s.time_scale = time_scale_;
  if (s.simulation) run_sim_ = scenario::simulation_settings(s);
  // Keep every event: hovering a point names the event behind it, and the
  // result can be saved for replay. A simulation is paced to the screen at
  // the time scale: unpaced it would be over before the first frame.
  // Without threads (a web page) the run has none of its own: tick() runs it a slice a frame.
  run_ = std::make_unique<scenario::Run>(
      std::move(s), scenario::RunOptions{.keep_events = true,
                                         .limits = live_limits(),
                                         .paced = run_sim_.has_value(),
                                         .sliced = run_sim_.has_value() && !platform::has_threads()});
  if (paused) run_->pause();
  run_->pause_at(pause_at_);  // before it starts: a moment near 0 is not passed already
  run_->start();
  return true;
}

void LiveSession::pause_at(std::optional<Time> at) {
  pause_at_ = at;
  if (run_ && !run_->finished()) run_->pause_at(at);
}

void LiveSession::step() {
  if (can_step()) run_->step();
}

void LiveSession::pause() {
  if (run_) run_->pause();
}

void LiveSession::resume() {
  if (run_) run_->resume();
}

void LiveSession::stop() {
  if (run_) run_->stop();
}

void LiveSession::tick(std::chrono::nanoseconds budget) {
  if (!run_ || !run_->sliced() || run_->finished()) return;
  if (stepper_ && run_->paused()) return;  // (an unpaced run has no pacer to hold it)
  // Slices small enough to look at the clock often (a switch costs about a
  // microsecond in a page).
  constexpr std::uint64_t kSwitchesPerSlice = 2'000;
  const auto until = std::chrono::steady_clock::now() + budget;
  // A stepped run ends its slices at a decision waiting for a pick.
  while (!run_->advance(kSwitchesPerSlice) && !run_->held() && !(stepper_ && stepper_->waiting()) &&
         std::chrono::steady_clock::now() < until) {
  }
  picked_ = false;  // the slices took the pick: what waits now is a new decision
}

void LiveSession::set_time_scale(double scale) {
  if (scale <= 0) return;
  time_scale_ = scale;
  doc_["time_scale"] = scale;
  if (scenario_) scenario_->time_scale = scale;
  if (run_) run_->set_time_scale(scale);
}

double LiveSession::progress() const { return run_ ? run_->progress() : 0.0; }

std::string LiveSession::tune(const std::string& pool, const std::string& param, const json& value) {
  if (!run_ || run_->finished()) return "no run in progress";
  // Nothing outside the World may call into its pools (and a change at a
  // wall-clock moment would make the run unrepeatable).
  if (run_->simulated()) return "a simulated run cannot be tuned while it runs: change '" + param + "' before the run";
  std::string error;
  bool running = run_->with_pool(pool, [&](Pool& p) {
    try {
      Registry::global().tune(p, param, value);
    } catch (const std::exception& e) {
      error = e.what();
    }
  });
  if (!running) return "pool '" + pool + "' is not running now";
  if (error.empty()) tuned_[pool][param] = value;
  return error;
}

void LiveSession::with_frame(const std::function<void(const Frame&)>& f) {
  if (!run_) {
    static const metrics::RunMetrics empty;
    index_.reset();
    f(Frame{.metrics = empty, .index = index_, .events = {}, .now = 0, .replay = false, .at_now = empty});
    return;
  }
  auto now = run_->now().count();
  // Submission lateness is measured by the engine's submitters, not traced:
  // it is there once the run has ended (as in the runner's table).
  if (lateness_.empty() && run_->finished()) {
    for (const scenario::PoolOutcome& p : run_->outcome().pools) {
      if (lateness_.size() <= p.trace_id) lateness_.resize(p.trace_id + 1);
      SubmitLateness& l = lateness_[p.trace_id];
      if (p.lateness.empty()) continue;
      const metrics::Percentiles late = metrics::percentiles_of(p.lateness);  // as the runner's table
      l = {true, late.p99, late.max};
    }
  }
  const std::int64_t workload_end = run_->workload().end.count();
  run_->with_metrics([&](const metrics::RunMetrics& m) {
    index_.sync(m, m.events());
    f(Frame{.metrics = m,
            .index = index_,
            .events = m.events(),
            .now = std::max(now, index_.last_time()),
            .replay = false,
            .at_now = m,
            .workload_end = workload_end,
            .lateness = lateness_});
  });
}

}  // namespace poolscope::gui
