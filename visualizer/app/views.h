// The views, one file each: the timeline (the ruler, then its items: counter
// plots, marker rows, worker lanes) on one shared time axis, and the side
// panel's comparison table, explain panel and scenario page. Each keeps the
// scratch buffers it draws with, so a frame allocates nothing new.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "visualizer/app/ui.h"
#include "visualizer/model/range_stats.h"
#include "visualizer/model/run_compare.h"
#include "visualizer/plot/hit_test.h"
#include "visualizer/plot/step_line.h"

namespace poolscope::gui {

// The counter plots: one per counter, each pool a step line in its colour;
// a plot split per pool is a small plot per pool, each on its own scale.
class PlotsView {
 public:
  // Draws the plots shown, `height` px each, from `y`; returns the height used.
  float draw(Context& cx, float y, float height);
  // Every pool at 0 for the whole run in this counter: the plot folds to a line.
  static bool empty(const Frame& f, Counter c);
  static float folded_height(const Ui& ui);
  // How many plots' height counter `c` takes: 1, or split per pool, half a plot per pool shown.
  static float weight(const Ui& ui, std::size_t pools_shown, Counter c);
  static std::size_t pools_shown(const Ui& ui, const Frame& f, Counter c);

 private:
  struct Area;
  void label_column(Context& cx, Counter counter, float label_x, ImVec2 r0, ImVec2 r1, std::size_t shown);
  void draw_area(Context& cx, Counter counter, const Area& area);
  std::vector<std::vector<plot::ColumnRange>> ranges_;  // per pool, shared by its counters
  // Last frame's ranges, and per pool and counter the columns decimated and
  // the frame they were (so those still in range are kept: a replay playing).
  std::vector<std::vector<plot::ColumnRange>> before_;
  std::vector<std::array<std::vector<plot::Column>, kCounterCount>> columns_;
  std::vector<std::array<std::uint64_t, kCounterCount>> decimated_in_;
  std::uint64_t frame_ = 0, index_generation_ = 0;
  std::vector<std::size_t> shown_;                      // the pools the plot being drawn shows
  std::vector<plot::Point> line_;
  std::vector<ImVec2> points_;
};

// Run B over A's plots (view_overlay.cpp). B's pool as a step line over its
// buckets from t0_s to t1_s (s): one point pair per run of equal values, so
// a flat stretch is one dash pattern.
void b_step_line(const SweepSeries& s, SweepCounter c, const plot::TimeMap& map, const plot::ValueMap& vm,
                 double t0_s, double t1_s, std::vector<ImVec2>& out);
// Which line is which run, at a plot's top right: a solid and a dashed sample, each run named.
void overlay_legend(const Ui& ui, ImDrawList* dl, const RunComparison& runs, ImVec2 top_right, float plot_width);

// A row of markers per pool: spawns and reaps (coloured by mechanism),
// refusals, throws and drops, and the pool's own events as ticks.
class MarkersView {
 public:
  float draw(Context& cx, float y, float row_height);

 private:
  std::vector<plot::Bucket> buckets_;
  std::vector<Label> mechanisms_;  // the run's reaping rules, one per code, for the legend
};

// A task's flow in words: "submitted at 1.2 s, waited 3 ms in the queue".
std::string flow_line(const TaskFlow& f);

// One row per worker, per pool: alive (idle), running tasks, reaped; flow
// arrows from submissions to the tasks they became (view_flows.cpp).
class LanesView {
 public:
  void draw(Context& cx, float y, float height);

 private:
  // The hovered task's arrow, the clicked one's and (W) every one in view.
  void draw_flows(Context& cx, std::optional<std::pair<std::size_t, TaskId>> hovered);
  std::vector<float> header_y_;                                // per pool, this frame: its header's middle
  std::vector<std::vector<std::pair<WorkerId, float>>> row_y_;  // per pool, this frame: rows on screen, middles
  float clip_top_ = 0, clip_bottom_ = 0;
  struct Rows {
    std::vector<const metrics::WorkerLane*> lanes;  // the rows shown: the callers' first, then the workers'
    std::size_t callers = 0;                        // how many of them are caller lanes (PoolIndex::callers)
    std::size_t alive = 0, ever = 0;                // workers, as of now
    float row_h = 0;                                // px, a worker's row
    float caller_h = 0;                             // px, a caller's row
  };
  std::vector<Rows> rows_;  // per pool
  std::vector<plot::Span> spans_;
  bool dragging_ = false;
};

// The shared time axis: the ruler, zoom and pan, the replay cursor, and the
// items above, stacked.
class TimelineView {
 public:
  void draw(Context& cx);

 private:
  void ruler(Context& cx, ImVec2 at, float height);
  PlotsView plots_;
  MarkersView markers_;
  LanesView lanes_;
};

// The selected range's statistics per pool, and latency histograms.
class RangeView {
 public:
  void draw(Context& cx);

 private:
  std::vector<PoolRange> stats_;
  std::pair<std::int64_t, std::int64_t> computed_for_{-1, -1};
  std::uint64_t version_ = ~0ULL;
  double computed_at_ = -1;
};

// Two runs' summaries, pool by pool, with the difference (view_runs.cpp).
class RunsView {
 public:
  // `open` becomes false when the window is closed.
  void draw(Context& cx, const RunComparison& runs, bool& open);
};

// The runner's summary metrics, side by side, refreshed a few times a second.
class CompareView {
 public:
  void draw(Context& cx);
  // What the table showed of the pools' names when last drawn, for the smoke test:
  // each name as its lines, joined by "|"; whether a line ran past its
  // column (cut); and where the names are on screen (px), as far as visible.
  struct Drawn {
    std::vector<std::string> names;
    bool overflow = false;
    ImVec2 min{}, max{};
  };
  const Drawn& drawn() const { return drawn_; }
  // A pool's column: the runner's summary (workers final read at the end of
  // the workload, once it is past), with what the summary does not hold.
  struct Cell : metrics::Summary {
    std::uint32_t now_workers = 0;  // at the frame's moment
    bool after_workload = false;    // the frame's moment is past the workload's end
    SubmitLateness late;
  };

 private:
  Cell cell(Context& cx, std::size_t pool) const;
  std::vector<Cell> summaries_;
  bool after_workload_ = false, lateness_known_ = false;
  std::uint64_t version_ = ~0ULL;  // the event count they were computed at
  double computed_at_ = -1;
  std::size_t next_ = 0;  // a refresh under way: the next pool to recompute
  Drawn drawn_;
};

// Per pool: what its design does, its parameters (editable before the run,
// the live ones during it), the last rule that fired, the rules seen, its docs.
class ExplainView {
 public:
  void draw(Context& cx);
  struct TextField {
    std::string text;
    bool editing = false;
  };

 private:
  std::map<std::string, TextField> text_;  // duration fields, by pool.param
  std::string add_design_;
};

// The run's findings, one entry each: pool, rule, range, the numbers, why,
// the parameter. A click shows its range on the timeline (and selects it).
class FindingsView {
 public:
  // Every frame, whichever tab is shown: the findings for the timeline's marks.
  void update(Context& cx);
  void draw(Context& cx);

 private:
  static void show(Context& cx, std::size_t i);  // what a click on the i-th does
  const void* source_ = nullptr;  // the replay or the finished run they were read from
};

// The scenario: its lesson, phases and settings.
class ScenarioView {
 public:
  void draw(Context& cx);
};

// Zooms on the wheel, pans on a drag (unless `drag_pans` is false: the replay
// ruler scrubs instead), fits on a double-click, over the last item.
void navigate(Context& cx, bool wheel_zooms, bool drag_pans = true);
// The vertical lines every timeline item draws over itself, from y0 to y1:
// the grid, the replay cursor or the live edge, and the mouse's time.
void time_lines(Context& cx, ImDrawList* dl, float y0, float y1);
// Where a phase begins, dashed down the plots (time_lines, the sweep's cells).
inline constexpr ImU32 kPhaseLine = IM_COL32(255, 230, 160, 70);
// The scenario's phases as bands filling [p0, p1): alternately lighter,
// bursts amber, idle grey, each named where there is room; `to_x` maps
// scenario time (ns) to x. Returns the band under the mouse, if any.
const Ui::PhaseBand* phase_bands(const Ui& ui, ImDrawList* dl, ImVec2 p0, ImVec2 p1,
                                 const std::function<float(std::int64_t)>& to_x);
// Shows everything there is.
void fit_all(Context& cx);
// Opens a design's page (docs/pools/NAME.md, relative to the source tree)
// and copies its path (view_explain.cpp).
void open_docs(Ui& ui, const std::string& relative);

}  // namespace poolscope::gui
