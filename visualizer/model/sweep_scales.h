// What the sweep view draws, computed from a SweepFile: the axes its small
// multiples share (one time axis, one y-scale per counter), the value under
// a shared cursor, the grid of multiples, and the metric-against-parameter
// plot's lines. Plain C++: no ImGui, tested in tests/visualizer/.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "visualizer/model/sweep_file.h"

namespace poolscope::gui {

// The time every multiple of `pool` shows: 0 to the longest series' end, s.
double shared_time_end(const SweepFile& sweep, std::string_view pool);
// The top of the y-scale every multiple of `pool` shares for counter `c`: a
// nice ceiling over every point's peak, so equal heights mean equal counts.
double shared_ceiling(const SweepFile& sweep, std::string_view pool, SweepCounter c);
// The counter in the bucket holding `t_s`; none before 0 or past the series' end.
std::optional<double> value_at(const SweepSeries& series, SweepCounter c, double t_s);

// Columns for `n` multiples in a `width` x `height` area: the count whose
// cells come nearest `aspect` (width over height) while every one fits.
std::size_t multiple_columns(std::size_t n, double width, double height, double aspect);

// A ceiling for any positive data (seconds included): a nice step's multiple
// above `max`, `max` itself when it is not above 0 ... 1.
double nice_top(double max);
// Ticks on [0, top]: about `max_ticks` at nice values.
std::vector<double> nice_ticks(double top, int max_ticks);

// The metric-against-parameter plot: the metric on y, one param on x, a line
// per combination of the other params' values.
struct MetricPoint {
  double x = 0, y = 0;
  std::size_t point = 0;  // its position in SweepFile::points
};
struct MetricLine {
  std::string label;                // the other params' values ("" with one param)
  std::vector<MetricPoint> points;  // by x
};
struct MetricPlot {
  std::vector<MetricLine> lines;
  // x: the param's numbers, or its values' positions (0, 1, ...) when it has none.
  bool categorical = false;
  double x_min = 0, x_max = 1;
  double y_top = 1;  // nice_top of the highest value
};
MetricPlot metric_plot(const SweepFile& sweep, std::string_view pool, std::size_t metric, std::size_t x_param);

// A metric's value in words: seconds as a duration ("56.0 µs"), else a number ("37.33", "240").
std::string format_metric(const SweepMetric& metric, double value);

}  // namespace poolscope::gui
