// The command line, applied once the window is up: the view as asked
// (palette, lane height, tab, ranges ...), then the file to open (a result
// replays, a sweep is shown, a scenario runs live; the default scenario
// without one), then the flags that only one kind of file takes, refused
// with a ConfigError (exit 2) naming both when the file is of another kind.
#include "visualizer/app/app.h"

#include "scenarios/engine/lesson.h"
#include "scenarios/engine/library.h"
#include "scenarios/engine/sweep_json.h"
#include "visualizer/model/file_format.h"

namespace poolscope::gui {

void App::apply_command_line() {
  ui_.presentation = options_.presentation;
  ui_.palette_kind = options_.colour_blind ? plot::PaletteKind::colour_blind_safe : plot::PaletteKind::standard;
  if (options_.lane_height > 0) ui_.lane_height = options_.lane_height;
  ui_.show_help = options_.show_help;
  ui_.lanes_by_exit = options_.lane_order == "exit";
  ui_.flows_in_view = options_.flows;
  ui_.range = options_.range;
  if (options_.finding) ui_.finding_request = *options_.finding - 1;
  ui_.show_frame_times = options_.show_frame_times;
  ui_.side_panel = !options_.no_side_panel;
  if (options_.tab == "pools") ui_.tab_request = Tab::pools;
  if (options_.tab == "scenario") ui_.tab_request = Tab::scenario;
  if (options_.tab == "findings") ui_.tab_request = Tab::findings;
  open_command_line();
}

void App::open_command_line() {
  if (!options_.lesson.empty()) {
    // A lesson runs its own steps' scenarios, simulated: only the speed is the command line's.
    if (!options_.replay.empty() || !options_.scenario.empty() || !options_.compare.empty())
      throw ConfigError("--lesson", "a lesson runs its steps' own scenarios: give --lesson alone, without a file, "
                                    "--scenario, --replay or --compare");
    if (options_.has_overrides() && (options_.overrides.simulate || options_.overrides.cpus ||
                                     options_.overrides.costs || options_.overrides.policy ||
                                     options_.overrides.sim_seed))
      throw ConfigError("--lesson", "a lesson's steps run as the lesson says (simulated, on its machine and seed): "
                                    "only --time-scale goes with --lesson");
    open_lesson(scenario::lesson::resolve_lesson(options_.lesson), options_.lesson_step.value_or(0));
    if (options_.view) {
      ui_.axis.set_view(options_.view->first, options_.view->second);
      ui_.axis.set_follow(false);
    }
    return;
  }
  if (options_.lesson_step)
    throw ConfigError("--step", "opens a lesson at a step: give --lesson NAME with it");
  if (!options_.lesson_do.empty())
    throw ConfigError("--lesson-do", "does what a student does in a lesson: give --lesson NAME with it");
  if (!options_.replay.empty())
    open(options_.replay, Kind::result);  // --replay: a result, whatever the file is
  else if (const std::filesystem::path file =
               options_.scenario.empty() ? "" : scenario::resolve_scenario(options_.scenario);
           top_format(file) == scenario::sweep::kSweepFormat)
    open_sweep(load_sweep(file));  // a bad sweep is bad input: exit 2, its field named
  else if (!file.empty())
    open(file);
  if (sweep_ && (options_.at || options_.run_for || options_.has_overrides()))
    throw ConfigError("", "--at, --run-for, --sim and the simulation's options show a run, but " + sweep_->file +
                              " is a sweep (its points have run): give it alone, or with --screenshot and --hover");
  if (!sweep_ && !options_.sweep_counter.empty())
    throw ConfigError("", "--counter chooses what a sweep's small multiples show, but no sweep was given (a file "
                          "written by `poolscope sweep --json`)");
  if (!live_ && !replay_) {
    // The default scenario, behind a sweep, or when no file was given (or a
    // bad one: its dialog stays over the default scenario).
    if (!ui_.open_error.empty() && (options_.headless() || options_.at || options_.run_for))
      throw ConfigError("", ui_.open_error);  // bad input: exit 2
    const std::string said = ui_.status;
    open_scenario(LiveSession::load_default());
    if (sweep_) ui_.say(said);  // the sweep's line, not the scenario's waiting behind it
  }
  // --at is a replay's, --run-for a scenario's: the other kind of file would ignore it.
  if (options_.at && !replay_)
    throw ConfigError("", "--at puts a replay's cursor, but " + live_->file() +
                              " is a scenario (runs live): use --run-for, or give a result written with --events");
  if (options_.has_overrides() && replay_)
    throw ConfigError("", "--sim, --real, --cpus, --costs, --policy, --sim-seed and --time-scale change how a scenario "
                          "runs, but " + replay_->file().file + " is a result (replays as it ran)");
  if (options_.has_overrides()) live_->apply(options_.overrides);
  if (!options_.compare.empty()) {
    if (!replay_)
      throw ConfigError("", "--compare " + options_.compare + ": run A must be a result to replay, but " +
                                live_->file() + " is a scenario (runs live)");
    compare_with(options_.compare);
    if (!runs_) throw ConfigError("", "--compare: " + ui_.open_error);  // bad input: exit 2
  }
  if (options_.run_for && replay_)
    throw ConfigError("", "--run-for runs a scenario, but " + replay_->file().file +
                              " is a result (replays): use --at to put the replay's cursor");
  if (replay_ && options_.at) replay_->seek(*options_.at);  // (a replay opens at its end, showing the whole run)
  if (live_ && options_.headless() && !live_->scenario()) throw ConfigError("", live_->error());
  if (options_.view) {
    ui_.axis.set_view(options_.view->first, options_.view->second);
    ui_.axis.set_follow(false);
  }
  // Being the scheduler: a challenge (its own scenario), or the scenario
  // stepped by decision, the picks so far replayed (app_challenge.cpp).
  if (!options_.challenge.empty() && (replay_ || !options_.scenario.empty()))
    throw ConfigError("--challenge", "a challenge opens its own scenario: give it alone, not with " +
                                         (replay_ ? replay_->file().file : options_.scenario));
  if (options_.sched && replay_)
    throw ConfigError("--sched", "steps a scenario's run by decision, but " + replay_->file().file +
                                     " is a result (replays as it ran)");
  if (!options_.challenge.empty()) {
    open_challenge(options_.challenge, options_.sched.value_or(""));
    if (!ui_.open_error.empty()) throw ConfigError("", ui_.open_error);  // bad input: exit 2
    return;
  }
  if (options_.sched) {
    if (!live_->scenario()) throw ConfigError("", live_->error());
    start_stepping(*options_.sched);
    return;
  }
  if (options_.play && live_ && live_->scenario()) start_run();
  if (options_.play && replay_) {
    replay_->seek(0);
    replay_->set_playing(true);
  }
}

}  // namespace poolscope::gui
