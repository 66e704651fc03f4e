#include "visualizer/model/sweep_scales.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>

#include "visualizer/plot/axis.h"

namespace poolscope::gui {

double shared_time_end(const SweepFile& sweep, std::string_view pool) {
  double end = 0;
  for (const SweepPoint& p : sweep.points)
    if (const SweepPool* sp = p.pool(pool); sp && sp->series) end = std::max(end, sp->series->end_s());
  return end > 0 ? end : 1;
}

double shared_ceiling(const SweepFile& sweep, std::string_view pool, SweepCounter c) {
  double peak = 0;
  for (const SweepPoint& p : sweep.points)
    if (const SweepPool* sp = p.pool(pool); sp && sp->series)
      for (double v : sp->series->counters[static_cast<std::size_t>(c)]) peak = std::max(peak, v);
  return plot::nice_ceiling(peak);
}

std::optional<double> value_at(const SweepSeries& series, SweepCounter c, double t_s) {
  if (series.t.empty() || t_s < 0 || t_s >= series.end_s()) return std::nullopt;
  // The last bucket starting at or before t_s (buckets are equal, but read the starts as written).
  const auto after = std::upper_bound(series.t.begin(), series.t.end(), t_s);
  if (after == series.t.begin()) return std::nullopt;
  return series.counters[static_cast<std::size_t>(c)][static_cast<std::size_t>(after - series.t.begin()) - 1];
}

std::size_t multiple_columns(std::size_t n, double width, double height, double aspect) {
  if (n <= 1 || width <= 0 || height <= 0) return 1;
  std::size_t best = 1;
  double best_miss = INFINITY;
  for (std::size_t cols = 1; cols <= n; ++cols) {
    const std::size_t rows = (n + cols - 1) / cols;
    const double miss =
        std::fabs(std::log((width / static_cast<double>(cols)) / (height / static_cast<double>(rows)) / aspect));
    if (miss < best_miss - 1e-9) {
      best_miss = miss;
      best = cols;
    }
  }
  return best;
}

double nice_top(double max) {
  if (!(max > 0)) return 1;
  const double padded = max * 1.05;  // the highest point a little under the top edge
  const double step = plot::nice_step(padded, 5);
  return std::ceil(padded / step) * step;
}

std::vector<double> nice_ticks(double top, int max_ticks) {
  const double step = plot::nice_step(top, max_ticks);
  std::vector<double> ticks;
  for (int k = 0; k * step <= top * (1 + 1e-9); ++k) ticks.push_back(k * step);
  return ticks;
}

MetricPlot metric_plot(const SweepFile& sweep, std::string_view pool, std::size_t metric, std::size_t x_param) {
  MetricPlot plot;
  const SweepParam& xp = sweep.params[x_param];
  plot.categorical = !xp.is_numeric();
  auto x_of = [&](std::size_t value) { return plot.categorical ? static_cast<double>(value) : *xp.numeric[value]; };
  plot.x_min = INFINITY;
  plot.x_max = -INFINITY;
  for (std::size_t v = 0; v < xp.shown.size(); ++v) {
    plot.x_min = std::min(plot.x_min, x_of(v));
    plot.x_max = std::max(plot.x_max, x_of(v));
  }
  if (plot.x_max <= plot.x_min) {  // one value: a little room each side
    plot.x_min -= 0.5;
    plot.x_max += 0.5;
  }
  // A line per combination of the other params' values, in grid order.
  std::map<std::vector<std::size_t>, std::size_t> line_of;
  double y_max = 0;
  for (std::size_t i = 0; i < sweep.points.size(); ++i) {
    const SweepPoint& p = sweep.points[i];
    const SweepPool* sp = p.pool(pool);
    if (!sp || metric >= sp->metrics.size() || !sp->metrics[metric]) continue;  // it measured nothing
    std::vector<std::size_t> others = p.choice;
    others.erase(others.begin() + static_cast<std::ptrdiff_t>(x_param));
    auto [at, added] = line_of.try_emplace(others, plot.lines.size());
    if (added) {
      std::string label;
      for (std::size_t k = 0; k < sweep.params.size(); ++k)
        if (k != x_param)
          label += (label.empty() ? "" : ", ") + sweep.params[k].spec + "=" + sweep.params[k].shown[p.choice[k]];
      plot.lines.push_back({label, {}});
    }
    const double y = *sp->metrics[metric];
    plot.lines[at->second].points.push_back({x_of(p.choice[x_param]), y, i});
    y_max = std::max(y_max, y);
  }
  for (MetricLine& line : plot.lines)
    std::stable_sort(line.points.begin(), line.points.end(), [](const auto& a, const auto& b) { return a.x < b.x; });
  plot.y_top = nice_top(y_max);
  return plot;
}

std::string format_metric(const SweepMetric& metric, double value) {
  if (metric.seconds) return plot::format_short(value * 1e9);
  char buf[32];
  std::snprintf(buf, sizeof buf, value == std::floor(value) && std::fabs(value) < 1e15 ? "%.0f" : "%.4g", value);
  return buf;
}

}  // namespace poolscope::gui
