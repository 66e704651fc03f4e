// The sweep view (docs/visualizer.md, "A sweep"): a `poolscope sweep --json`
// file as small multiples, one small timeline of the chosen counter per grid
// point, every one on the same time axis and the same y-scale, with a cursor
// they share (view_sweep.cpp); and the chosen metric against a swept
// parameter, a line per value of the others (view_sweep_plot.cpp). A click
// on a multiple or a point selects that grid point in both.
#pragma once

#include <optional>

#include "visualizer/app/ui.h"
#include "visualizer/model/sweep_file.h"
#include "visualizer/model/sweep_scales.h"

namespace poolscope::gui {

// The two parts' inks: the timeline's plot background, grid and labels, and
// an amber for the selected point that is no pool's colour.
namespace sweep_ink {
inline constexpr ImU32 kPlotBg = IM_COL32(28, 28, 33, 255);
inline constexpr ImU32 kGrid = IM_COL32(255, 255, 255, 14);
inline constexpr ImU32 kLabel = IM_COL32(150, 150, 160, 255);
inline constexpr ImU32 kText = IM_COL32(230, 230, 230, 255);
inline constexpr ImU32 kCursor = IM_COL32(255, 255, 255, 150);  // the shared cursor, a hovered point's ring
inline constexpr ImU32 kSelected = IM_COL32(255, 214, 90, 255);
inline constexpr ImU32 kFailed = IM_COL32(255, 115, 115, 255);
}  // namespace sweep_ink

class SweepView {
 public:
  // Draws `sweep` in the rest of the current window. Returns false when the
  // user closed it (back to the run behind it).
  bool draw(const SweepFile& sweep, Ui& ui);
  // What the last frame drew, for the headless test: multiples, points on
  // the metric plot, and where the multiples are on screen (px).
  struct Drawn {
    std::size_t multiples = 0, points = 0;
    ImVec2 multiples_min, multiples_max;
  };
  const Drawn& drawn() const { return drawn_; }
  void show_counter(SweepCounter c) { counter_ = c; }
  std::string describe(const SweepFile& sweep) const;  // "9 multiples of workers (ants), ..."

 private:
  bool toolbar(const SweepFile& sweep, Ui& ui);
  void multiples(const SweepFile& sweep, Ui& ui, ImVec2 at, ImVec2 size);
  void metric_plot(const SweepFile& sweep, Ui& ui, ImVec2 at, ImVec2 size);
  plot::Rgba pool_colour(const SweepFile& sweep, const Ui& ui) const;
  const std::string& pool(const SweepFile& sweep) const { return sweep.pools[pool_]; }

  std::size_t pool_ = 0, metric_ = 0, x_param_ = 0;
  SweepCounter counter_ = SweepCounter::workers;
  std::optional<std::size_t> hovered_;      // the grid point under the mouse, in either part (this frame's)
  std::optional<std::size_t> was_hovered_;  // ... as of the last frame, for the part drawn first
  std::optional<std::size_t> selected_;     // the grid point clicked, outlined in both
  Drawn drawn_;
};

}  // namespace poolscope::gui
