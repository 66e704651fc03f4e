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

int App::bench_stage_frames() const {
  switch (bench_stage_) {
    case sweep:
    case play:
      return options_.bench_frames;
    default:
      return std::max(1, options_.bench_frames / 4);  // a jump back every few frames: enough for 20 or more
  }
}

void App::headless_input() {
  ImGuiIO& io = ImGui::GetIO();
  if (benched_ >= 0) {
    const double f = static_cast<double>(benched_ % 97) / 96.0;
    const double span = bench_view_.second - bench_view_.first;
    // The mouse sweeps over the plots and the lanes, so hovering is measured too.
    io.MousePos = {ui_.time_x0 + static_cast<float>(f) * (ui_.time_x1 - ui_.time_x0),
                   io.DisplaySize.y * (benched_ % 2 ? 0.3f : 0.8f)};
    if (bench_stage_ == sweep) {
      // The whole run, a tenth of it and a hundredth, panning across.
      const double width = span / std::array{1.0, 10.0, 100.0}[static_cast<std::size_t>(benched_ % 3)];
      const double begin = bench_view_.first + (span - width) * f;
      ui_.axis.set_view(begin, begin + width);
    } else if (replay_) {
      // The whole run in view; the cursor forward through it, as playing
      // does, or back by a twentieth of it each frame (then one event back).
      ui_.axis.set_view(bench_view_.first, bench_view_.second);
      const double end = static_cast<double>(replay_->end_time());
      const double n = bench_stage_frames();
      if (bench_stage_ == play) {
        replay_->seek(static_cast<std::int64_t>(end * (benched_ + 1) / n));
      } else if (!replay_->behind() && !ui_.refresh_table) {
        // A jump back once the last one's rebuild and the table's refresh
        // (forced, as if a quarter second had passed) are done, so every
        // frame a jump costs is measured.
        if (bench_refreshed_) {
          replay_->seek(static_cast<std::int64_t>(end * (1 - (bench_jumps_++ % 20 + 1) / 21.0)));
          replay_->step(-1);
        } else {
          ui_.refresh_table = true;
        }
        bench_refreshed_ = !bench_refreshed_;
      }
    }
  } else if (phase_ == Phase::dragging && options_.drag) {
    // Press at the first point, move to the second over a few frames, release there.
    constexpr int kMoves = 8;
    const auto [from, to] = *options_.drag;
    const float k = std::min(1.0f, static_cast<float>(dragged_) / kMoves);
    io.MousePos = {(from.first + (to.first - from.first) * k) * ui_.scale,
                   (from.second + (to.second - from.second) * k) * ui_.scale};
    io.MouseDown[0] = dragged_ <= kMoves;
  } else if (options_.hover) {
    io.MousePos = {options_.hover->first * ui_.scale, options_.hover->second * ui_.scale};
  } else if (options_.headless()) {
    io.MousePos = {-FLT_MAX, -FLT_MAX};  // wherever the pointer is, a screenshot shows no hover
  }
  if (options_.headless() && phase_ != Phase::dragging) io.MouseDown[0] = false;
}

void App::print_bench() const {
  std::size_t workers = 0, events = 0;
  auto count = [&](const metrics::RunMetrics& m) {
    for (const auto& p : m.pools()) workers += p.lanes().size();
    events = m.event_count();
  };
  if (live_ && live_->run())
    live_->run()->with_metrics(count);
  else if (replay_)
    count(replay_->metrics());
  const BenchSamples& sw = bench_[sweep];
  FrameStats s = frame_stats(sw.cpu), b = frame_stats(sw.build), w = frame_stats(sw.wall);
  std::printf(
      "poolscope-gui: %zu frames of %zu pools, %zu workers, %zu events at %.0fx%.0f px\n"
      "  CPU frame time (the GUI thread's CPU time, up to OpenGL having the draw data):\n"
      "    the view swept over the run: median %.2f ms, p99 %.2f ms, max %.2f ms\n"
      "      of which building the frame (views + ImGui): median %.2f ms, p99 %.2f ms\n"
      "      and handing its %zu vertices to OpenGL: the rest\n"
      "      wall time (the same span, with whatever else the machine ran): median %.2f ms, p99 %.2f ms\n",
      s.frames, live_ ? live_->document()["pools"].size() : replay_->file().pools.size(), workers, events,
      ImGui::GetIO().DisplaySize.x, ImGui::GetIO().DisplaySize.y, s.median, s.p99, s.max, b.median, b.p99,
      sw.vertices / std::max<std::size_t>(1, s.frames), w.median, w.p99);
  if (!replay_) return;
  const FrameStats p = frame_stats(bench_[play].cpu), pb = frame_stats(bench_[play].build);
  const FrameStats k = frame_stats(bench_[back].cpu), kb = frame_stats(bench_[back].build);
  std::printf(
      "    the replay playing (the cursor through the whole run in %zu frames; the table following it):\n"
      "      median %.2f ms, p99 %.2f ms, max %.2f ms (building: median %.2f ms, p99 %.2f ms)\n"
      "    the replay going back (%zu frames: %d jumps back, each rebuilding the metrics from the nearest of\n"
      "    %zu snapshots, then the table refreshed): median %.2f ms, p99 %.2f ms, max %.2f ms\n"
      "      (building: median %.2f ms, p99 %.2f ms)\n",
      p.frames, p.median, p.p99, p.max, pb.median, pb.p99, k.frames, bench_jumps_, replay_->snapshots(), k.median,
      k.p99, k.max, kb.median, kb.p99);
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
      if (!options_.drop.empty() && !dropped_) {  // --drop, once the window has drawn a frame
        dropped_ = true;
        window_.pretend_dropped(options_.drop);
        return true;
      }
      // Until the run has gone on long enough (or ended); a replay is ready at once.
      // A lesson: until what --lesson-do asks is done, and the lesson still.
      bool ready = true;
      if (lesson_) {
        ready = lesson_headless();
        if (ready && live_->run() && !live_->run()->finished()) live_->pause();  // hold the picture still
      } else if (live_ && !sweep_) {  // (a sweep has run: the scenario behind it waits)
        // Headless runs start once the window has drawn its first frame (fonts, shaders).
        if (!live_->run()) start_run();
        scenario::Run* run = live_->run();
        ready = run && (run->finished() || (options_.run_for && run->now().count() >= *options_.run_for));
        // Stepped by decision: at the first decision the schedule leaves to the student, or at a challenge's win.
        if (live_->stepping()) ready = ready || live_->decision() || (challenge_ && challenge_->won);
        if (ready && !run->finished()) live_->pause();  // hold the picture still
      }
      if (ready) {
        phase_ = options_.drag ? Phase::dragging : Phase::settling;
        settle_ = 3;  // frames for the layout and the last events to reach the screen
        ui_.refresh_table = true;  // and the table, as of those events
      }
      return true;
    }
    case Phase::dragging:
      if (++dragged_ <= 10) return true;  // 8 moves, the release, a frame after it
      phase_ = Phase::settling;
      return true;
    case Phase::settling:
      ui_.refresh_table = true;  // events still arriving while it settles show in the picture's table too
      if (--settle_ > 0) return true;
      if (replay_ && replay_->behind()) {  // the table as of the cursor: its rebuild takes a few frames
        settle_ = 1;
        return true;
      }
      phase_ = Phase::benchmarking;
      benched_ = options_.bench_frames > 0 ? 0 : -1;
      // A replay plays and goes back first, so the sweep, the main figure, is
      // what the frame-time overlay of a screenshot after it shows.
      bench_stage_ = replay_ ? play : sweep;
      bench_view_ = {ui_.axis.begin(), ui_.axis.end()};
      return true;
    case Phase::benchmarking:
      if (benched_ >= 0 && ++benched_ < bench_stage_frames()) return true;
      if (benched_ >= 0 && bench_stage_ != sweep) {
        bench_stage_ = bench_stage_ == play ? back : sweep;
        benched_ = 0;
        if (bench_stage_ == sweep) {
          // Back where the cursor was, its metrics brought up to date here, between the measured frames.
          replay_->seek(options_.at ? *options_.at : replay_->end_time());
          replay_->sync_at_cursor();
        }
        return true;
      }
      if (benched_ >= 0) {
        print_bench();
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
      if (sweep_) {
        // What the sweep view drew and where its multiples are, in the picture's pixels (its smoke test checks them).
        const SweepView::Drawn& d = sweep_view_.drawn();
        const ImVec2 fb = ImGui::GetIO().DisplayFramebufferScale;
        std::printf("poolscope-gui: sweep %s: %s; multiples at %.0f,%.0f %.0f,%.0f px\n", sweep_->file.c_str(),
                    sweep_view_.describe(*sweep_).c_str(), d.multiples_min.x * fb.x, d.multiples_min.y * fb.y,
                    d.multiples_max.x * fb.x, d.multiples_max.y * fb.y);
      } else if (!options_.screenshot.empty()) {
        // Where the counter plots are in the picture, in its pixels (the smoke test checks there).
        const ImVec2 fb = ImGui::GetIO().DisplayFramebufferScale;
        std::printf("poolscope-gui: %s: plots at %.0f,%.0f %.0f,%.0f px\n", options_.screenshot.c_str(),
                    ui_.time_x0 * fb.x, ui_.plots_y0 * fb.y, ui_.time_x1 * fb.x, ui_.plots_y1 * fb.y);
      }
      // The toolbar's right end, and the comparison table's names as drawn
      // (lines joined by "|"): the laptop smoke test checks nothing is cut.
      if (!sweep_ && !options_.screenshot.empty()) {
        const ImVec2 fb = ImGui::GetIO().DisplayFramebufferScale;
        std::printf("poolscope-gui: the toolbar ends at %.0f px of %.0f\n", ui_.toolbar_x1 * fb.x,
                    ImGui::GetIO().DisplaySize.x * fb.x);
        if (const CompareView::Drawn& d = compare_.drawn(); !d.names.empty()) {
          std::string names;
          for (const std::string& n : d.names) names += (names.empty() ? "" : ", ") + n;
          std::printf("poolscope-gui: the table names the pools %s%s, at %.0f,%.0f %.0f,%.0f px\n", names.c_str(),
                      d.overflow ? " (a name runs past its column)" : "", d.min.x * fb.x, d.min.y * fb.y,
                      d.max.x * fb.x, d.max.y * fb.y);
        }
      }
      // Which run is on screen (the badge), and a failing schedule's moment: the smoke test checks them.
      if (!sweep_)
        std::printf("poolscope-gui: on screen: %s\n",
                    (live_ ? live_->mode() : RunMode::of_result(replay_->file().run)).badge().c_str());
      print_lesson();
      // Being the scheduler: the decision waited at, and a challenge's end (the smoke test checks them).
      if (live_ && live_->stepping()) {
        if (const auto d = live_->decision()) {
          std::string choices;
          for (std::size_t i = 0; i < d->candidates.size(); ++i)
            choices += (i ? "; " : "") + std::to_string(i + 1) + " " + d->candidates[i].name + " (thread " +
                       std::to_string(d->candidates[i].thread) + ") at " + d->candidates[i].where;
          std::printf("poolscope-gui: scheduler: decision %llu after %zu picks: %s\n",
                      static_cast<unsigned long long>(d->index + 1), live_->schedule().size(), choices.c_str());
        }
        if (const std::string e = live_->stepping_error(); !e.empty())
          std::printf("poolscope-gui: scheduler: %s\n", e.c_str());
        std::printf("poolscope-gui: scheduler: schedule %s\n", schedule_text(live_->schedule()).c_str());
      }
      if (challenge_)
        std::printf("poolscope-gui: challenge %s: %s\n", challenge_->name.c_str(),
                    challenge_->won ? ("won: " + challenge_->reached).c_str() : "not won yet");
      if (failing_)
        std::printf("poolscope-gui: schedule %d failed at %.6f s: %s\n", failing_->schedule,
                    static_cast<double>(failing_->at) / 1e9, failing_->problem.c_str());
      if (replay_ && (options_.drag || options_.at || failing_))
        std::printf("poolscope-gui: the replay cursor is at %.6f s of %.6f s, event %zu of %zu\n",
                    static_cast<double>(replay_->time()) / 1e9, static_cast<double>(replay_->end_time()) / 1e9,
                    replay_->position(), replay_->size());
      if (!options_.save_result.empty() && live_ && live_->run()) {
        live_->resume();
        live_->run()->wait();
        save_result(options_.save_result);
      }
      if (ui_.status_error) {
        std::fprintf(stderr, "poolscope-gui: %s\n", ui_.status.c_str());
        exit_code_ = 1;
      }
      if (live_ && !live_->pick_error().empty()) exit_code_ = 2;  // --sched that does not fit: bad input
      return false;
  }
  return false;
}

}  // namespace poolscope::gui
