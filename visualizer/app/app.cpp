#include "visualizer/app/app.h"
#include "visualizer/app/announce.h"
#include "visualizer/app/hand_over.h"
#include "visualizer/app/main_loop.h"
#include "visualizer/app/share_link.h"

#include <imgui.h>

#include <cctype>
#include <chrono>
#include <cstdio>
#include <ctime>

#include "pools/core/duration.h"
#include "pools/core/platform.h"
#include "pools/core/registry.h"
#include "scenarios/engine/atomic_file.h"
#include "scenarios/engine/exports.h"
#include "scenarios/engine/library.h"
#include "scenarios/engine/result_json.h"
#include "scenarios/engine/sweep_json.h"
#include "visualizer/model/file_format.h"

namespace poolscope::gui {

namespace {

using Clock = std::chrono::steady_clock;

// Events added to the metrics as of a replay's cursor in one frame, after a
// jump back (a rebuild from a snapshot) or far ahead: about 1.5 ms on this
// project's loaded machine, as is copying one pool of a snapshot, which
// takes a frame of its own. 25,000 took 3 to 4 ms, over a 16 ms frame.
constexpr std::size_t kRebuildEventsPerFrame = 10'000;

using platform::thread_cpu_ms;

// The run's metrics so far, for an export, holding the engine's metrics lock
// only to copy: the pools and then the events, a slice at a time (the engine
// adds the next batch in between), rebuilt into metrics outside the lock.
// Writing a million events' trace under the lock would stall the engine long
// enough for the trace stream to drop live events.
metrics::RunMetrics copy_metrics(const scenario::Run& run) {
  constexpr std::size_t kSlice = 65'536;
  std::vector<PoolInfo> pools;
  std::vector<Event> events;
  std::size_t total = 0;
  run.with_metrics([&](const metrics::RunMetrics& m) {
    for (const metrics::PoolMetrics& p : m.pools()) pools.push_back(p.info());
    total = m.events().size();
  });
  events.reserve(total);
  for (std::size_t at = 0; at < total; at += kSlice)
    run.with_metrics([&](const metrics::RunMetrics& m) {
      const auto from = m.events().begin() + static_cast<std::ptrdiff_t>(at);
      events.insert(events.end(), from, from + static_cast<std::ptrdiff_t>(std::min(kSlice, total - at)));
    });
  metrics::RunMetrics copy;
  copy.set_pools(pools);
  copy.add(events);
  return copy;
}

std::string stamp() {
  std::time_t now = std::time(nullptr);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y%m%d-%H%M%S", std::localtime(&now));
  return buf;
}

}  // namespace

App::App(const Options& options)
    : options_(options),
      window_("poolscope", options.width, options.height, !options.headless()),
      base_scale_(options.ui_scale > 0 ? options.ui_scale : window_.content_scale()) {
  ui_.presentation = options.presentation;
  ui_.palette_kind = options.colour_blind ? plot::PaletteKind::colour_blind_safe : plot::PaletteKind::standard;
  if (options.lane_height > 0) ui_.lane_height = options.lane_height;
  ui_.show_help = options.show_help;
  ui_.lanes_by_exit = options.lane_order == "exit";
  ui_.flows_in_view = options.flows;
  ui_.range = options.range;
  if (options.finding) ui_.finding_request = *options.finding - 1;
  ui_.show_frame_times = options.show_frame_times;
  ui_.side_panel = !options.no_side_panel;
  if (options.tab == "pools") ui_.tab_request = Tab::pools;
  if (options.tab == "scenario") ui_.tab_request = Tab::scenario;
  if (options.tab == "findings") ui_.tab_request = Tab::findings;

  if (!options.replay.empty())
    open(options.replay, Kind::result);  // --replay: a result, whatever the file is
  else if (const std::filesystem::path file =
               options.scenario.empty() ? "" : scenario::resolve_scenario(options.scenario);
           top_format(file) == scenario::sweep::kSweepFormat)
    open_sweep(load_sweep(file));  // a bad sweep is bad input: exit 2, its field named
  else if (!file.empty())
    open(file);
  if (sweep_ && (options.at || options.run_for || options.has_overrides()))
    throw ConfigError("", "--at, --run-for, --sim and the simulation's options show a run, but " + sweep_->file +
                              " is a sweep (its points have run): give it alone, or with --screenshot and --hover");
  if (!sweep_ && !options.sweep_counter.empty())
    throw ConfigError("", "--counter chooses what a sweep's small multiples show, but no sweep was given (a file "
                          "written by `poolscope sweep --json`)");
  if (!live_ && !replay_) {
    // The default scenario, behind a sweep, or when no file was given (or a
    // bad one: its dialog stays over the default scenario).
    if (!ui_.open_error.empty() && (options.headless() || options.at || options.run_for))
      throw ConfigError("", ui_.open_error);  // bad input: exit 2
    const std::string said = ui_.status;
    open_scenario(LiveSession::load_default());
    if (sweep_) ui_.say(said);  // the sweep's line, not the scenario's waiting behind it
  }
  // --at is a replay's, --run-for a scenario's: the other kind of file would ignore it.
  if (options.at && !replay_)
    throw ConfigError("", "--at puts a replay's cursor, but " + live_->file() +
                              " is a scenario (runs live): use --run-for, or give a result written with --events");
  if (options.has_overrides() && replay_)
    throw ConfigError("", "--sim, --real, --cpus, --costs, --policy, --sim-seed and --time-scale change how a scenario "
                          "runs, but " + replay_->file().file + " is a result (replays as it ran)");
  if (options.has_overrides()) live_->apply(options.overrides);
  if (!options.compare.empty()) {
    if (!replay_)
      throw ConfigError("", "--compare " + options.compare + ": run A must be a result to replay, but " +
                                live_->file() + " is a scenario (runs live)");
    compare_with(options.compare);
    if (!runs_) throw ConfigError("", "--compare: " + ui_.open_error);  // bad input: exit 2
  }
  if (options.run_for && replay_)
    throw ConfigError("", "--run-for runs a scenario, but " + replay_->file().file +
                              " is a result (replays): use --at to put the replay's cursor");
  if (replay_ && options.at) replay_->seek(*options.at);  // (a replay opens at its end, showing the whole run)
  if (live_ && options.headless() && !live_->scenario()) throw ConfigError("", live_->error());
  if (options.view) {
    ui_.axis.set_view(options.view->first, options.view->second);
    ui_.axis.set_follow(false);
  }
  if (options.play && live_ && live_->scenario()) start_run();
  if (options.play && replay_) {
    replay_->seek(0);
    replay_->set_playing(true);
  }
  started_ = Clock::now();
  load_since_ = started_;
}

App::~App() = default;

bool App::open(const std::filesystem::path& file, Kind kind) {
  try {
    if (kind == Kind::result && !is_result(file) && std::filesystem::exists(file))
      throw ConfigError("", file.string() + " is not a result (its top-level \"format\" is not \"" +
                                std::string(scenario::kResultFormat) +
                                "\"): --replay replays a result written by `poolscope run SCENARIO --events --out "
                                "FILE`; a scenario runs live with --scenario, or given alone");
    if (kind == Kind::any && top_format(file) == scenario::sweep::kSweepFormat) {
      open_sweep(load_sweep(file));
      return true;
    }
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

void App::open_scenario(std::unique_ptr<LiveSession> session) {
  runs_.reset();  // its run A is gone
  replay_.reset();
  failing_.reset();
  ui_.failure.reset();
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

std::filesystem::path App::output_file(const char* suffix) const {
  std::string n = sweep_  ? sweep_->scenario + "-sweep"
                  : live_ ? live_->document().value("name", "run")
                          : replay_->file().scenario.value("name", "run");
  for (char& c : n)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '-' && c != '_') c = '_';
  return "poolscope-" + n + "-" + stamp() + suffix;
}

void App::export_trace() {
  const std::filesystem::path file = output_file(".trace.json");
  try {
    scenario::Scenario s;
    if (live_) {
      if (!live_->run()) return ui_.say("start the run first: there is no trace yet", true);
      s = live_->run()->scenario();
      const metrics::RunMetrics m = copy_metrics(*live_->run());
      scenario::write_atomically(file, [&](std::ostream& out) { scenario::write_chrome_trace(out, s, m); });
    } else {
      s.name = replay_->file().scenario.value("name", "");
      scenario::write_atomically(file,
                                 [&](std::ostream& out) { scenario::write_chrome_trace(out, s, replay_->metrics()); });
    }
    ui_.say("trace " + hand_over(file) + " (open it in ui.perfetto.dev or chrome://tracing)");
  } catch (const std::exception& e) {
    ui_.say(e.what(), true);
  }
}

void App::save_result(const std::filesystem::path& file) {
  scenario::Run* run = live_ ? live_->run() : nullptr;
  if (!run || !run->finished()) return ui_.say("the result can be saved once the run has ended", true);
  try {
    scenario::write_atomically(file, [&](std::ostream& out) {
      scenario::write_result(out, run->scenario(), run->outcome(), run->metrics(),
                             scenario::ResultOptions{.include_events = true});
    });
    ui_.say("result " + hand_over(file) + " (open it to replay the run)");
  } catch (const std::exception& e) {
    ui_.say(e.what(), true);
  }
}

void App::share() {
  Link link;
  if (sweep_) return ui_.say("a sweep's points are not carried by a link: share its file", true);
  if (live_) {
    const std::filesystem::path file = live_->file();
    std::error_code ec;
    const bool shipped = std::filesystem::equivalent(file.parent_path(), scenario::library_dir(), ec);
    if (shipped && !live_->edited())
      link.scenario = file.stem().string();
    else
      link.document = live_->document();
  } else {
    // A replay: the scenario it ran, with the machine and schedule it ran on.
    const RunMode mode = RunMode::of_result(replay_->file().run);
    if (!mode.simulated)
      return ui_.say("a run on real threads cannot be run again the same way: share its result file", true);
    json doc = replay_->file().scenario;
    doc["simulation"] = {{"cpus", mode.cpus}, {"costs", mode.costs}, {"policy", mode.policy}, {"seed", mode.seed}};
    link.document = std::move(doc);
  }
  const auto at = [](double ns) { return format_duration(Nanos(static_cast<std::int64_t>(ns))); };
  if (!ui_.axis.following()) link.options.emplace_back("view", at(ui_.axis.begin()) + ":" + at(ui_.axis.end()));
  static constexpr const char* kTabs[] = {"compare", "pools", "scenario", "findings"};
  if (ui_.tab != Tab::compare) link.options.emplace_back("tab", kTabs[static_cast<int>(ui_.tab)]);
  if (ui_.palette_kind == plot::PaletteKind::colour_blind_safe) link.options.emplace_back("palette", "colour-blind");
  ui_.say(copy_link(link));
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

void App::frame() {
  const auto wall0 = Clock::now();
  const double cpu0 = thread_cpu_ms();
  // HiDPI: the display's scale, read again each frame (the window may have
  // moved to another monitor), unless --ui-scale fixed it.
  if (options_.ui_scale <= 0) base_scale_ = window_.content_scale();
  window_.set_ui_scale(base_scale_ * zoom_ * (ui_.presentation ? 1.6f : 1.0f));
  window_.begin_frame();
  ui_.scale = window_.ui_scale();
  ImGuiIO& io = ImGui::GetIO();
  headless_input();
  ImGui::NewFrame();

  if (replay_) {
    replay_->advance(io.DeltaTime, ui_.replay_speed);
    // While the cursor is dragged, rebuilding the metrics as of it (back, or
    // far ahead past a snapshot) waits.
    // A frame's worth at a time after a jump: the table catches up over a
    // few frames instead of stalling one. Playing adds what the speed asks
    // (a budget would leave a fast replay's table behind for good).
    const bool going_back = replay_->going_back() && !ui_.scrubbing;
    replay_->sync_at_cursor(!ui_.scrubbing, replay_->playing() ? Replay::kAll : kRebuildEventsPerFrame);
    ui_.rebuilding = going_back || replay_->behind();
    ui_.scrubbing = false;  // the ruler and the scrubber say again this frame
  }
  // A run without a thread of its own (a page's) runs here, half a frame's worth.
  if (live_) live_->tick(std::chrono::milliseconds(8));
  note_dropped_events();
  // A run that ends while the view follows it is shown whole.
  const bool finished = live_ && live_->state() == LiveSession::State::finished;
  auto body = [&](const Frame& f) {
    if (finished && !was_finished_ && ui_.axis.following()) {
      ui_.axis.fit(0, static_cast<double>(std::max(f.now, f.index.last_time())));
      ui_.axis.set_follow(false);
    }
    if (finished && !was_finished_)
      ui_.say("the run has ended (" + std::to_string(f.events.size()) +
              " events): save its result (Ctrl+S) to replay it, or copy a link to it (Ctrl+L)");
    build(f);
  };
  if (live_)
    live_->with_frame(body);
  else
    replay_->with_frame(body);
  was_finished_ = finished;
  window_.end_frame();
  const double built = thread_cpu_ms() - cpu0;
  window_.render();

  // The frame's cost: building it and handing it to OpenGL, not waiting for the display.
  const double cpu = thread_cpu_ms() - cpu0;
  times_.add(cpu);
  if (benched_ >= 0) {
    BenchSamples& b = bench_[static_cast<std::size_t>(bench_stage_)];
    b.cpu.push_back(cpu);
    b.build.push_back(built);
    b.vertices += static_cast<std::size_t>(ImGui::GetDrawData()->TotalVtxCount);
    b.wall.push_back(std::chrono::duration<double, std::milli>(Clock::now() - wall0).count());
  }
  if (screenshot_) {
    std::string error;
    if (window_.save_png(*screenshot_, error))
      ui_.say("screenshot " + hand_over(*screenshot_));
    else
      ui_.say(error, true);
    screenshot_.reset();
  }
  window_.present();

  // The GUI's load on the machine, over about a second; during a live run
  // frames are paced to 30 a second, leaving the pools the rest.
  load_cpu_ += thread_cpu_ms() - cpu0;
  const double window_ms = std::chrono::duration<double, std::milli>(Clock::now() - load_since_).count();
  if (window_ms >= 1000) {
    ui_.render_load = load_cpu_ / window_ms;
    ui_.cores = static_cast<unsigned>(platform::usable_cpus());
    // A twentieth of the machine, or OpenGL drawn in software on a few cores.
    ui_.render_distorts = ui_.render_load / ui_.cores > 0.05 || (window_.software_renderer() && ui_.cores <= 4);
    load_cpu_ = 0;
    load_since_ = Clock::now();
  }
  if (live_ && live_->state() == LiveSession::State::running && !options_.headless())
    wait_for_next_frame(wall0 + std::chrono::milliseconds(33));

  echo_messages();
  auto work = std::move(later_);
  later_.clear();
  for (auto& f : work) f();
  for (const std::string& file : window_.take_dropped())
    if (!open(file) && options_.headless()) std::printf("poolscope-gui: dialog: %s\n", ui_.open_error.c_str());
}

void App::echo_messages() {
  if (ui_.status_time != echoed_status_ && !ui_.status.empty()) announce(ui_.status, ui_.status_error);
  echoed_status_ = ui_.status_time;
  if (ui_.open_error != echoed_error_ && !ui_.open_error.empty())
    announce(std::string(ui_.open_error_title) + ": " + ui_.open_error, true);
  echoed_error_ = ui_.open_error;
}

void App::build(const Frame& f) {
  // Each pool in its design's colour, the same in every scenario: the run's
  // pools, or before a run, the scenario's.
  designs_.clear();
  if (!f.metrics.pools().empty())
    for (const metrics::PoolMetrics& p : f.metrics.pools()) designs_.push_back(p.info().design);
  else if (live_ && live_->scenario())
    for (const auto& p : live_->scenario()->pools) designs_.push_back(p.design);
  ui_.pool_colours = plot::pool_colours(ui_.palette(), designs_);
  if (!options_applied_ && !f.metrics.pools().empty()) {  // --hide-pool, --log-plots, --split-plot: once there are pools
    options_applied_ = true;
    for (std::size_t p = 0; p < f.metrics.pools().size(); ++p)
      for (const std::string& name : options_.hide_pools)
        if (f.metrics.pools()[p].info().name == name) ui_.pools_hidden.insert(p);
    if (options_.log_plots) ui_.plot_log.fill(true);
    for (Counter c : kCounters)
      for (const std::string& name : options_.split_plots)
        if (counter_name(c) == name) ui_.plot_split[static_cast<std::size_t>(c)] = true;
  }
  // The phases, from the scenario as written (a sweep's, a replay's file, the live document).
  ui_.phases = sweep_ ? sweep_phases_ : phase_bands(live_ ? live_->document() : replay_->file().scenario);
  Context cx{ui_, f, live_.get(), replay_.get(), later_, runs_ ? &*runs_ : nullptr};
  findings_.update(cx);
  shortcuts(cx);
  const ImGuiViewport* vp = ImGui::GetMainViewport();
  ImGui::SetNextWindowPos(vp->WorkPos);
  ImGui::SetNextWindowSize(vp->WorkSize);
  ImGui::PushStyleVar(ImGuiStyleVar_WindowPadding, {ui_.px(8), ui_.px(6)});
  ImGui::Begin("poolscope", nullptr,
               ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_MenuBar | ImGuiWindowFlags_NoBringToFrontOnFocus |
                   ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoScrollWithMouse);
  ImGui::PopStyleVar();
  menu_bar(cx);
  if (sweep_) {  // a sweep takes the place of the toolbar and the timeline until it is closed
    if (!sweep_view_.draw(*sweep_, ui_)) later_.push_back([this] { sweep_.reset(); });
    ImGui::End();
    overlays(cx);
    if (auto chosen = dialog_.draw(ui_.scale)) later_.push_back([this, file = *chosen] { open(file); });
    return;
  }
  toolbar(cx);

  // The side panel | a splitter | the timeline.
  const float height = ImGui::GetContentRegionAvail().y;
  // Presentation mode lays out for the screen it has: the timeline first.
  // The side panel takes at most 30% of the width, and none where that would
  // leave it too narrow for the table (a 1280-px projector; H shows it).
  const float avail_w = ImGui::GetContentRegionAvail().x;
  const bool side = ui_.side_panel && !(ui_.presentation && avail_w * 0.3f < ui_.px(330));
  if (side) {
    const float left = ui_.presentation
                           ? std::min(ui_.px(ui_.left_width), avail_w * 0.3f)
                           : std::clamp(ui_.px(ui_.left_width), ui_.px(200), avail_w * 0.6f);
    ImGui::BeginChild("side", {left, height}, true);
    // Narrow, so its text at a little over the normal size: the timeline is
    // what the room reads; the table is for the lecturer's pointer.
    if (ui_.presentation) ImGui::SetWindowFontScale(0.7f);
    if (ImGui::BeginTabBar("tabs")) {
      auto tab = [&](const char* label, Tab t, auto&& draw) {
        ImGuiTabItemFlags flags = ui_.tab_request == t ? ImGuiTabItemFlags_SetSelected : 0;
        if (ImGui::BeginTabItem(label, nullptr, flags)) {
          ui_.tab = t;
          ImGui::BeginChild("content");
          if (ui_.presentation) ImGui::SetWindowFontScale(0.7f);
          draw();
          ImGui::EndChild();
          ImGui::EndTabItem();
        }
      };
      tab("Compare", Tab::compare, [&] { compare_.draw(cx); });
      tab("Pools", Tab::pools, [&] { explain_.draw(cx); });
      tab("Scenario", Tab::scenario, [&] { scenario_.draw(cx); });
      tab(("Findings (" + std::to_string(ui_.findings.size()) + ")###findings").c_str(), Tab::findings,
          [&] { findings_.draw(cx); });
      ui_.tab_request.reset();
      ImGui::EndTabBar();
    }
    ImGui::EndChild();
    ImGui::SameLine(0, 0);
    ImGui::InvisibleButton("splitter", {ui_.px(6), height});
    if (ImGui::IsItemHovered() || ImGui::IsItemActive()) ImGui::SetMouseCursor(ImGuiMouseCursor_ResizeEW);
    if (ImGui::IsItemActive()) ui_.left_width += ImGui::GetIO().MouseDelta.x / ui_.scale;
    ImGui::SameLine(0, 0);
  }
  ImGui::BeginChild("timeline", {0, height}, false, ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoScrollWithMouse);
  timeline_.draw(cx);
  ImGui::EndChild();
  ImGui::End();
  range_.draw(cx);
  if (runs_) {
    bool open = true;
    runs_view_.draw(cx, *runs_, open);
    if (!open) runs_.reset();
  }
  overlays(cx);
  ui_.hovered_worker = ui_.hovering_worker;  // what this frame's views found under the mouse, for the next
  ui_.hovering_worker.reset();
  if (auto chosen = dialog_.draw(ui_.scale))
    later_.push_back([this, file = *chosen, b = dialog_compares_] { b ? compare_with(file) : void(open(file)); });
}

bool App::tick() {
  if (window_.should_close()) return false;
  frame();
  return headless_step();
}

}  // namespace poolscope::gui
