// A live run: a scenario as an editable document (pools added or removed,
// parameters changed through the registry's descriptions, validated as the
// runner validates it), then the engine running it, paused, rescaled, tuned
// and stopped from the GUI. It runs on real threads, or in the deterministic
// simulation paced to the screen (stepped one thing due at a time while
// paused), as the document's "simulation" key says. Where there are no
// threads (a web page) every run is simulated, a slice per frame (tick()).
#pragma once

#include <chrono>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>

#include "pools/core/sim/decision.h"
#include "scenarios/engine/engine.h"
#include "visualizer/model/frame.h"
#include "visualizer/model/run_mode.h"

namespace poolscope::gui {

// The speeds offered: a real run's time scale, a simulated run's pacing.
inline constexpr double kRealScaleMin = 0.01, kRealScaleMax = 100;
inline constexpr double kSimSpeedMin = 0.1, kSimSpeedMax = 1000;

// What a live run may schedule: a page's memory bounds it (live.cpp).
scenario::Limits live_limits();

class LiveSession {
 public:
  // `document` is a scenario's JSON; `file` names it in errors, `base_dir`
  // resolves the files it refers to.
  LiveSession(json document, std::string file, std::filesystem::path base_dir);
  ~LiveSession();
  // Throws ScenarioError if the file cannot be read or is not valid.
  static std::unique_ptr<LiveSession> load(const std::filesystem::path& file);
  // Without a scenario: the shipped default, else every registered design
  // side by side under a few bursts.
  static std::unique_ptr<LiveSession> load_default();

  // --- the scenario, editable before a run
  const json& document() const { return doc_; }
  const std::string& file() const { return file_; }
  // The document, validated (pools built once, as the runner does), if it is valid; else error() says why.
  const std::optional<scenario::Scenario>& scenario() const { return scenario_; }
  const std::string& error() const { return error_; }
  // Sets (or with null, resets to its default) a pool's parameter.
  void set_param(std::size_t pool, const std::string& param, const json& value);
  void set_seed(std::uint64_t seed);
  // The runner's command-line changes (--sim, --real, --cpus, --costs,
  // --policy, --sim-seed, --time-scale), as `poolscope run` applies them.
  // Throws ConfigError naming the option.
  void apply(const scenario::Overrides& overrides);
  void add_pool(const std::string& design);
  void remove_pool(std::size_t pool);

  // --- the mode of the next run: real threads, or the simulation
  // (docs/simulation.md). Kept in the document as its "simulation" key, so a
  // scenario that asks for the simulation opens in it, and a saved result
  // says how it ran.
  bool simulated() const;
  // On: the settings last used (the scenario's, else the defaults). Off:
  // the key is removed, and its settings kept for the next time it is on.
  void set_simulated(bool on);
  // The machine and schedule a simulated run uses: CPUs, costs, policy and
  // a seed (unset: derived from the scenario's seed, as the runner does).
  const scenario::SimulationSpec& simulation() const { return sim_spec_; }
  void set_simulation(const scenario::SimulationSpec& spec);
  // The schedule seed the next simulated run gets (the spec's, or derived).
  std::uint64_t schedule_seed() const;
  // The mode of the run on screen: the current run's, or, before any run,
  // the next run's.
  RunMode mode() const;

  // Whether the document differs from the file it was loaded from (edited,
  // or run with other options): a link must then carry it whole.
  // (Not the speed: it changes no event of a simulated run.)
  bool edited() const;

  // --- the run
  enum class State { ready, running, paused, finished };
  State state() const;
  // Starts a run of the document (a new one, if one ran before), paused
  // before anything happened if asked. False if the document is not valid.
  bool start(bool paused = false);
  void pause();
  void resume();
  // A simulated run, paused: on to the next thing due (a timer, a task's
  // end, a wake-up), whose events then show. Nothing for a real run.
  void step();
  // A simulated run pauses itself before its virtual time passes `at`
  // (Run::pause_at), this run and the next ones, until cleared (nullopt):
  // a lesson's question is asked there.
  void pause_at(std::optional<Time> at);
  // Where the run paused itself (every event up to there in its metrics), while it stays there.
  std::optional<Time> paused_at() const { return run_ ? run_->paused_at() : std::nullopt; }
  bool can_step() const { return run_ && run_->simulated() && state() == State::paused; }
  void stop();  // ends the run early: pools shut down at once
  // Once a frame: a run without a thread of its own (a web page's) goes on
  // until its pacer holds it, it ends, or `budget` of wall time has passed.
  void tick(std::chrono::nanoseconds budget);
  // Scenario seconds per wall second: a real run's time scale, a simulated
  // one's speed (virtual seconds per wall second), changeable while it runs.
  void set_time_scale(double scale);
  double time_scale() const { return time_scale_; }
  double progress() const;
  // Changes a live parameter of a running pool (Registry::tune). Returns "" or why not.
  std::string tune(const std::string& pool, const std::string& param, const json& value);
  // Values tuned during the run, by pool and parameter.
  const std::map<std::string, std::map<std::string, json>>& tuned() const { return tuned_; }
  scenario::Run* run() { return run_.get(); }

  // --- being the scheduler (live_stepping.cpp; pools/core/sim/decision.h):
  // a simulated run whose every decision (two or more threads runnable)
  // waits for the student's pick. Run on this thread a slice a frame, as a
  // page runs, unpaced: between decisions it goes on at once.
  // Starts one, `picks` (thread ids, one per decision) replayed first.
  // False if the document is not valid.
  bool start_stepped(std::vector<std::uint64_t> picks = {});
  bool stepping() const { return stepper_ != nullptr; }
  // The decision the run waits at, if it waits (not while a pick is on its way).
  std::optional<sim::Decision> decision() const;
  // Answers it: this thread runs next. False if it is not one of the choices.
  bool pick(std::uint64_t thread);
  // The seeded policy picks the next `n` decisions (the one waited at included).
  void policy_for(std::uint64_t n);
  // The policy picks until a decision that matters (two choices touch one object).
  void to_next_that_matters();
  // The policy picks every decision from here to the run's end.
  void run_on();
  // Every pick so far, by thread id: what replays this run (`sched=`).
  const std::vector<std::uint64_t>& schedule() const;
  // Back one decision: the run started again, replaying the schedule but its
  // last pick. False when no pick was made.
  bool undo();
  // Why the run cannot go on (a replayed pick that does not fit, naming the
  // decision; a deadlock), "" otherwise.
  std::string stepping_error() const;
  // Only a replayed pick that does not fit the run (bad input: a link's, a file's).
  std::string pick_error() const { return stepper_ ? stepper_->error() : ""; }

  // Runs f with the frame's data, under the engine's metrics lock.
  void with_frame(const std::function<void(const Frame&)>& f);

 private:
  void validate();
  void end_run();  // the run (stepped or not) ended and forgotten

  json doc_;
  json loaded_;  // doc_ as loaded (normalized), for edited()
  std::string file_;
  std::filesystem::path base_dir_;
  std::optional<scenario::Scenario> scenario_;
  std::string error_;
  double time_scale_ = 1;
  scenario::SimulationSpec sim_spec_;     // the document's "simulation", or the one it would get
  std::optional<sim::Settings> run_sim_;  // the current run's, if it is simulated
  std::unique_ptr<scenario::Run> run_;
  TraceIndex index_;
  std::vector<SubmitLateness> lateness_;  // per trace pool id, once the run has ended
  std::map<std::string, std::map<std::string, json>> tuned_;
  std::optional<Time> pause_at_;
  // Being the scheduler: the Stepper, and a Chooser around it that keeps
  // every pick (the student's and the policy's).
  struct Recorder final : sim::Chooser {
    explicit Recorder(sim::Stepper& s) : stepper(s) {}
    std::optional<std::size_t> choose(const sim::Decision& d) override;
    sim::Stepper& stepper;
    std::vector<std::uint64_t> picks;
  };
  std::unique_ptr<sim::Stepper> stepper_;
  std::unique_ptr<Recorder> recorder_;
  bool picked_ = false;  // a pick (or the policy) answered the decision waited at: the next slice takes it
};

}  // namespace poolscope::gui
