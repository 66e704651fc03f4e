// poolscope-gui's App: the window and the frame (app.h). Index of its files:
//   app.cpp               App::App, frame (a replay or a live run advanced, the
//                         frame built, rendered, timed), build (the layout: the
//                         menu, the toolbar, the side panel's tabs, the
//                         timeline), tick
//   app_command_line.cpp  the command line applied: the view, the file, the flags refused
//   app_session.cpp       what is on screen: open a file, a scenario, a replay, a
//                         sweep; compare with run B; start a run; dropped events said
//   app_export.cpp        the trace, the result, a link
//   app_controls.cpp      the menu bar, the toolbar, the shortcuts, the overlays
//   app_mode.cpp          real or simulated: the badge, the machine, step, speed
//   app_headless.cpp      the headless modes: settle, benchmark, screenshot, exit
//   app_challenge.cpp     being the scheduler: the Challenges menu, a challenge
//                         opened, its goal checked, the win shown and kept
#include "visualizer/app/app.h"
#include "visualizer/app/announce.h"
#include "visualizer/app/hand_over.h"
#include "visualizer/app/main_loop.h"

#include <imgui.h>

#include <chrono>
#include <cstdio>

#include "pools/core/platform.h"

namespace poolscope::gui {

namespace {

using Clock = std::chrono::steady_clock;

// Events added to the metrics as of a replay's cursor in one frame, after a
// jump back (a rebuild from a snapshot) or far ahead: about 1.5 ms on this
// project's loaded machine, as is copying one pool of a snapshot, which
// takes a frame of its own. 25,000 took 3 to 4 ms, over a 16 ms frame.
constexpr std::size_t kRebuildEventsPerFrame = 10'000;

using platform::thread_cpu_ms;

}  // namespace

App::App(const Options& options)
    : options_(options),
      window_("poolscope", options.width, options.height, !options.headless()),
      base_scale_(options.ui_scale > 0 ? options.ui_scale : window_.content_scale()) {
  apply_command_line();
  started_ = Clock::now();
  load_since_ = started_;
}

App::~App() = default;

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
  check_challenge();  // a challenge's goal, after this frame's decisions
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
  lesson_update(f);  // a lesson's reveal, once the run has its answer
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
  // A lesson keeps the side panel, its text readable on a projector: there
  // it takes up to 40% of the width, at a font size a room reads.
  const bool side = lesson_ || (ui_.side_panel && !(ui_.presentation && avail_w * 0.3f < ui_.px(330)));
  if (side) {
    const float left = lesson_ && ui_.presentation ? avail_w * 0.4f
                       : ui_.presentation          ? std::min(ui_.px(ui_.left_width), avail_w * 0.3f)
                                                   : std::clamp(ui_.px(ui_.left_width), ui_.px(200), avail_w * 0.6f);
    ImGui::BeginChild("side", {left, height}, true);
    if (lesson_) {  // the lesson on top, the tabs below it
      if (ui_.presentation) ImGui::SetWindowFontScale(0.8f);
      lesson_panel(cx, ui_.presentation ? ImGui::GetContentRegionAvail().y
                                        : std::round(ImGui::GetContentRegionAvail().y * 0.62f));
      if (ui_.presentation) ImGui::SetWindowFontScale(0.7f);
    }
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
  scheduler_.draw(cx, challenge_ ? &*challenge_ : nullptr, [this] { share(); });
  win_window();
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
