// The sweep view's metric-against-parameter plot: the chosen metric of the
// chosen pool on y, a swept parameter on x (its numbers, durations read as
// times; a choice's values in order), a line per combination of the other
// parameters' values, each point labelled with its value. Hovering a point
// names it; a click selects it here and in the multiples above.
#include <imgui.h>

#include <cmath>

#include "pools/core/duration.h"
#include "visualizer/app/draw.h"
#include "visualizer/app/view_sweep.h"

namespace poolscope::gui {

using namespace sweep_ink;

namespace {

// The x axis's ticks: a duration param's in time units, a number's at nice
// steps, a choice's at each of its values.
std::vector<plot::Tick> x_ticks(const SweepParam& param, const MetricPlot& mp, double x0, double x1, double lo,
                                double hi, float min_px) {
  std::vector<plot::Tick> ticks;
  const auto to_x = [&](double v) { return x0 + (v - lo) / (hi - lo) * (x1 - x0); };
  if (mp.categorical) {
    for (std::size_t v = 0; v < param.shown.size(); ++v)
      ticks.push_back({static_cast<double>(v), to_x(static_cast<double>(v)), param.shown[v]});
    return ticks;
  }
  if (parse_duration(param.shown.front())) {  // seconds on the axis, labelled as times, none before 0
    const double from = std::max(lo, 0.0);
    return plot::time_ticks({from * 1e9, hi * 1e9, to_x(from), x1}, min_px);
  }
  const int max_ticks = std::max(1, static_cast<int>((x1 - x0) / min_px));
  const double step = plot::nice_step(hi - lo, max_ticks);
  for (double v = std::ceil(lo / step) * step; v <= hi; v += step) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%g", std::fabs(v) < step / 2 ? 0.0 : v);
    ticks.push_back({v, to_x(v), buf});
  }
  return ticks;
}

}  // namespace

void SweepView::metric_plot(const SweepFile& sweep, Ui& ui, ImVec2 at, ImVec2 size) {
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const float line = ImGui::GetTextLineHeight();
  const SweepMetric& metric = sweep.metrics[metric_];
  const SweepParam& param = sweep.params[x_param_];
  const MetricPlot mp = gui::metric_plot(sweep, pool(sweep), metric_, x_param_);
  const std::vector<plot::Rgba> colours = plot::pool_colours(ui.palette(), sweep.designs);

  // The title, and a legend when there are several lines.
  const std::string title = metric.name + " (" + pool(sweep) + ") against " + param.spec;
  dl->AddText(at, kText, title.c_str());
  auto line_colour = [&](std::size_t k) { return mp.lines.size() == 1 ? colours[pool_] : ui.palette().pool(k); };
  // An entry that would run past the right edge starts a line of its own
  // (two grid parameters' names at 1024x640), and the plot moves down.
  float lx = at.x + ImGui::CalcTextSize(title.c_str()).x + ui.px(24), ly = at.y;
  for (std::size_t k = 0; mp.lines.size() > 1 && k < mp.lines.size(); ++k) {
    const float entry = ui.px(18) + ImGui::CalcTextSize(mp.lines[k].label.c_str()).x;
    if (lx + entry > at.x + size.x && lx > at.x + ui.px(64)) lx = at.x + ui.px(64), ly += line;
    dl->AddRectFilled({lx, ly + line * 0.3f}, {lx + ui.px(14), ly + line * 0.7f}, col(line_colour(k)));
    dl->AddText({lx + ui.px(18), ly}, kLabel, mp.lines[k].label.c_str());
    lx += entry + ui.px(18);
  }

  const ImVec2 p0{at.x + ui.px(64), ly + line + ui.px(8)};
  const ImVec2 p1{at.x + size.x - ui.px(16), at.y + size.y - line - ui.px(6)};
  if (p1.x - p0.x < ui.px(40) || p1.y - p0.y < ui.px(30)) return;
  dl->AddRectFilled(p0, p1, kPlotBg);
  const double pad = mp.categorical ? 0.5 : 0.04 * (mp.x_max - mp.x_min);
  const double lo = mp.x_min - pad, hi = mp.x_max + pad;
  const auto x_of = [&](double v) { return p0.x + static_cast<float>((v - lo) / (hi - lo)) * (p1.x - p0.x); };
  const auto y_of = [&](double v) { return p1.y - static_cast<float>(v / mp.y_top) * (p1.y - p0.y); };

  for (double v : nice_ticks(mp.y_top, std::max(1, static_cast<int>((p1.y - p0.y) / (line * 2))))) {
    const float y = y_of(v);
    dl->AddLine({p0.x, y}, {p1.x, y}, kGrid);
    const std::string label = format_metric(metric, v);
    const ImVec2 s = ImGui::CalcTextSize(label.c_str());
    dl->AddText({p0.x - s.x - ui.px(6), y - s.y / 2}, kLabel, label.c_str());
  }
  for (const plot::Tick& t : x_ticks(param, mp, p0.x, p1.x, lo, hi, ui.px(90))) {
    const float x = static_cast<float>(t.pos);
    dl->AddLine({x, p0.y}, {x, p1.y}, kGrid);
    dl->AddText({x - ImGui::CalcTextSize(t.label.c_str()).x / 2, p1.y + ui.px(3)}, kLabel, t.label.c_str());
  }

  // The point under the mouse: the nearest within a few px.
  ImGui::SetCursorScreenPos(p0);
  ImGui::InvisibleButton("metric plot", {p1.x - p0.x, p1.y - p0.y});
  const bool over = ImGui::IsItemHovered();
  const ImVec2 mouse = ImGui::GetIO().MousePos;
  const MetricPoint* nearest = nullptr;
  float best = ui.px(12);
  std::size_t total = 0;
  for (const MetricLine& l : mp.lines) total += l.points.size();
  dl->PushClipRect({p0.x - ui.px(8), p0.y - line}, {p1.x + ui.px(8), p1.y}, true);
  for (std::size_t k = 0; k < mp.lines.size(); ++k) {
    const ImU32 c = col(line_colour(k));
    std::vector<ImVec2> pts;
    for (const MetricPoint& p : mp.lines[k].points) pts.push_back({x_of(p.x), y_of(p.y)});
    dl->AddPolyline(pts.data(), static_cast<int>(pts.size()), c, 0, ui.px(2));
    for (std::size_t i = 0; i < pts.size(); ++i) {
      const MetricPoint& p = mp.lines[k].points[i];
      dl->AddCircleFilled(pts[i], ui.px(4), c);
      if (selected_ == p.point)
        dl->AddCircle(pts[i], ui.px(8), kSelected, 0, ui.px(2));
      else if (hovered_ == p.point)
        dl->AddCircle(pts[i], ui.px(8), kCursor, 0, ui.px(1.5f));
      if (total <= 40) {  // a handful of points: each says its value
        const std::string v = format_metric(metric, p.y);
        dl->AddText({pts[i].x - ImGui::CalcTextSize(v.c_str()).x / 2, pts[i].y - line - ui.px(4)}, kText, v.c_str());
      }
      const float d = std::hypot(mouse.x - pts[i].x, mouse.y - pts[i].y);
      if (over && d < best) {
        best = d;
        nearest = &p;
      }
      ++drawn_.points;
    }
  }
  dl->PopClipRect();
  if (mp.lines.empty())
    dl->AddText({p0.x + ui.px(8), p0.y + ui.px(6)}, kLabel, "no point measured this metric for this pool");
  if (!nearest) return;
  hovered_ = nearest->point;
  if (ImGui::IsItemClicked()) selected_ = selected_ == nearest->point ? std::nullopt : std::optional(nearest->point);
  const SweepPoint& point = sweep.points[nearest->point];
  ImGui::BeginTooltip();
  ImGui::Text("%s: %s = %s", sweep.label(point).c_str(), metric.name.c_str(),
              format_metric(metric, nearest->y).c_str());
  ImGui::TextDisabled("point %zu of the grid, %s; click: select it here and in the multiples above", point.index,
                      point.status.c_str());
  ImGui::EndTooltip();
}

}  // namespace poolscope::gui
