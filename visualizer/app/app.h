// poolscope-gui: the window, the session (a live run or a replay), the views,
// and the loop that draws them; also the headless modes for docs and tests
// (run or replay to a moment, take a screenshot, benchmark frames, exit).
#pragma once

#include <array>
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <utility>

#include "visualizer/app/file_dialog.h"
#include "visualizer/app/frame_times.h"
#include "visualizer/app/view_lesson.h"
#include "visualizer/app/challenge_play.h"
#include "visualizer/app/view_scheduler.h"
#include "visualizer/app/view_sweep.h"
#include "visualizer/app/views.h"
#include "visualizer/app/window.h"
#include "visualizer/model/challenge_progress.h"
#include "visualizer/model/failing_schedule.h"
#include "visualizer/model/run_mode.h"

namespace poolscope::gui {

struct Options {
  std::string scenario;                 // a scenario file or a shipped scenario's name
  // --sim, --real, --cpus, --costs, --policy, --sim-seed, --time-scale: as the runner's, on the scenario
  scenario::Overrides overrides;
  bool has_overrides() const {
    return overrides.simulate || overrides.cpus || overrides.costs || overrides.policy || overrides.sim_seed ||
           overrides.time_scale;
  }
  std::string replay;                   // a result file written with --events
  std::optional<std::int64_t> run_for;  // headless: scenario time to run before the screenshot (ns)
  std::optional<std::int64_t> at;       // replay: where the cursor starts (ns)
  std::string screenshot;               // write a PNG and exit
  std::string save_result;              // write the run's result (with events) when it ends, and exit
  int bench_frames = 0;                 // render this many frames, print the CPU frame time, exit
  int width = 1600, height = 1000;
  float ui_scale = 0;  // 0: the display's content scale
  bool presentation = false;
  bool colour_blind = false;
  std::string tab;                                // compare, pools or scenario
  std::string sweep_counter;                      // a sweep's multiples: workers, ..., spawned, reaped
  std::optional<std::pair<double, double>> view;  // the time range shown (ns)
  std::optional<std::pair<float, float>> hover;   // pretend the mouse is there (screenshots of tooltips)
  // Headless: drag the mouse from the first point to the second (button 1
  // held) before the screenshot, e.g. along the ruler to scrub a replay.
  std::optional<std::pair<std::pair<float, float>, std::pair<float, float>>> drag;
  // Headless: these files dropped onto the window once it is up; a refused
  // one's dialog is printed ("poolscope-gui: dialog: ...") and the last shown.
  std::vector<std::string> drop;
  float lane_height = 0;
  std::vector<std::string> hide_pools;  // left out of the plots
  bool log_plots = false;               // every plot on a log scale
  std::vector<std::string> split_plots;  // counters whose plots are split per pool
  bool flows = false;                   // every task's flow arrow in view (W)
  std::string challenge;                // a scheduler challenge, by shipped name or file (docs/challenges.md)
  // Be the scheduler: the run stepped by decision, these picks so far (maybe none) replayed first.
  std::optional<std::string> sched;
  std::string compare;                  // a second result, compared with the one replayed
  std::string lane_order = "spawn";     // or "exit"
  std::optional<std::pair<std::int64_t, std::int64_t>> range;  // a selected time range (ns)
  std::optional<std::size_t> finding;  // the finding to show, from 1, as a click in the Findings tab does
  bool play = false;              // start the run (play a replay from its start) at once
  bool show_help = false;         // the ? overlay
  bool show_frame_times = false;  // the frame-time overlay
  bool no_side_panel = false;     // the timeline takes the whole window
  double timeout_s = 120;         // headless: give up after this much wall time
  // A lesson (a shipped lesson's name or a file) opened at a step (from 0),
  // and headless, what a student does in it (--lesson-do: answer=V, next,
  // back, try=V, save=FILE), each once the lesson is still.
  std::string lesson;
  std::optional<std::size_t> lesson_step;
  std::vector<std::string> lesson_do;

  bool headless() const { return !screenshot.empty() || !save_result.empty() || bench_frames > 0; }
};

class App {
 public:
  explicit App(const Options& options);
  ~App();
  // One frame; false when it is time to exit (main_loop.h runs the frames).
  bool tick();
  int exit_code() const { return exit_code_; }

 private:
  void frame();
  void build(const Frame& frame);
  void menu_bar(Context& cx);
  void toolbar(Context& cx);
  void toolbar_items(Context& cx);
  void shortcuts(Context& cx);
  void overlays(Context& cx);
  void open_error_dialog();
  // Real or simulated (app_mode.cpp): the badge of the run on screen, the
  // live run's mode and machine, its step, a speed slider (log scale, lo..hi),
  // and the banner of a failing schedule from `poolscope explore`.
  void mode_badge(const RunMode& mode);
  void mode_controls(LiveSession& live);
  void pool_costs(const LiveSession& live, const std::string& costs);
  void step_button(LiveSession& live);
  static bool speed_slider(const char* label, double& speed, float width, double lo, double hi);
  void failure_banner();
  void show_failure();  // the replay's cursor at the failure, the view around it
  // Headless (app_headless.cpp): the mouse and the view the next frame
  // gets, and what happens after it; false when it is time to exit.
  void headless_input();
  bool headless_step();
  // The command line (app_command_line.cpp): the view's settings, then the
  // file it names opened, and the flags that do not fit that file refused
  // (ConfigError, exit 2).
  void apply_command_line();
  void open_command_line();

  // The session (app_session.cpp).
  // A scenario runs live, a result replays, a sweep is shown; which is decided by the file's content.
  // `kind` any: a result if its "format" says so (--replay: a result, or an error).
  enum class Kind { any, result };
  // Opens a file; one that cannot be opened leaves the view as it was and
  // says why in a dialog (ui_.open_error). Returns whether it opened.
  bool open(const std::filesystem::path& file, Kind kind = Kind::any);
  void open_scenario(std::unique_ptr<LiveSession> session);
  void open_replay(std::unique_ptr<Replay> replay);
  // A sweep is shown over the session, which stays behind it until it is closed.
  void open_sweep(SweepFile sweep);
  void show_scenario();  // the view: the scenario's whole timeline, following the run
  void start_run();      // a new run of the scenario, shown from its start
  // Run B, beside the replay on screen (run A): its summaries against A's.
  void compare_with(const std::filesystem::path& file);
  // Being the scheduler, and the challenges (app_challenge.cpp): the menu,
  // a challenge opened (its scenario stepped by decision, `picks` replayed),
  // its goal checked after each frame's slices, the win shown and kept.
  void challenges_menu();
  void open_challenge(const std::string& name, const std::string& picks);
  void start_stepping(const std::string& picks);  // the scenario on screen, stepped by decision
  void scheduler_button();                         // the toolbar's way to start stepping
  void check_challenge();
  void win_window();
  ChallengeProgress& progress();  // read from its store the first time
  struct ChallengeEntry {
    std::string name, title, goal;
    bool correct;
  };
  std::optional<std::vector<ChallengeEntry>> challenge_list_;  // the shipped ones, read when the menu first opens
  // What leaves the GUI (app_export.cpp).
  // Where exports go: poolscope-SCENARIO-DATE-TIME.suffix in the working directory.
  std::filesystem::path output_file(const char* suffix) const;
  void export_trace();
  void save_result(const std::filesystem::path& file);
  // "Copy link": what shows the run on screen again elsewhere (share_link.h).
  void share();
  // A lesson (app_lesson.cpp): opened at a step (throws ScenarioError or
  // ConfigError), a step shown (its scenario run, paused at its question,
  // its view applied) or run again with a try's value, the question
  // answered, the reveal, the answers saved; the panel, the menu, headless.
  void open_lesson(const std::filesystem::path& file, std::size_t step = 0);
  void lesson_go(std::size_t i);
  void lesson_run(const std::optional<json>& try_value);
  void lesson_answered();
  void lesson_update(const Frame& f);
  void save_answers(const std::filesystem::path& file);
  std::filesystem::path answers_file() const;
  void lesson_panel(Context& cx, float height);
  void lesson_menu();
  bool lesson_headless();
  void print_lesson() const;

  Options options_;
  Window window_;
  Ui ui_;
  std::unique_ptr<LiveSession> live_;
  std::unique_ptr<Replay> replay_;
  std::optional<FailingSchedule> failing_;  // the replay is a failing schedule explore wrote
  std::unique_ptr<SweepFile> sweep_;        // a sweep shown instead of the session, if one is open
  std::vector<Ui::PhaseBand> sweep_phases_;  // its scenario's phases
  SweepView sweep_view_;
  TimelineView timeline_;
  CompareView compare_;
  ExplainView explain_;
  ScenarioView scenario_;
  RangeView range_;
  FindingsView findings_;
  RunsView runs_view_;
  SchedulerView scheduler_;
  std::optional<ChallengePlay> challenge_;  // the challenge played, while its scenario is on screen
  std::optional<ChallengeProgress> progress_;  // read from its store when first needed
  std::string stepping_error_;                 // the stepped run's error, as last said
  std::optional<RunComparison> runs_;  // two runs compared, while the window is open
  std::unique_ptr<LessonProgress> lesson_;  // a lesson, while it is open
  LessonView lesson_view_;
  bool asked_shown_ = false;          // the run was paused to ask at the last frame
  std::optional<Nanos> lesson_pause_;  // where the run on screen pauses itself (LessonProgress::pause_at)
  std::size_t lesson_do_next_ = 0;    // headless: the next --lesson-do action
  FileDialog dialog_;
  bool dialog_compares_ = false;  // the file chosen is run B, not a new run to open
  FrameTimes times_;
  std::vector<std::function<void()>> later_;
  std::vector<std::string> designs_;
  bool options_applied_ = false;  // --hide-pool, --log-plots and --split-plot
  double load_cpu_ = 0;  // GUI thread CPU ms since load_since_
  std::chrono::steady_clock::time_point load_since_;  // this frame's pools' designs, for their colours
  std::optional<std::filesystem::path> screenshot_;  // written after this frame renders

  float base_scale_;           // the display's content scale, or --ui-scale
  float zoom_ = 1;             // Ctrl+/Ctrl-
  bool was_finished_ = false;  // the live run had ended at the last frame
  std::uint64_t dropped_shown_ = 0;  // trace events dropped by the live run, as the status line said last
  void note_dropped_events();   // (app_session.cpp)
  void note_dropped_in_file();  // the same, for a replayed result
  // The status line and the could-not-open dialog, each new message handed
  // to the platform too (announce.h).
  void echo_messages();
  double echoed_status_ = -1;
  std::string echoed_error_;
  bool view_applied_ = false;  // --view has been applied to a live run's first start

  // Headless progress: wait for the run (or not), let the picture settle,
  // benchmark, take the screenshot.
  enum class Phase { waiting, dragging, settling, benchmarking, shooting };
  Phase phase_ = Phase::waiting;
  int settle_ = 0;
  int dragged_ = 0;  // frames of the --drag gesture so far
  bool dropped_ = false;  // the --drop files have been dropped
  // The benchmark's stages: the view swept over the run (live or replayed);
  // then, in a replay, the cursor moving forward through the run as it does
  // playing, and going back (the metrics rebuilt from a snapshot).
  enum BenchStage { sweep, play, back, stages };
  struct BenchSamples {
    std::vector<double> cpu, build, wall;  // ms a frame
    std::size_t vertices = 0;
  };
  int bench_stage_ = sweep;
  int benched_ = -1;  // frames of this stage measured so far, -1 when not benchmarking
  int bench_jumps_ = 0;          // going back: jumps made
  bool bench_refreshed_ = true;  // going back: the table caught up with the last jump
  int bench_stage_frames() const;
  std::pair<double, double> bench_view_;
  std::array<BenchSamples, stages> bench_;
  void print_bench() const;
  int exit_code_ = 0;
  std::chrono::steady_clock::time_point started_;
};

}  // namespace poolscope::gui
