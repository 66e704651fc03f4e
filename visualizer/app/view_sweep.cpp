// The sweep view's frame: its toolbar (what the sweep is; the pool, the
// counter, the metric and the x param chosen; Close), the layout, and the
// small multiples: one cell per grid point, its label over a small timeline
// of the counter, every cell on one time axis and one y-scale (tick labels
// on the grid's left and bottom edges only), and a cursor all of them share.
#include "visualizer/app/view_sweep.h"

#include <imgui.h>

#include <algorithm>
#include <cmath>

#include "visualizer/app/draw.h"
#include "visualizer/app/views.h"

namespace poolscope::gui {

using namespace sweep_ink;

namespace {

// A combo over names; true when another was picked.
// A combo at least `width` px wide, and wide enough for its longest choice
// (a grid parameter's spec, phpfpm.pm.max_children, was cut at 200 px).
float pick_width(const std::vector<std::string>& names, float width) {
  for (const std::string& n : names)
    width = std::max(width,
                     ImGui::CalcTextSize(n.c_str()).x + 2 * ImGui::GetStyle().FramePadding.x + ImGui::GetFrameHeight());
  return width;
}

// A label and its combo, on the toolbar's line where both fit, else on the next.
bool pick(const char* label, std::size_t& chosen, const std::vector<std::string>& names, float width) {
  width = pick_width(names, width);
  same_line_or_wrap(ImGui::CalcTextSize(label).x + ImGui::GetStyle().ItemSpacing.x + width);
  bool picked = false;
  ImGui::TextDisabled("%s", label);
  ImGui::SameLine();
  ImGui::SetNextItemWidth(width);
  if (ImGui::BeginCombo(("##" + std::string(label)).c_str(), names[chosen].c_str())) {
    for (std::size_t i = 0; i < names.size(); ++i)
      if (ImGui::Selectable(names[i].c_str(), i == chosen)) {
        picked = i != chosen;
        chosen = i;
      }
    ImGui::EndCombo();
  }
  return picked;
}

}  // namespace

plot::Rgba SweepView::pool_colour(const SweepFile& sweep, const Ui& ui) const {
  return plot::pool_colours(ui.palette(), sweep.designs)[pool_];
}

std::string SweepView::describe(const SweepFile& sweep) const {
  if (sweep.pools.empty()) return "no point measured anything";
  return std::to_string(drawn_.multiples) + " multiples of " + std::string(sweep_counter_name(counter_)) + " (" +
         pool(sweep) + "), " + std::to_string(drawn_.points) + " points of " + sweep.metrics[metric_].name +
         " against " + sweep.params[x_param_].spec;
}

bool SweepView::draw(const SweepFile& sweep, Ui& ui) {
  pool_ = std::min(pool_, sweep.pools.empty() ? 0 : sweep.pools.size() - 1);
  drawn_ = {};
  was_hovered_ = hovered_;
  hovered_.reset();
  if (!toolbar(sweep, ui)) return false;
  if (sweep.pools.empty() || sweep.points.empty()) {
    ImGui::TextWrapped("No point of this sweep measured anything (shard %zu of the grid's %zu points).",
                       sweep.points.size(), sweep.points_total);
    return true;
  }
  // The multiples above, the metric plot under them: the multiples are the
  // picture of the runs, the plot its summary.
  const ImVec2 at = ImGui::GetCursorScreenPos();
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const float gap = ui.px(10);
  const float top = std::floor((avail.y - gap) * 0.6f);
  multiples(sweep, ui, at, {avail.x, top});
  metric_plot(sweep, ui, {at.x, at.y + top + gap}, {avail.x, avail.y - top - gap});
  ImGui::Dummy(avail);
  return true;
}

bool SweepView::toolbar(const SweepFile& sweep, Ui& ui) {
  ImGui::AlignTextToFramePadding();
  if (ImGui::Button("Close")) return false;
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("back to the run behind the sweep");
  std::string what = "sweep of " + sweep.scenario + ", " + sweep.mode + ": " + std::to_string(sweep.points.size());
  if (sweep.points.size() != sweep.points_total) what += " of " + std::to_string(sweep.points_total);
  what += " points";
  // Each control where the line holds it, else on the next (a 1024-px window).
  same_line_or_wrap(ImGui::CalcTextSize(what.c_str()).x);
  ImGui::TextUnformatted(what.c_str());
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", sweep.file.c_str());
  if (sweep.pools.empty()) return true;
  const float w = ui.px(150);
  if (sweep.pools.size() > 1) {
    pick("pool", pool_, sweep.pools, w);
  }
  std::vector<std::string> counters;
  for (std::size_t i = 0; i < kSweepCounterCount; ++i)
    counters.emplace_back(sweep_counter_name(static_cast<SweepCounter>(i)));
  std::size_t c = static_cast<std::size_t>(counter_);
  if (pick("counter", c, counters, ui.px(100))) counter_ = static_cast<SweepCounter>(c);
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", std::string(sweep_counter_help(counter_)).c_str());
  std::vector<std::string> metrics;
  for (const SweepMetric& m : sweep.metrics) metrics.push_back(m.name);
  pick("metric", metric_, metrics, w);
  if (sweep.params.size() > 1) {
    std::vector<std::string> params;
    for (const SweepParam& p : sweep.params) params.push_back(p.spec);
    pick("against", x_param_, params, ui.px(200));
  }
  return true;
}

void SweepView::multiples(const SweepFile& sweep, Ui& ui, ImVec2 at, ImVec2 size) {
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const float line = ImGui::GetTextLineHeight();
  // The grid's edges carry the shared axes' labels: values on the left, times
  // at the bottom, under the scenario's phases (a band each) when it has them.
  const float strip = ui.phases.empty() ? 0.0f : line + ui.px(3);
  const float left = ui.px(30), bottom = strip + line + ui.px(4), gap = ui.px(8);
  const ImVec2 grid0{at.x + left, at.y}, grid1{at.x + size.x, at.y + size.y - bottom};
  const std::size_t n = sweep.points.size();
  const std::size_t cols = multiple_columns(n, grid1.x - grid0.x, grid1.y - grid0.y, 3.0);
  const std::size_t rows = (n + cols - 1) / cols;
  const float cell_w = (grid1.x - grid0.x - gap * static_cast<float>(cols - 1)) / static_cast<float>(cols);
  const float cell_h = (grid1.y - grid0.y - gap * static_cast<float>(rows - 1)) / static_cast<float>(rows);
  drawn_.multiples_min = grid0;
  drawn_.multiples_max = grid1;

  const std::string& name = pool(sweep);
  const double t_end = shared_time_end(sweep, name);
  const double ceiling = shared_ceiling(sweep, name, counter_);
  const ImU32 colour = col(pool_colour(sweep, ui));
  const ImU32 fill = col(pool_colour(sweep, ui), 0.28f);
  const auto ci = static_cast<std::size_t>(counter_);

  // The mouse: which cell, and its time, read before drawing so every cell shows the cursor.
  ImGui::SetCursorScreenPos(grid0);
  ImGui::InvisibleButton("multiples", {grid1.x - grid0.x, grid1.y - grid0.y});
  const bool over = ImGui::IsItemHovered();
  const bool clicked = ImGui::IsItemClicked();
  const ImVec2 mouse = ImGui::GetIO().MousePos;
  std::optional<double> cursor_s;  // the time under the mouse in a cell, shown in every cell
  std::optional<std::size_t> under;

  // Each cell's label, broken after its commas where wider than the cell (a
  // grid of two parameters at 1280x720); every cell keeps as many lines.
  std::vector<std::vector<std::string>> labels(n);
  std::size_t label_lines = 1;
  for (std::size_t i = 0; i < n; ++i) {
    const SweepPoint& point = sweep.points[i];
    const std::string label = sweep.label(point) + (point.status == "ok" ? "" : "  (" + point.status + ")");
    labels[i] = break_after(label, ',', cell_w - ui.px(2));
    label_lines = std::max(label_lines, labels[i].size());
  }
  const float label_h = static_cast<float>(label_lines) * line;
  struct Cell {
    ImVec2 p0, p1;  // the plot inside the cell, under its label
  };
  std::vector<Cell> cells(n);
  for (std::size_t i = 0; i < n; ++i) {
    const float x = grid0.x + static_cast<float>(i % cols) * (cell_w + gap);
    const float y = grid0.y + static_cast<float>(i / cols) * (cell_h + gap);
    cells[i] = {{x, y + label_h + ui.px(2)}, {x + cell_w, y + cell_h}};
    if (over && mouse.x >= x && mouse.x < x + cell_w && mouse.y >= y && mouse.y < y + cell_h) {
      under = i;
      cursor_s = std::clamp((mouse.x - x) / cell_w, 0.0f, 1.0f) * t_end;
    }
  }
  if (under) hovered_ = under;
  if (clicked && under) selected_ = selected_ == under ? std::nullopt : under;

  const plot::TimeMap tmap{0, t_end * 1e9, 0, static_cast<double>(cell_w)};
  const auto time_ticks = plot::time_ticks(tmap, ui.px(70));
  const plot::ValueMap vmap{ceiling, 0, cells.empty() ? 1 : cells[0].p1.y - cells[0].p0.y, false};
  const auto value_ticks = plot::value_ticks(vmap, line * 1.3f);
  for (std::size_t i = 0; i < n; ++i) {
    const SweepPoint& point = sweep.points[i];
    const ImVec2 p0 = cells[i].p0, p1 = cells[i].p1;  // (clang 14 cannot capture structured bindings)
    const auto x_of = [&](double t) { return p0.x + static_cast<float>(t / t_end) * (p1.x - p0.x); };
    const auto y_of = [&](double v) { return p1.y - static_cast<float>(v / ceiling) * (p1.y - p0.y); };
    // Its label, red with the status when the point did not run cleanly.
    const bool ok = point.status == "ok";
    dl->PushClipRect({p0.x, p0.y - label_h - ui.px(2)}, {p1.x, p0.y}, true);
    for (std::size_t k = 0; k < labels[i].size(); ++k)
      dl->AddText({p0.x + ui.px(2), p0.y - label_h - ui.px(1) + static_cast<float>(k) * line}, ok ? kText : kFailed,
                  labels[i][k].c_str());
    dl->PopClipRect();
    dl->AddRectFilled(p0, p1, kPlotBg);
    for (const auto& t : value_ticks)
      dl->AddLine({p0.x, p0.y + static_cast<float>(t.pos)}, {p1.x, p0.y + static_cast<float>(t.pos)}, kGrid);
    for (const auto& t : time_ticks)
      dl->AddLine({p0.x + static_cast<float>(t.pos), p0.y}, {p0.x + static_cast<float>(t.pos), p1.y}, kGrid);
    // The shared axes' labels, on the grid's edges only.
    if (i % cols == 0)
      for (const auto& t : value_ticks) {
        const ImVec2 s = ImGui::CalcTextSize(t.label.c_str());
        dl->AddText({p0.x - s.x - ui.px(4), p0.y + static_cast<float>(t.pos) - s.y / 2}, kLabel, t.label.c_str());
      }
    // Where a phase begins, dashed, in every cell; the bands under the bottom row.
    for (std::size_t k = 1; k < ui.phases.size(); ++k) {
      const float x = x_of(static_cast<double>(ui.phases[k].start) / 1e9);
      if (x > p1.x) break;
      for (float y = p0.y; y < p1.y; y += ui.px(8))
        dl->AddLine({x, y}, {x, std::min(p1.y, y + ui.px(4))}, kPhaseLine);
    }
    if (i + cols >= n) {
      phase_bands(ui, dl, {p0.x, p1.y + ui.px(2)}, {p1.x, p1.y + ui.px(2) + strip},
                  [&](std::int64_t t) { return x_of(static_cast<double>(t) / 1e9); });
      for (const auto& t : time_ticks) {
        const float w = ImGui::CalcTextSize(t.label.c_str()).x, x = p0.x + static_cast<float>(t.pos) - w / 2;
        if (x + w <= p1.x) dl->AddText({x, p1.y + strip + ui.px(2)}, kLabel, t.label.c_str());  // not into the next cell's
      }
    }
    const SweepPool* sp = point.pool(name);
    if (sp && sp->series) {
      // Each bucket's peak, as a filled step.
      const SweepSeries& s = *sp->series;
      const auto& v = s.counters[ci];
      std::vector<ImVec2> step;
      step.reserve(2 * v.size() + 1);
      for (std::size_t b = 0; b < v.size(); ++b) {
        const float xa = x_of(s.t[b]), xb = x_of(s.t[b] + s.bucket_s), y = y_of(v[b]);
        if (v[b] > 0) dl->AddRectFilled({xa, y}, {xb, p1.y}, fill);
        step.push_back({xa, y});
        step.push_back({xb, y});
      }
      dl->AddPolyline(step.data(), static_cast<int>(step.size()), colour, 0, ui.px(1.5f));
    } else {
      dl->AddText({p0.x + ui.px(6), p0.y + ui.px(4)}, kFailed, "no series: the point measured nothing");
    }
    // The shared cursor: the same time in every cell, with the value there.
    if (cursor_s) {
      const float x = x_of(*cursor_s);
      dl->AddLine({x, p0.y}, {x, p1.y}, kCursor);
      const std::optional<double> value = sp && sp->series ? value_at(*sp->series, counter_, *cursor_s) : std::nullopt;
      const std::string text = value ? format_metric({}, *value) : "-";
      const ImVec2 s = ImGui::CalcTextSize(text.c_str());
      const float tx = x + s.x + ui.px(8) < p1.x ? x + ui.px(4) : x - s.x - ui.px(4);
      dl->AddRectFilled({tx - ui.px(2), p0.y + ui.px(2)}, {tx + s.x + ui.px(2), p0.y + ui.px(2) + s.y},
                        IM_COL32(20, 20, 24, 210));
      dl->AddText({tx, p0.y + ui.px(2)}, kText, text.c_str());
    }
    // Selected (clicked here or on the plot) or hovered on the plot: outlined.
    if (selected_ == i)
      dl->AddRect({p0.x - 1, p0.y - 1}, {p1.x + 1, p1.y + 1}, kSelected, 0, 0, ui.px(2));
    else if (was_hovered_ == i && !under)
      dl->AddRect({p0.x - 1, p0.y - 1}, {p1.x + 1, p1.y + 1}, kCursor, 0, 0, ui.px(1));
    ++drawn_.multiples;
  }
  if (under && cursor_s) {
    const SweepPoint& point = sweep.points[*under];
    const SweepPool* sp = point.pool(name);
    ImGui::BeginTooltip();
    ImGui::Text("%s at %s", sweep.label(point).c_str(), plot::format_time(*cursor_s * 1e9).c_str());
    if (sp && sp->series)
      ImGui::TextDisabled("%s: the %s each %s; every cell on one scale, 0 to %s",
                          std::string(sweep_counter_name(counter_)).c_str(),
                          sweep_counter_is_count(counter_) ? "count in" : "peak of",
                          plot::format_short(sp->series->bucket_s * 1e9).c_str(), format_metric({}, ceiling).c_str());
    if (!point.problem.empty()) wrapped(point.problem, ui.px(460));
    ImGui::TextDisabled("click: select it here and on the plot below");
    ImGui::EndTooltip();
  }
}

}  // namespace poolscope::gui
