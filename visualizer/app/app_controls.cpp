// The controls: the menu bar, the toolbar (the mode badge; start, pause,
// stop, restart, the time scale, real or simulated (app_mode.cpp); or the
// replay's play, step and scrub), the keyboard shortcuts and the overlays
// (the ? table, frame times).
#include <GLFW/glfw3.h>

#include <cmath>
#include <cstdio>

#include "pools/core/platform.h"
#include "scenarios/engine/library.h"
#include "visualizer/app/app.h"
#include "visualizer/app/draw.h"
#include "visualizer/app/shortcuts.h"
#include "visualizer/model/describe.h"

namespace poolscope::gui {

namespace {

// Space: start a run, or pause and resume it.
void toggle_run(LiveSession& live, const std::function<void()>& start) {
  switch (live.state()) {
    case LiveSession::State::ready:
    case LiveSession::State::finished:
      start();
      break;
    case LiveSession::State::running:
      live.pause();
      break;
    case LiveSession::State::paused:
      live.resume();
      break;
  }
}

// What a key does on the sweep view: the window's keys, not the run's.
bool applies_to_a_sweep(Action a) {
  switch (a) {
    case Action::open:
    case Action::screenshot:
    case Action::presentation:
    case Action::palette:
    case Action::frame_times:
    case Action::ui_bigger:
    case Action::ui_smaller:
    case Action::help:
      return true;
    default:
      return false;
  }
}

}  // namespace

void App::shortcuts(Context& cx) {
  ImGuiIO& io = ImGui::GetIO();
  if (io.WantTextInput || !ui_.open_error.empty()) return;  // (the could-not-open dialog takes the keys)
  for (ImWchar c : io.InputQueueCharacters)
    if (c == '?') ui_.show_help = !ui_.show_help;
  if (ui_.show_help && ImGui::IsKeyPressed(GLFW_KEY_ESCAPE)) ui_.show_help = false;
  for (int i = 0; i < kShortcutCount; ++i) {
    const Shortcut& s = kShortcuts[i];
    if (s.key == GLFW_KEY_UNKNOWN || s.ctrl != io.KeyCtrl || !ImGui::IsKeyPressed(s.key, repeats(s.action))) continue;
    if (sweep_ && !applies_to_a_sweep(s.action)) continue;  // the run behind the sweep is not on screen
    // At a decision the number keys pick a thread (view_scheduler.cpp), not a tab.
    const bool tab_key = s.action == Action::tab_compare || s.action == Action::tab_pools || s.action == Action::tab_scenario;
    if (tab_key && scheduler_.takes_number_keys(cx)) continue;
    const plot::TimeMap map = ui_.map();
    const double centre = (map.t0 + map.t1) / 2;
    switch (s.action) {
      case Action::start_pause:
        if (live_)
          toggle_run(*live_, [this] { later_.push_back([this] { start_run(); }); });
        else
          replay_->set_playing(!replay_->playing());
        break;
      case Action::restart:
        if (live_)
          later_.push_back([this] { start_run(); });
        else
          replay_->seek(0);
        break;
      case Action::stop:
        if (live_) live_->stop();
        break;
      case Action::step_sim:
        if (live_) live_->step();
        break;
      case Action::step_back:
      case Action::step_forward: {
        const int dir = s.action == Action::step_forward ? 1 : -1;
        if (replay_)
          replay_->step(dir);
        else
          ui_.axis.pan(dir * ui_.axis.span() / 10);
        break;
      }
      case Action::zoom_in:
        ui_.axis.zoom(0.7, cx.frame.replay ? static_cast<double>(cx.frame.now) : centre);
        break;
      case Action::zoom_out:
        ui_.axis.zoom(1 / 0.7, cx.frame.replay ? static_cast<double>(cx.frame.now) : centre);
        break;
      case Action::fit:
        fit_all(cx);
        break;
      case Action::follow:
        ui_.axis.set_follow(!ui_.axis.following());
        break;
      case Action::presentation:
        ui_.presentation = !ui_.presentation;
        break;
      case Action::palette:
        ui_.palette_kind = ui_.palette_kind == plot::PaletteKind::standard ? plot::PaletteKind::colour_blind_safe
                                                                           : plot::PaletteKind::standard;
        break;
      case Action::frame_times:
        ui_.show_frame_times = !ui_.show_frame_times;
        break;
      case Action::lanes_alive:
        ui_.lanes_alive_only = !ui_.lanes_alive_only;
        break;
      case Action::lanes_order:
        ui_.lanes_by_exit = !ui_.lanes_by_exit;
        break;
      case Action::flows_in_view:
        ui_.flows_in_view = !ui_.flows_in_view;
        break;
      case Action::lanes_shorter:
        ui_.lane_height = std::max(2.0f, ui_.lane_height - 2);
        break;
      case Action::lanes_taller:
        ui_.lane_height = std::min(40.0f, ui_.lane_height + 2);
        break;
      case Action::open:
        dialog_compares_ = false;
        dialog_.open(scenario::library_dir());
        break;
      case Action::screenshot:
        screenshot_ = output_file(".png");
        break;
      case Action::export_trace:
        later_.push_back([this] { export_trace(); });
        break;
      case Action::share:
        later_.push_back([this] { share(); });
        break;
      case Action::save_result:
        later_.push_back([this] { save_result(output_file(".result.json")); });
        break;
      case Action::tab_compare:
        ui_.tab_request = Tab::compare;
        break;
      case Action::tab_pools:
        ui_.tab_request = Tab::pools;
        break;
      case Action::tab_scenario:
        ui_.tab_request = Tab::scenario;
        break;
      case Action::side_panel:
        ui_.side_panel = !ui_.side_panel;
        break;
      case Action::ui_bigger:
        zoom_ = std::min(3.0f, zoom_ * 1.15f);
        break;
      case Action::ui_smaller:
        zoom_ = std::max(0.5f, zoom_ / 1.15f);
        break;
      case Action::lesson_back:
      case Action::lesson_next:
        break;  // the Lesson panel's, even while its answer is being typed (view_lesson.cpp)
      case Action::lesson_save:
        if (lesson_) later_.push_back([this] { save_answers(answers_file()); });
        break;
      case Action::help:
      case Action::sched_pick:  // (the panel reads the number keys)
        break;
      case Action::sched_undo:
        SchedulerView::undo(cx);
        break;
      case Action::sched_policy:
        scheduler_.policy(cx);
        break;
      case Action::sched_matters:
        SchedulerView::to_next_that_matters(cx);
        break;
      case Action::sched_run_on:
        SchedulerView::run_on(cx);
        break;
    }
  }
}

void App::menu_bar(Context& cx) {
  if (!ImGui::BeginMenuBar()) return;
  if (ImGui::BeginMenu("File")) {
    if (ImGui::MenuItem("Open a scenario, result or sweep...", "Ctrl+O")) {
      dialog_compares_ = false;
      dialog_.open(scenario::library_dir());
    }
    if (ImGui::MenuItem("Compare with another result...", nullptr, false, replay_ != nullptr && !sweep_)) {
      dialog_compares_ = true;  // run B: its summaries against the replayed run's
      dialog_.open(std::filesystem::current_path());
    }
    if (sweep_ && ImGui::MenuItem("Close the sweep")) later_.push_back([this] { sweep_.reset(); });
    if (ImGui::BeginMenu("Shipped scenarios")) {
      auto library = scenario::list_library();
      if (library.empty()) ImGui::TextDisabled("none in %s", scenario::library_dir().string().c_str());
      for (const auto& entry : library) {
        if (ImGui::MenuItem(entry.name.c_str())) later_.push_back([this, f = entry.file] { open(f); });
        if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", entry.lesson.c_str());
      }
      ImGui::EndMenu();
    }
    ImGui::Separator();
    if (ImGui::MenuItem("Save a screenshot (PNG)", "F12")) screenshot_ = output_file(".png");
    if (ImGui::MenuItem("Export the trace (Chrome / Perfetto JSON)", "Ctrl+E"))
      later_.push_back([this] { export_trace(); });
    const bool finished = live_ && live_->state() == LiveSession::State::finished;
    if (ImGui::MenuItem("Save the result (JSON, with events, for replay)", "Ctrl+S", false, finished))
      later_.push_back([this] { save_result(output_file(".result.json")); });
    if (ImGui::MenuItem(platform::has_threads() ? "Copy the command that shows this run" : "Copy a link to this run",
                        "Ctrl+L", false, !sweep_))
      later_.push_back([this] { share(); });
    if (platform::has_threads()) {  // (a page is closed by its browser tab)
      ImGui::Separator();
      if (ImGui::MenuItem("Quit")) window_.request_close();
    }
    ImGui::EndMenu();
  }
  challenges_menu();  // (app_challenge.cpp)
  if (ImGui::BeginMenu("View")) {
    ImGui::MenuItem("Presentation mode (large fonts)", "P", &ui_.presentation);
    bool cb = ui_.palette_kind == plot::PaletteKind::colour_blind_safe;
    if (ImGui::MenuItem("Colour-blind-safe palette", "C", &cb))
      ui_.palette_kind = cb ? plot::PaletteKind::colour_blind_safe : plot::PaletteKind::standard;
    ImGui::MenuItem("Frame times", "T", &ui_.show_frame_times);
    ImGui::MenuItem("Side panel", "H", &ui_.side_panel);
    ImGui::Separator();
    if (ImGui::MenuItem("Show the whole run", "Home")) fit_all(cx);
    bool follow = ui_.axis.following();
    if (ImGui::MenuItem("Follow the newest data", "F", &follow)) ui_.axis.set_follow(follow);
    ImGui::Separator();
    for (Counter c : kCounters)
      ImGui::MenuItem(("Plot: " + std::string(counter_name(c))).c_str(), nullptr,
                      &ui_.plots_shown[static_cast<std::size_t>(c)]);
    ImGui::MenuItem("Lanes: only workers alive in view", "L", &ui_.lanes_alive_only);
    ImGui::MenuItem("Lanes: sorted by exit (else by spawn)", "O", &ui_.lanes_by_exit);
    ImGui::MenuItem("Lanes: every task's flow in view (else hovered, clicked)", "W", &ui_.flows_in_view);
    ImGui::SetNextItemWidth(ui_.px(120));
    ImGui::SliderFloat("lane height", &ui_.lane_height, 2, 40, "%.0f px");
    ImGui::SetNextItemWidth(ui_.px(120));
    ImGui::SliderFloat("UI scale", &zoom_, 0.5f, 3.0f, "%.2fx");
    ImGui::EndMenu();
  }
  lesson_menu();  // (app_lesson.cpp)
  if (ImGui::BeginMenu("Help")) {
    ImGui::MenuItem("Keyboard shortcuts", "?", &ui_.show_help);
    ImGui::TextDisabled("docs/visualizer.md: a tour of the views");
    ImGui::EndMenu();
  }
  // The status line, on the right of the menu bar, fading after a while.
  const double age = ImGui::GetTime() - ui_.status_time;
  if (!ui_.status.empty() && age < 8) {
    const float alpha = static_cast<float>(std::min(1.0, (8 - age) / 2));
    // Right-aligned; where it is wider than the room right of the menus (a
    // long path in a 1024-px window), its end, with the file's name: whole on hover.
    ImGui::SameLine();
    const float room = ImGui::GetContentRegionAvail().x - ui_.px(16);
    const float width = std::min(room, ImGui::CalcTextSize(ui_.status.c_str()).x);
    ImGui::SameLine(ImGui::GetWindowWidth() - width - ui_.px(16));
    ImGui::PushStyleColor(ImGuiCol_Text,
                          ui_.status_error ? ImVec4(1, 0.45f, 0.45f, alpha) : ImVec4(0.6f, 0.9f, 0.6f, alpha));
    if (elided_text_left(ui_.status, width) && ImGui::IsItemHovered()) ImGui::SetTooltip("%s", ui_.status.c_str());
    ImGui::PopStyleColor();
  }
  ImGui::EndMenuBar();
}

// The toolbar, one group: where its rightmost widget ends is what a window
// too narrow for it would cut (the smoke test checks it is inside).
void App::toolbar(Context& cx) {
  ImGui::BeginGroup();
  toolbar_items(cx);
  ImGui::EndGroup();
  ui_.toolbar_x1 = ImGui::GetItemRectMax().x;
}

void App::toolbar_items(Context& cx) {
  ImGui::AlignTextToFramePadding();
  if (live_) {
    const LiveSession::State state = live_->state();
    const bool under_way = state == LiveSession::State::running || state == LiveSession::State::paused;
    // Each widget where the line holds it, else on the next (a 1024-px window).
    mode_badge(live_->mode());
    const std::string name = live_->document().value("name", "");
    same_line_or_wrap(ImGui::CalcTextSize(name.c_str()).x);
    ImGui::TextUnformatted(name.c_str());
    same_line_or_wrap(ui_.px(108));  // the mode's combo, then its Machine... button
    mode_controls(*live_);
    ImGui::BeginDisabled(!live_->scenario());
    const char* start = state == LiveSession::State::ready      ? "Start"
                        : state == LiveSession::State::finished ? "Run again"
                                                                : "Restart";
    same_line_or_wrap(button_width(start));
    if (ImGui::Button(start)) later_.push_back([this] { start_run(); });
    ImGui::EndDisabled();
    ImGui::BeginDisabled(state != LiveSession::State::running && state != LiveSession::State::paused);
    const char* pause = state == LiveSession::State::paused ? "Resume" : "Pause";
    same_line_or_wrap(button_width(pause));
    if (ImGui::Button(pause)) toggle_run(*live_, [] {});
    same_line_or_wrap(button_width("Stop"));
    if (ImGui::Button("Stop")) live_->stop();
    ImGui::EndDisabled();
    // The speed of the run under way, or of the next one: each mode its own range.
    const bool simulated = under_way ? live_->run()->simulated() : live_->simulated();
    if (simulated) {
      same_line_or_wrap(button_width("Step"));
      step_button(*live_);
      same_line_or_wrap(button_width("Be the scheduler"));
      scheduler_button();  // (app_challenge.cpp)
    }
    double scale = live_->time_scale();
    const char* speed = simulated ? "speed" : "time scale";
    same_line_or_wrap(labelled_width(ui_.px(130), speed));
    if (speed_slider(speed, scale, ui_.px(130), simulated ? kSimSpeedMin : kRealScaleMin,
                     simulated ? kSimSpeedMax : kRealScaleMax))
      live_->set_time_scale(scale);
    if (ImGui::IsItemHovered())
      ImGui::SetTooltip(simulated ? "virtual seconds per wall second, changeable while it runs: the simulation's events "
                                    "are the same at any speed"
                                  : "scenario seconds per wall second: at 10x, a 10 s idle timeout passes in 1 s");
    same_line_or_wrap(ui_.px(260));
    const double duration = live_->scenario() ? static_cast<double>(live_->scenario()->duration().count()) : 0;
    char progress[96];
    std::snprintf(progress, sizeof progress, "%s  %s / %s",
                  state == LiveSession::State::ready      ? "ready"
                  : live_->decision()                     ? "your pick"
                  : state == LiveSession::State::paused   ? "paused"
                  : state == LiveSession::State::finished ? "finished"
                                                          : "running",
                  plot::format_time(static_cast<double>(cx.frame.now)).c_str(), plot::format_time(duration).c_str());
    ImGui::ProgressBar(static_cast<float>(live_->progress()), {ui_.px(260), 0}, progress);
    if (!live_->scenario()) {
      const char* invalid = "the scenario is not valid (see the Scenario tab)";
      same_line_or_wrap(ImGui::CalcTextSize(invalid).x);
      ImGui::TextColored({1, 0.45f, 0.45f, 1}, "%s", invalid);
    }
    // The GUI shares the machine with the pools it shows: on a small one its
    // drawing delays their threads, and the latencies measured live grow
    // (gammazero's queue wait p50 24 ms live against 0.25 ms headless on 2
    // cores). Say so while it runs, with the measured share.
    // Not for a simulation: its figures are the model's, whatever the GUI costs the machine.
    if (under_way && !live_->run()->simulated() && ui_.render_distorts) {
      char warning[64];
      std::snprintf(warning, sizeof warning, "! drawing takes %.0f%% of a core of %u", 100 * ui_.render_load,
                    ui_.cores);
      same_line_or_wrap(ImGui::CalcTextSize(warning).x);
      ImGui::TextColored({1, 0.75f, 0.3f, 1}, "%s", warning);
      if (ImGui::IsItemHovered())
        ImGui::SetTooltip(
            "This window competes with the pools for the CPU (%u cores; the GUI thread used %.0f%% of one over "
            "the last second%s; rendering is paced to 30 frames a second during a run). Latencies and lateness "
            "measured live are inflated by it. For the true numbers, run it headless and replay the result:\n"
            "  poolscope run SCENARIO --events --out r.json && poolscope-gui r.json",
            ui_.cores, 100 * ui_.render_load,
            window_.software_renderer() ? ", and OpenGL is drawn on the CPU too (llvmpipe)" : "");
    }
    return;
  }

  // A replay: play, step, scrub.
  Replay& r = *replay_;
  mode_badge(RunMode::of_result(r.file().run));
  const std::string title = "replay: " + r.file().scenario.value("name", "");
  same_line_or_wrap(ImGui::CalcTextSize(title.c_str()).x);
  ImGui::TextUnformatted(title.c_str());
  // The five buttons wrap together.
  float buttons = 4 * ImGui::GetStyle().ItemSpacing.x;
  for (const char* b : {"|<", "<", r.playing() ? "Pause" : "Play", ">", ">|"}) buttons += button_width(b);
  same_line_or_wrap(buttons);
  if (ImGui::Button("|<")) r.seek(0);
  ImGui::SameLine();
  if (ImGui::Button("<")) r.step(-1);
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("one event back (Left)");
  ImGui::SameLine();
  if (ImGui::Button(r.playing() ? "Pause" : "Play")) r.set_playing(!r.playing());
  ImGui::SameLine();
  if (ImGui::Button(">")) r.step(1);
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("one event forward (Right)");
  ImGui::SameLine();
  if (ImGui::Button(">|")) r.seek(r.end_time());
  same_line_or_wrap(labelled_width(ui_.px(110), "speed"));
  speed_slider("speed", ui_.replay_speed, ui_.px(110), 0.01, 100);
  same_line_or_wrap(ui_.px(220));
  // The scrubber: the whole run.
  float t = static_cast<float>(static_cast<double>(r.time()) / 1e9);
  ImGui::SetNextItemWidth(ui_.px(220));
  if (ImGui::SliderFloat("##at", &t, 0, static_cast<float>(static_cast<double>(r.end_time()) / 1e9), "%.3f s"))
    r.seek(static_cast<std::int64_t>(static_cast<double>(t) * 1e9));
  ui_.scrubbing = ui_.scrubbing || ImGui::IsItemActive();
  // The position, on a line of its own when the rest of this one is too
  // short for it (presentation mode at 1280 px, with the mode badge).
  char position[64];
  std::snprintf(position, sizeof position, "event %zu / %zu", r.position(), r.size());
  same_line_or_wrap(ImGui::CalcTextSize(position).x);
  ImGui::TextUnformatted(position);
  if (const Event* e = r.current()) {
    // The event under the cursor, in what room is left on the line (on a line
    // of its own when little is: presentation mode), cut to fit; hover shows
    // it whole with its rule.
    same_line_or_wrap(ui_.px(260));
    const std::string& pool = r.file().pools[e->pool].info.name;
    swatch(ui_.pool_colour(e->pool));
    const std::string text = at_time(e->time) + " " + pool + ": " + describe(*e);
    const bool cut = elided_text(text, ImGui::GetContentRegionAvail().x);
    if ((cut || e->rule != kNoLabel) && ImGui::IsItemHovered()) {
      ImGui::BeginTooltip();
      if (cut) wrapped(text, ui_.px(460));
      if (e->rule != kNoLabel) dim(describe_rule(e->rule), ui_.px(460));
      ImGui::EndTooltip();
    }
  }
  failure_banner();  // a failing schedule from `poolscope explore`: what, when, how to replay it
}

void App::overlays(Context& cx) {
  const ImGuiViewport* vp = ImGui::GetMainViewport();
  open_error_dialog();
  if (ui_.show_frame_times) {
    FrameStats s = times_.stats();
    ImGui::SetNextWindowPos({vp->WorkPos.x + vp->WorkSize.x - ui_.px(24), vp->WorkPos.y + vp->WorkSize.y - ui_.px(10)},
                            0, {1, 1});
    ImGui::SetNextWindowBgAlpha(0.8f);
    ImGui::Begin("frame times", nullptr,
                 ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_AlwaysAutoResize | ImGuiWindowFlags_NoInputs |
                     ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoFocusOnAppearing);
    ImGui::Text("CPU %.2f ms a frame (median %.2f, p99 %.2f over %zu)", times_.last(), s.median, s.p99, s.frames);
    ImGui::TextDisabled("the GUI thread, up to OpenGL having the draw data");
    ImGui::Text("%llu events, %zu pools", static_cast<unsigned long long>(cx.frame.metrics.event_count()),
                cx.frame.metrics.pools().size());
    // The frame rate on screen also counts drawing the pixels, which a GPU
    // does in parallel but software OpenGL (Xvfb, CI) does on the same CPUs.
    static const bool software = window_.software_renderer();
    ImGui::TextDisabled("%.0f frames a second on screen%s", ImGui::GetIO().Framerate,
                        software ? ": OpenGL in software here (llvmpipe), the CPU draws the pixels" : "");
    ImGui::End();
  }
  if (ui_.show_help) {
    ImGui::SetNextWindowPos({vp->WorkPos.x + vp->WorkSize.x / 2, vp->WorkPos.y + vp->WorkSize.y / 2}, 0, {0.5f, 0.5f});
    ImGui::SetNextWindowBgAlpha(0.94f);
    ImGui::Begin("Keyboard shortcuts", &ui_.show_help,
                 ImGuiWindowFlags_AlwaysAutoResize | ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoCollapse);
    // One column of keys where the window is tall enough, two side by side
    // where it is not (a projector at 1280x720 in presentation mode), so
    // the overlay never runs off the screen.
    const float row = ImGui::GetTextLineHeightWithSpacing();
    const int halves = row * (kShortcutCount + 5) > vp->WorkSize.y * 0.9f ? 2 : 1;
    const int per = (kShortcutCount + halves - 1) / halves;
    // Two columns are wider than a 1280-px screen in presentation mode, and
    // than a 1024-px one at normal size (issue 39): the text then scaled
    // down to the width the window has (the widest keys and descriptions of
    // each column, their cells' padding, the window's), measured unscaled
    // (a window keeps its scale from frame to frame).
    ImGui::SetWindowFontScale(1);
    float natural = 2 * ImGui::GetStyle().WindowPadding.x;
    for (int h = 0; h < halves; ++h) {
      float keys = 0, what = 0;
      for (int k = h * per; k < std::min(kShortcutCount, (h + 1) * per); ++k) {
        keys = std::max(keys, ImGui::CalcTextSize(kShortcuts[k].keys).x);
        what = std::max(what, ImGui::CalcTextSize(kShortcuts[k].what).x);
      }
      natural += keys + what + 4 * ImGui::GetStyle().CellPadding.x;
    }
    if (natural > vp->WorkSize.x * 0.97f) ImGui::SetWindowFontScale(vp->WorkSize.x * 0.97f / natural);
    if (ImGui::BeginTable("keys", 2 * halves, ImGuiTableFlags_RowBg)) {
      for (int i = 0; i < per; ++i) {
        ImGui::TableNextRow();
        for (int h = 0; h < halves; ++h) {
          const int k = h * per + i;
          if (k >= kShortcutCount) break;
          ImGui::TableSetColumnIndex(2 * h);
          ImGui::TextColored({0.95f, 0.8f, 0.4f, 1}, "%s", kShortcuts[k].keys);
          ImGui::TableSetColumnIndex(2 * h + 1);
          ImGui::TextUnformatted(kShortcuts[k].what);
        }
      }
      ImGui::EndTable();
    }
    ImGui::Separator();
    ImGui::TextUnformatted("Mouse: wheel zooms, drag pans, Shift+drag selects a range, double-click shows everything;");
    ImGui::TextUnformatted("on the lanes the wheel scrolls and Ctrl+wheel zooms; hover anything for why.");
    ImGui::TextUnformatted("Replay: click or drag the ruler to move the cursor. Drop a file on the window to open it.");
    ImGui::End();
  }
}

// A file that could not be opened, or compared: the runner's message for it
// (file, JSON path, what was expected), in a modal dialog over what is still
// shown. One popup id, whatever its title says.
void App::open_error_dialog() {
  if (ui_.open_error.empty()) return;
  const std::string title = std::string(ui_.open_error_title) + "###could-not";
  if (!ImGui::IsPopupOpen(title.c_str())) ImGui::OpenPopup(title.c_str());
  const ImGuiViewport* vp = ImGui::GetMainViewport();
  const float width = std::min(ui_.px(640), vp->WorkSize.x * 0.9f);
  ImGui::SetNextWindowPos({vp->WorkPos.x + vp->WorkSize.x / 2, vp->WorkPos.y + vp->WorkSize.y / 2},
                          ImGuiCond_Always, {0.5f, 0.5f});
  ImGui::SetNextWindowSizeConstraints({width, 0}, {width, vp->WorkSize.y * 0.8f});
  constexpr ImGuiWindowFlags flags = ImGuiWindowFlags_AlwaysAutoResize | ImGuiWindowFlags_NoSavedSettings;
  if (!ImGui::BeginPopupModal(title.c_str(), nullptr, flags)) return;
  ImGui::PushTextWrapPos(0);
  ImGui::TextUnformatted(ui_.open_error.c_str());
  ImGui::Spacing();
  const std::string still = sweep_   ? "Still shown: the sweep " + sweep_->file
                            : live_  ? "Still shown: the scenario " + live_->file()
                            : replay_ ? "Still shown: the replay of " + replay_->file().file
                                      : std::string();
  ImGui::TextDisabled("%s", still.c_str());
  ImGui::PopTextWrapPos();
  ImGui::Spacing();
  if (ImGui::Button("OK", {ui_.px(90), 0}) || ImGui::IsKeyPressed(GLFW_KEY_ENTER) ||
      ImGui::IsKeyPressed(GLFW_KEY_ESCAPE)) {
    ui_.open_error.clear();
    ImGui::CloseCurrentPopup();
  }
  ImGui::EndPopup();
}

}  // namespace poolscope::gui
