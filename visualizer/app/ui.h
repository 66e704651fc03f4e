// The state the views share (the time axis, the palette, what is shown) and
// what one frame hands them (Context). Views read a Frame and never reach
// into a pool; what changes a session is queued in Context::later and run
// after the frame, outside the engine's metrics lock.
#pragma once

#include <imgui.h>

#include <algorithm>
#include <array>
#include <functional>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "scenarios/engine/findings.h"
#include "visualizer/model/frame.h"
#include "visualizer/model/live.h"
#include "visualizer/model/phase_bands.h"
#include "visualizer/model/replay.h"
#include "visualizer/model/run_compare.h"
#include "visualizer/plot/axis.h"
#include "visualizer/plot/palette.h"

namespace poolscope::gui {

enum class Tab { compare, pools, scenario, findings };

struct Ui {
  plot::TimeAxis axis;
  plot::PaletteKind palette_kind = plot::PaletteKind::standard;
  bool presentation = false;      // large fonts, for a projector
  bool show_help = false;         // the shortcuts overlay
  bool show_frame_times = false;  // the frame-time overlay
  bool lanes_alive_only = true;   // lanes only for workers alive somewhere in the view
  bool lanes_by_exit = false;     // worker lanes sorted by exit time (else by spawn)
  float lane_height = 12;         // px at scale 1
  Tab tab = Tab::compare;
  std::optional<Tab> tab_request;  // a tab to bring forward (keys 1 2 3)
  double replay_speed = 1;         // scenario seconds per wall second while a replay plays
  std::array<bool, kCounterCount> plots_shown{true, true, true, true, true};
  // Per plot: a log scale, split into a small plot per pool (each on its own
  // y-scale, so one big pool does not flatten the others), and the pools
  // left out (right-click a plot).
  std::array<bool, kCounterCount> plot_log{};
  std::array<bool, kCounterCount> plot_split{};
  std::array<std::set<std::size_t>, kCounterCount> plot_hidden;
  // Pools left out of every plot (click a pool's name; Ctrl+click: only it).
  std::set<std::size_t> pools_hidden;
  bool fold_empty_plots = true;  // a plot at 0 for every pool the whole run is one line
  bool overlay_b = true;         // with two runs compared: B's counters dashed over A's plots
  // A time range selected with Shift+drag on the plots (ns), its statistics
  // per pool in a window of their own; the drag's anchor while it goes on.
  std::optional<std::pair<std::int64_t, std::int64_t>> range;
  std::optional<std::int64_t> range_anchor;
  // A failing schedule's moment (ns): since when it was building, and when
  // it showed; a tint between them and a line at the failure, in every item.
  std::optional<std::pair<std::int64_t, std::int64_t>> failure;
  // The worker under the mouse (its lane, or a marker that names it), as
  // (pool, worker): its lane is outlined and its markers ringed in every
  // view. Set during a frame, shown from the next.
  std::optional<std::pair<std::size_t, WorkerId>> hovered_worker, hovering_worker;
  bool pool_shown(std::size_t counter, std::size_t p) const {
    return !pools_hidden.count(p) && !plot_hidden[counter].count(p);
  }
  // The Scheduler panel's choices at a decision (view_scheduler.cpp): the
  // worker lanes of the threads that may run next, outlined and numbered
  // with the key that picks each, as (pool, worker, number from 1).
  struct ChoiceLane {
    std::size_t pool;
    WorkerId worker;
    std::size_t number;
    bool hovered;  // its row in the panel is under the mouse
  };
  std::vector<ChoiceLane> choice_lanes;
  std::set<std::size_t> lanes_collapsed;  // pools whose lanes are folded away
  // Flow arrows, from a task's submission to its start on a worker's lane:
  // the hovered task's, the clicked one's (pool, task), and with
  // flows_in_view every task's submitted in view, when few enough to read.
  std::optional<std::pair<std::size_t, TaskId>> flow_selected;
  bool flows_in_view = false;
  float scale = 1;                        // the UI scale: sizes in px are multiplied by it
  bool side_panel = true;                 // the table, the pools explained, the scenario
  float left_width = 480;                 // the side panel, px at scale 1
  // Widens the side panel (never narrows it) so the comparison table shows
  // `pools` columns with their names whole.
  void fit_side_panel(std::size_t pools) {
    left_width = std::max(left_width, 130.0f + 96.0f * static_cast<float>(pools));
  }
  bool scrubbing = false;  // the replay cursor was dragged in the last frame
  // The comparison table is recomputed at the next frame, however recently
  // it was: a headless picture must not show it up to a quarter second old
  // (2.5 s of scenario in a simulation at 10x).
  bool refresh_table = false;
  // This frame rebuilt a replay's metrics (going back), or they are still
  // catching up with the cursor: the table's refresh, the other costly thing
  // a frame can do, waits for a frame that does neither.
  bool rebuilding = false;

  // The scenario's phases, one after another from 0 (steady, burst, idle ...),
  // drawn as bands under the ruler and as boundaries through every item.
  using PhaseBand = gui::PhaseBand;  // (model/phase_bands.h)
  std::vector<PhaseBand> phases;

  // The run's findings (docs/findings.md): a replay's from its file, a live
  // run's once it ended. Each range is marked along the ruler; the one
  // clicked in the Findings tab is tinted through every item.
  std::vector<findings::Finding> findings;
  std::optional<std::size_t> finding_selected;
  std::optional<std::size_t> finding_request;  // --finding: shown once the findings are known

  // This frame's timeline geometry, set by the timeline view for its items:
  // the time axis's ends, and the column left of it where pools and plots
  // are named (px, wide enough for the longest pool name, within limits).
  float time_x0 = 0, time_x1 = 1, gutter = 110;
  std::vector<plot::Tick> ticks;
  std::optional<float> hover_x;      // the mouse, when it is over the timeline
  float plots_y0 = 0, plots_y1 = 0;  // where the counter plots are (screen px), for the smoke test
  float toolbar_x1 = 0;              // where the toolbar's rightmost widget ends (screen px), for the smoke test

  // The GUI thread's CPU over the last second, as a share of one core, and
  // whether that is enough to distort a live run on this machine's cores.
  double render_load = 0;
  unsigned cores = 1;
  bool render_distorts = false;

  // What a lesson's step points at (scenarios/engine/lesson.h's Highlight):
  // a pool's lanes, a rule's markers, a row of the comparison table.
  struct LessonHighlight {
    enum What { lane, rule, row } what = lane;
    std::string pool, name;
  };
  std::vector<LessonHighlight> lesson_highlights;

  std::string open_error;  // why the last file could not be opened: a dialog until dismissed
  const char* open_error_title = "Could not open the file";  // or "Could not compare the runs"
  std::string status;      // the last message: what was saved, what failed
  bool status_error = false;
  double status_time = -100;

  // Each pool's colour this frame, by position: its design's (App::build).
  std::vector<plot::Rgba> pool_colours;
  const plot::Palette& palette() const { return plot::palette(palette_kind); }
  plot::Rgba pool_colour(std::size_t p) const {
    return p < pool_colours.size() ? pool_colours[p] : palette().pool(p);
  }
  plot::TimeMap map() const { return axis.map(time_x0, time_x1); }
  float px(float v) const { return v * scale; }
  void say(std::string message, bool error = false) {
    status = std::move(message);
    status_error = error;
    status_time = ImGui::GetTime();
  }
};

struct Context {
  Ui& ui;
  const Frame& frame;
  LiveSession* live;  // exactly one of live and replay is set
  Replay* replay;
  std::vector<std::function<void()>>& later;  // run after the frame
  const RunComparison* compared = nullptr;     // run B beside the replayed A, while compared

  // The newest time worth showing: the data's end, or the scenario's when nothing ran yet.
  double data_end() const;
};

}  // namespace poolscope::gui
