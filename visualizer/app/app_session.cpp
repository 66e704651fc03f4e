// The session on screen: a file opened by its content (open: a scenario
// runs live, a result replays, a sweep is shown over them), a live run
// started, run B compared with the replay, and what the status line says
// of a trace that dropped events.
#include "visualizer/app/app.h"

#include "scenarios/engine/lesson.h"
#include "scenarios/engine/library.h"
#include "scenarios/engine/result_json.h"
#include "scenarios/engine/sweep_json.h"
#include "visualizer/model/file_format.h"

namespace poolscope::gui {

bool App::open(const std::filesystem::path& file, Kind kind) {
  try {
    if (kind == Kind::result && !is_result(file) && std::filesystem::exists(file))
      throw ConfigError("", file.string() + " is not a result (its top-level \"format\" is not \"" +
                                std::string(scenario::kResultFormat) +
                                "\"): --replay replays a result written by `poolscope run SCENARIO --events --out "
                                "FILE`; a scenario runs live with --scenario, or given alone");
    if (kind == Kind::any && top_format(file) == scenario::lesson::kLessonFormat) {
      open_lesson(file);  // (a bad one leaves the lesson open before, if any, as it was)
      return true;
    }
    if (kind == Kind::any && top_format(file) == scenario::sweep::kSweepFormat) {
      lesson_.reset();
      open_sweep(load_sweep(file));
      return true;
    }
    lesson_.reset();  // another file takes the lesson's place
    if (kind == Kind::result || (kind == Kind::any && is_result(file)))
      open_replay(std::make_unique<Replay>(scenario::load_result(file)));
    else
      open_scenario(LiveSession::load(file));
    sweep_.reset();
    return true;
  } catch (const std::exception& e) {
    ui_.open_error = e.what();  // the runner's message for the same file
    ui_.open_error_title = "Could not open the file";
    return false;
  }
}

void App::open_scenario(std::unique_ptr<LiveSession> session) {
  runs_.reset();  // its run A is gone
  replay_.reset();
  failing_.reset();
  ui_.failure.reset();
  challenge_.reset();  // (open_challenge sets it again for its own scenario)
  live_ = std::move(session);
  show_scenario();
  ui_.say("scenario " + live_->file());
}

void App::show_scenario() {
  ui_.axis.set_follow(true);
  const double d = live_->scenario() ? static_cast<double>(live_->scenario()->duration().count()) : 10e9;
  if (live_->scenario()) ui_.fit_side_panel(live_->scenario()->pools.size());
  ui_.axis.fit(0, d);
}

void App::start_run() {
  if (!live_->start()) return ui_.say(live_->error(), true);
  show_scenario();
  if (options_.view && !view_applied_) {  // --view: the first run is shown as asked, not whole
    ui_.axis.set_view(options_.view->first, options_.view->second);
    ui_.axis.set_follow(false);
    view_applied_ = true;
  }
}

void App::open_replay(std::unique_ptr<Replay> replay) {
  runs_.reset();  // compared with the run replayed before
  live_.reset();
  challenge_.reset();
  replay_ = std::move(replay);
  ui_.axis.set_follow(false);
  ui_.axis.fit(0, static_cast<double>(std::max<std::int64_t>(replay_->end_time(), 1'000'000)));
  ui_.fit_side_panel(replay_->file().pools.size());
  replay_->seek(replay_->end_time());  // the whole run first; then rewind, play or step
  ui_.say("replaying " + replay_->file().file + ": " + std::to_string(replay_->size()) + " events");
  note_dropped_in_file();
  // A failing schedule from `poolscope explore` opens at the failure.
  failing_ = FailingSchedule::of_result(replay_->file().explore);
  ui_.failure.reset();
  if (failing_) {
    ui_.failure = {failing_->since, failing_->at};
    show_failure();
    ui_.say("a failing schedule from poolscope explore, opened at its failure (" +
            plot::format_time(static_cast<double>(failing_->at)) + ")");
  }
}

void App::open_sweep(SweepFile sweep) {
  sweep_ = std::make_unique<SweepFile>(std::move(sweep));
  // Its scenario's phases, for the bands under the multiples: the file it
  // names, else the shipped scenario of its name; none if neither reads.
  sweep_phases_.clear();
  for (const std::string& name : {sweep_->scenario_file, sweep_->scenario}) {
    try {
      if (name.empty()) continue;
      sweep_phases_ = phase_bands(scenario::read_scenario_json(scenario::resolve_scenario(name)));
      break;
    } catch (const std::exception&) {
    }
  }
  sweep_view_ = {};
  for (std::size_t i = 0; i < kSweepCounterCount; ++i)
    if (sweep_counter_name(static_cast<SweepCounter>(i)) == options_.sweep_counter)
      sweep_view_.show_counter(static_cast<SweepCounter>(i));
  ui_.say("sweep " + sweep_->file + ": " + std::to_string(sweep_->points.size()) + " points");
}

void App::compare_with(const std::filesystem::path& file) {
  ui_.open_error_title = "Could not compare the runs";
  if (!replay_) {
    ui_.open_error = "comparing two runs needs a result replayed as run A: open one first (poolscope run SCENARIO "
                     "--events --out a.json)";
    return;
  }
  try {
    runs_ = compare_runs(replay_->file(), scenario::load_result(file));
    ui_.say("comparing A " + runs_->a + " with B " + runs_->b);
  } catch (const std::exception& e) {
    ui_.open_error = e.what();
  }
}

// A live run whose trace drops events (the machine cannot keep up: see
// docs/reliability.md) says so on the status line, with whose, each time
// the count grows: the plots and the table then miss some tasks.
void App::note_dropped_events() {
  scenario::Run* run = live_ ? live_->run() : nullptr;
  const auto dropped = run ? run->events_dropped() : std::vector<std::pair<std::string, std::uint64_t>>{};
  std::uint64_t total = 0;
  std::string whose;
  for (const auto& [pool, n] : dropped) {
    total += n;
    whose += (whose.empty() ? "" : ", ") + pool + " " + std::to_string(n);
  }
  if (total == dropped_shown_) return;
  dropped_shown_ = total;  // a new run starts again from 0
  if (total == 0) return;
  ui_.say("the trace dropped " + std::to_string(total) + " events (" + whose +
              "): the machine fell behind, the counts miss tasks; run it simulated (--sim) or lighter",
          true);
}

// A result whose trace dropped events (a real run the machine could not keep
// up with) replays what was kept: said as a live run says it, with whose.
void App::note_dropped_in_file() {
  std::uint64_t total = 0;
  std::string whose;
  for (const scenario::ResultPool& p : replay_->file().pools)
    if (p.events_dropped > 0) {
      total += p.events_dropped;
      whose += (whose.empty() ? "" : ", ") + p.info.name + " " + std::to_string(p.events_dropped);
    }
  if (total == 0) return;
  ui_.say("this run's trace dropped " + std::to_string(total) + " events (" + whose +
              "): the machine fell behind, the replay's counts miss tasks; run it simulated (--sim) or lighter",
          true);
}

}  // namespace poolscope::gui
