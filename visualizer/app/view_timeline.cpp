// The timeline: the ruler on top, then the counter plots, the marker rows and
// the worker lanes, all on one TimeAxis, so zooming or panning any of them
// moves them all.
#include <algorithm>
#include <cmath>

#include "visualizer/app/draw.h"
#include "visualizer/app/views.h"

namespace poolscope::gui {

double Context::data_end() const {
  if (replay) return static_cast<double>(std::max<std::int64_t>(replay->end_time(), 1'000'000));
  double end = static_cast<double>(std::max(frame.index.last_time(), frame.now));
  if (live && live->scenario()) end = std::max(end, static_cast<double>(live->scenario()->duration().count()));
  return std::max(end, 1e6);
}

void fit_all(Context& cx) { cx.ui.axis.fit(0, cx.data_end()); }

void navigate(Context& cx, bool wheel_zooms, bool drag_pans) {
  ImGuiIO& io = ImGui::GetIO();
  Ui& ui = cx.ui;
  const plot::TimeMap map = ui.map();
  if (ImGui::IsItemHovered()) {
    if ((wheel_zooms || io.KeyCtrl) && io.MouseWheel != 0)
      ui.axis.zoom(std::pow(0.8, io.MouseWheel), map.to_t(io.MousePos.x));
    if (ImGui::IsMouseDoubleClicked(0)) fit_all(cx);
  }
  if (drag_pans && !io.KeyShift && !ui.range_anchor && ImGui::IsItemActive() && ImGui::IsMouseDragging(0, 0))
    ui.axis.pan(-io.MouseDelta.x * map.ns_per_px());
}

namespace {
// The ruler's phase strip: a line of text under the ticks, when there are phases.
float phase_strip(const Ui& ui) { return ui.phases.empty() ? 0.0f : ImGui::GetTextLineHeight() + ui.px(3); }
}  // namespace

const Ui::PhaseBand* phase_bands(const Ui& ui, ImDrawList* dl, ImVec2 p0, ImVec2 p1,
                                 const std::function<float(std::int64_t)>& to_x) {
  if (ui.phases.empty() || p1.y <= p0.y) return nullptr;
  const ImVec2 mouse = ImGui::GetIO().MousePos;
  const Ui::PhaseBand* hovered = nullptr;
  dl->PushClipRect(p0, p1, true);
  for (std::size_t i = 0; i < ui.phases.size(); ++i) {
    const Ui::PhaseBand& ph = ui.phases[i];
    const float x0 = to_x(ph.start), x1 = to_x(ph.end);
    if (x1 < p0.x || x0 > p1.x) continue;
    const ImU32 fill = ph.kind == "idle"    ? IM_COL32(60, 60, 66, 255)
                       : ph.kind == "burst" ? IM_COL32(120, 96, 60, 255)
                                            : (i % 2 ? IM_COL32(70, 80, 96, 255) : IM_COL32(80, 92, 110, 255));
    dl->AddRectFilled({x0, p0.y + ui.px(1)}, {x1 - ui.px(1), p1.y}, fill);
    std::string label = ph.name;
    if (!ph.kind.empty() && ph.kind != ph.name) label += " (" + ph.kind + ")";
    const float tx = std::max(x0, p0.x) + ui.px(3);
    if (ImGui::CalcTextSize(label.c_str()).x < x1 - tx) {
      dl->AddText({tx, p0.y + ui.px(1)}, IM_COL32(235, 235, 235, 255), label.c_str());
    } else if (ImGui::CalcTextSize(ph.name.c_str()).x < x1 - tx) {
      dl->AddText({tx, p0.y + ui.px(1)}, IM_COL32(235, 235, 235, 255), ph.name.c_str());
    }
    if (mouse.y >= p0.y && mouse.y < p1.y && mouse.x >= x0 && mouse.x < x1) hovered = &ph;
  }
  dl->PopClipRect();
  return hovered;
}

void time_lines(Context& cx, ImDrawList* dl, float y0, float y1) {
  const Ui& ui = cx.ui;
  const plot::TimeMap map = ui.map();
  for (const plot::Tick& t : ui.ticks) dl->AddLine({float(t.pos), y0}, {float(t.pos), y1}, IM_COL32(255, 255, 255, 18));
  // Where a phase begins (burst after steady, idle after burst): dashed.
  for (std::size_t i = 1; i < ui.phases.size(); ++i) {
    const auto x = static_cast<float>(map.to_x(static_cast<double>(ui.phases[i].start)));
    if (x < ui.time_x0 || x > ui.time_x1) continue;
    for (float y = y0; y < y1; y += ui.px(8)) dl->AddLine({x, y}, {x, std::min(y1, y + ui.px(4))}, kPhaseLine);
  }
  // The finding chosen in the Findings tab: an amber tint over its range.
  if (ui.finding_selected && *ui.finding_selected < ui.findings.size()) {
    const findings::Finding& f = ui.findings[*ui.finding_selected];
    const float l = std::max(static_cast<float>(map.to_x(static_cast<double>(f.from))), ui.time_x0);
    const float r = std::min(static_cast<float>(map.to_x(static_cast<double>(f.to))), ui.time_x1);
    if (r > l) dl->AddRectFilled({l, y0}, {r, y1}, IM_COL32(255, 190, 80, 18));
  }
  if (ui.failure) {
    // A failing schedule: a faint tint while it built up, a dashed line where
    // it showed (dashed, so a red pool's step line is never read as it).
    const ImU32 red = IM_COL32(255, 115, 115, 230);
    const auto a = static_cast<float>(map.to_x(static_cast<double>(ui.failure->first)));
    const auto b = static_cast<float>(map.to_x(static_cast<double>(ui.failure->second)));
    const float l = std::max(a, ui.time_x0), r = std::min(b, ui.time_x1);
    if (r > l) dl->AddRectFilled({l, y0}, {r, y1}, IM_COL32(255, 115, 115, 14));
    if (b >= ui.time_x0 && b <= ui.time_x1)
      for (float y = y0; y < y1; y += ui.px(6)) dl->AddLine({b, y}, {b, std::min(y1, y + ui.px(4))}, red, ui.px(2));
  }
  const auto now_x = static_cast<float>(map.to_x(static_cast<double>(cx.frame.now)));
  if (now_x >= ui.time_x0 && now_x <= ui.time_x1) {
    if (cx.frame.replay)
      dl->AddLine({now_x, y0}, {now_x, y1}, col(ui.palette().cursor, 0.85f), ui.px(1.5f));
    else if (cx.frame.now > 0)
      dl->AddLine({now_x, y0}, {now_x, y1}, col(ui.palette().cursor, 0.25f));
  }
  if (ui.hover_x) dl->AddLine({*ui.hover_x, y0}, {*ui.hover_x, y1}, IM_COL32(255, 255, 255, 60));
  // The selected range: a tint between two edges.
  if (ui.range) {
    const auto a = static_cast<float>(map.to_x(static_cast<double>(ui.range->first)));
    const auto b = static_cast<float>(map.to_x(static_cast<double>(ui.range->second)));
    const float x0 = std::clamp(std::min(a, b), ui.time_x0, ui.time_x1), x1 = std::clamp(std::max(a, b), ui.time_x0, ui.time_x1);
    if (x1 > x0) dl->AddRectFilled({x0, y0}, {x1, y1}, IM_COL32(120, 170, 255, 28));
    for (float x : {a, b})
      if (x >= ui.time_x0 && x <= ui.time_x1) dl->AddLine({x, y0}, {x, y1}, IM_COL32(140, 190, 255, 140));
  }
}

void TimelineView::ruler(Context& cx, ImVec2 at, float height) {
  Ui& ui = cx.ui;
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const plot::TimeMap map = ui.map();
  dl->AddRectFilled({ui.time_x0, at.y}, {ui.time_x1, at.y + height}, IM_COL32(40, 40, 46, 255));
  // The scenario's phases: a band each along the ruler's lower half,
  // alternately lighter, named where there is room (hover: name, arrival, span).
  const ImVec2 mouse = ImGui::GetIO().MousePos;
  const Ui::PhaseBand* hovered_phase =
      phase_bands(ui, dl, {ui.time_x0, at.y + height - phase_strip(ui)}, {ui.time_x1, at.y + height},
                  [&](std::int64_t t) { return static_cast<float>(map.to_x(static_cast<double>(t))); });
  for (const plot::Tick& t : ui.ticks) {
    const float th = height - phase_strip(ui);  // the ticks' part of the ruler
    dl->AddLine({float(t.pos), at.y + th * 0.6f}, {float(t.pos), at.y + th}, IM_COL32(200, 200, 200, 160));
    dl->AddText({float(t.pos) + ui.px(3), at.y + ui.px(1)}, IM_COL32(200, 200, 200, 255), t.label.c_str());
  }
  // The findings' ranges: an amber bar each just above the phases (the
  // selected one brighter), at least 3 px wide so an instant shows.
  const findings::Finding* hovered_finding = nullptr;
  if (!ui.findings.empty()) {
    const float fy1 = at.y + height - phase_strip(ui) - ui.px(1), fy0 = fy1 - ui.px(4);
    dl->PushClipRect({ui.time_x0, fy0}, {ui.time_x1, fy1}, true);
    for (std::size_t i = 0; i < ui.findings.size(); ++i) {
      const findings::Finding& f = ui.findings[i];
      const auto x0 = static_cast<float>(map.to_x(static_cast<double>(f.from)));
      const auto x1 = std::max(x0 + ui.px(3), static_cast<float>(map.to_x(static_cast<double>(f.to))));
      if (x1 < ui.time_x0 || x0 > ui.time_x1) continue;
      const bool selected = ui.finding_selected == i;
      dl->AddRectFilled({x0, fy0}, {x1, fy1}, selected ? IM_COL32(255, 200, 90, 255) : IM_COL32(230, 160, 60, 150));
      if (mouse.y >= fy0 - ui.px(2) && mouse.y < fy1 + ui.px(2) && mouse.x >= x0 && mouse.x < x1) hovered_finding = &f;
    }
    dl->PopClipRect();
  }
  ImGui::SetCursorScreenPos({ui.time_x0, at.y});
  ImGui::InvisibleButton("ruler", {std::max(1.0f, ui.time_x1 - ui.time_x0), height});
  if (ImGui::IsItemHovered() && hovered_finding)
    ImGui::SetTooltip("%s: %s\n%s\n(the Findings tab has its why and parameter)", hovered_finding->pool.c_str(),
                      hovered_finding->rule.c_str(), hovered_finding->summary.c_str());
  else if (ImGui::IsItemHovered() && hovered_phase)
    ImGui::SetTooltip("phase %s: %s arrivals, %s to %s", hovered_phase->name.c_str(), hovered_phase->kind.c_str(),
                      plot::format_time(static_cast<double>(hovered_phase->start)).c_str(),
                      plot::format_time(static_cast<double>(hovered_phase->end)).c_str());
  else if (ImGui::IsItemHovered())
    ImGui::SetTooltip("%s", cx.replay ? "click or drag to move the replay cursor; wheel: zoom"
                                      : "wheel: zoom · drag: pan · double-click: show everything");
  if (cx.replay) {
    // The replay cursor follows the mouse while the ruler is held: a drag
    // scrubs, so it must not also pan the view (the cursor would stay put
    // under the mouse). The wheel still zooms; the plots still pan.
    if (ImGui::IsItemActive()) {
      ui.scrubbing = true;
      const float x = std::clamp(ImGui::GetIO().MousePos.x, ui.time_x0, ui.time_x1);
      cx.replay->seek(static_cast<std::int64_t>(map.to_t(x)));
    }
    navigate(cx, true, false);
    const auto x = static_cast<float>(map.to_x(static_cast<double>(cx.frame.now)));
    if (x >= ui.time_x0 && x <= ui.time_x1) {
      const float r = (height - phase_strip(ui)) * 0.35f;
      dl->AddTriangleFilled({x - r, at.y}, {x + r, at.y}, {x, at.y + r * 1.4f}, col(ui.palette().cursor));
    }
  } else {
    navigate(cx, true);
  }
  if (ui.hover_x) {
    std::string label = plot::format_time(map.to_t(*ui.hover_x));
    ImVec2 size = ImGui::CalcTextSize(label.c_str());
    float x = std::min(*ui.hover_x + ui.px(4), ui.time_x1 - size.x - ui.px(4));
    dl->AddRectFilled({x - ui.px(2), at.y}, {x + size.x + ui.px(2), at.y + height}, IM_COL32(70, 70, 80, 255));
    dl->AddText({x, at.y + ui.px(1)}, IM_COL32(255, 255, 255, 255), label.c_str());
  }
}

void TimelineView::draw(Context& cx) {
  Ui& ui = cx.ui;
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  // The names' column: the longest pool name whole where it fits in 190 px
  // (at scale 1; a longer one is cut, its tooltip whole), beside its swatch.
  float name_w = 0;
  for (const metrics::PoolMetrics& p : cx.frame.metrics.pools())
    name_w = std::max(name_w, ImGui::CalcTextSize(p.info().name.c_str()).x);
  ui.gutter = std::clamp(name_w + ui.px(22), ui.px(110), ui.px(190));
  ui.time_x0 = origin.x + ui.gutter;
  ui.time_x1 = std::max(ui.time_x0 + 50, origin.x + avail.x - ui.px(12));
  ui.axis.update(static_cast<double>(cx.frame.now));
  ui.ticks = plot::time_ticks(ui.map(), ui.px(110));
  const ImVec2 mouse = ImGui::GetIO().MousePos;
  ui.hover_x.reset();
  if (ImGui::IsWindowHovered(ImGuiHoveredFlags_ChildWindows | ImGuiHoveredFlags_AllowWhenBlockedByActiveItem) &&
      mouse.x >= ui.time_x0 && mouse.x <= ui.time_x1)
    ui.hover_x = mouse.x;

  const float ruler_h = ImGui::GetTextLineHeight() + ui.px(6) + phase_strip(ui);
  const auto pools = static_cast<float>(cx.frame.metrics.pools().size());
  const float marker_row = ui.px(22);
  const float markers_h = pools * marker_row + ImGui::GetTextLineHeightWithSpacing() + ui.px(4);
  // Plots at 0 for every pool fold to a line; the others share half the
  // room left (more when the lanes have little to show), 44 to 220 px each,
  // a plot split per pool taking half that per pool.
  float shown = 0, folded = 0;
  for (Counter c : kCounters) {
    if (!ui.plots_shown[static_cast<std::size_t>(c)]) continue;
    if (ui.fold_empty_plots && PlotsView::empty(cx.frame, c))
      folded += 1;
    else
      shown += PlotsView::weight(ui, PlotsView::pools_shown(ui, cx.frame, c), c);
  }
  // The lanes keep room for a pool's first rows at least (a projector at 1280x720).
  const float rest = avail.y - ruler_h - markers_h - folded * PlotsView::folded_height(ui);
  const float lanes_min = ui.px(110);
  const float plot_h =
      shown > 0 ? std::clamp(std::min(rest * (ui.presentation ? 0.65f : 0.55f), rest - lanes_min) / shown, ui.px(26), ui.px(220)) : 0;

  float y = origin.y;
  ruler(cx, {origin.x, y}, ruler_h);
  y += ruler_h + ui.px(2);
  const float items_top = y;
  y += plots_.draw(cx, y, plot_h);
  ui.plots_y0 = items_top;
  ui.plots_y1 = y;
  y += markers_.draw(cx, y, marker_row);
  // Plots and marker rows: one surface for zooming and panning.
  ImGui::SetCursorScreenPos({ui.time_x0, items_top});
  ImGui::InvisibleButton("plots", {std::max(1.0f, ui.time_x1 - ui.time_x0), std::max(1.0f, y - items_top)});
  // Shift+drag selects a time range (its statistics open in a window); a plain drag pans.
  {
    ImGuiIO& io = ImGui::GetIO();
    const auto t = static_cast<std::int64_t>(ui.map().to_t(std::clamp(io.MousePos.x, ui.time_x0, ui.time_x1)));
    if (ImGui::IsItemActivated() && io.KeyShift) ui.range_anchor = t;
    if (ui.range_anchor && ImGui::IsItemActive() && *ui.range_anchor != t)
      ui.range = std::pair{std::min(*ui.range_anchor, t), std::max(*ui.range_anchor, t)};
    if (!ImGui::IsItemActive()) ui.range_anchor.reset();
    if (ImGui::IsItemHovered() && !ImGui::IsItemActive() && io.KeyShift)
      ImGui::SetTooltip("Shift+drag: select a time range, for its statistics per pool");
  }
  navigate(cx, true);
  ImGui::SetCursorScreenPos({origin.x, y});
  lanes_.draw(cx, y, origin.y + avail.y - y);
}

}  // namespace poolscope::gui
