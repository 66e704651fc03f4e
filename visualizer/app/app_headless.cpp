// The headless modes, for docs and tests: run (or replay) to a moment, let
// the picture settle, benchmark frames, take the screenshot, save the result,
// exit.
#include <imgui.h>

#include <array>
#include <cfloat>
#include <chrono>
#include <cstdio>

#include "visualizer/app/app.h"

namespace poolscope::gui {

void App::headless_input() {
  ImGuiIO& io = ImGui::GetIO();
  if (benched_ >= 0) {
    // The benchmark looks at the whole run, a tenth of it and a hundredth, panning
    // across, and sweeps the mouse over the plots and the lanes, so hovering is measured too.
    const double f = static_cast<double>(benched_ % 97) / 96.0;
    const double span = bench_view_.second - bench_view_.first;
    const double width = span / std::array{1.0, 10.0, 100.0}[static_cast<std::size_t>(benched_ % 3)];
    const double begin = bench_view_.first + (span - width) * f;
    ui_.axis.set_view(begin, begin + width);
    io.MousePos = {ui_.time_x0 + static_cast<float>(f) * (ui_.time_x1 - ui_.time_x0),
                   io.DisplaySize.y * (benched_ % 2 ? 0.3f : 0.8f)};
  } else if (options_.hover) {
    io.MousePos = {options_.hover->first * ui_.scale, options_.hover->second * ui_.scale};
  } else if (options_.headless()) {
    io.MousePos = {-FLT_MAX, -FLT_MAX};  // wherever the pointer is, a screenshot shows no hover
  }
}

bool App::headless_step() {
  if (!options_.headless()) return true;
  if (std::chrono::duration<double>(std::chrono::steady_clock::now() - started_).count() > options_.timeout_s) {
    std::fprintf(stderr, "poolscope-gui: gave up after %.0f s of wall time\n", options_.timeout_s);
    exit_code_ = 1;
    return false;
  }
  switch (phase_) {
    case Phase::waiting: {
      // Until the run has gone on long enough (or ended); a replay is ready at once.
      bool ready = true;
      if (live_) {
        // Headless runs start once the window has drawn its first frame (fonts, shaders).
        if (!live_->run()) start_run();
        scenario::Run* run = live_->run();
        ready = run && (run->finished() || (options_.run_for && run->now().count() >= *options_.run_for));
        if (ready && !run->finished()) live_->pause();  // hold the picture still
      }
      if (ready) {
        phase_ = Phase::settling;
        settle_ = 3;  // frames for the layout and the last events to reach the screen
      }
      return true;
    }
    case Phase::settling:
      if (--settle_ > 0) return true;
      phase_ = Phase::benchmarking;
      benched_ = options_.bench_frames > 0 ? 0 : -1;
      bench_view_ = {ui_.axis.begin(), ui_.axis.end()};
      return true;
    case Phase::benchmarking:
      if (benched_ >= 0 && ++benched_ < options_.bench_frames) return true;
      if (benched_ >= 0) {
        FrameStats s = frame_stats(bench_cpu_), b = frame_stats(bench_build_), w = frame_stats(bench_wall_);
        std::size_t workers = 0, events = 0;
        auto count = [&](const metrics::RunMetrics& m) {
          for (const auto& p : m.pools()) workers += p.lanes().size();
          events = m.event_count();
        };
        if (live_ && live_->run())
          live_->run()->with_metrics(count);
        else if (replay_)
          count(replay_->metrics());
        std::printf(
            "poolscope-gui: %zu frames of %zu pools, %zu workers, %zu events at %.0fx%.0f px\n"
            "  CPU frame time (the GUI thread's CPU time): median %.2f ms, p99 %.2f ms, max %.2f ms\n"
            "    of which building the frame (views + ImGui): median %.2f ms, p99 %.2f ms\n"
            "    and handing its %zu vertices to OpenGL: the rest\n"
            "  wall time (the same span, with whatever else the machine ran): median %.2f ms, p99 %.2f ms\n",
            s.frames, live_ ? live_->document()["pools"].size() : replay_->file().pools.size(), workers, events,
            ImGui::GetIO().DisplaySize.x, ImGui::GetIO().DisplaySize.y, s.median, s.p99, s.max, b.median, b.p99,
            bench_vertices_ / std::max<std::size_t>(1, s.frames), w.median, w.p99);
        benched_ = -1;
        ui_.axis.set_view(bench_view_.first, bench_view_.second);
      }
      phase_ = Phase::shooting;
      if (!options_.screenshot.empty()) {
        screenshot_ = options_.screenshot;  // the next frame renders and writes it
        return true;
      }
      [[fallthrough]];
    case Phase::shooting:
      if (!options_.save_result.empty() && live_ && live_->run()) {
        live_->resume();
        live_->run()->wait();
        save_result(options_.save_result);
      }
      if (ui_.status_error) {
        std::fprintf(stderr, "poolscope-gui: %s\n", ui_.status.c_str());
        exit_code_ = 1;
      }
      return false;
  }
  return false;
}

}  // namespace poolscope::gui
