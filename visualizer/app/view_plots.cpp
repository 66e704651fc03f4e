// Counter plots: one per counter (workers, busy, idle, queued, blocked), each
// pool a step line in its colour, decimated to the pixels it covers. Hovering
// shows every pool's value at that time, and the change nearest the mouse
// with the event behind it and the rule that caused it. With two runs
// compared, run B's counters (its file's buckets) are dashed over A's.
#include <algorithm>
#include <cmath>
#include <span>

#include "scenarios/engine/theory.h"
#include "visualizer/app/draw.h"
#include "visualizer/app/views.h"
#include "visualizer/model/describe.h"
#include "visualizer/model/live.h"
#include "visualizer/model/replay.h"
#include "visualizer/model/sweep_scales.h"

namespace poolscope::gui {

// Queueing theory's prediction for one pool over one phase (docs/theory.md):
// a dashed reference line on the busy and queued plots. (Not in the
// anonymous namespace: PlotsView::Area points to them.)
struct TheoryReference {
  std::string pool;
  std::int64_t t0, t1;
  double busy, queued;
  bool blocking;  // its waiting tasks are blocked submitters: the blocked plot, not the queued one
};

namespace {

// Where pool p's series ends: the replay cursor, or the newest time of a live run.
std::int64_t series_end(const Context& cx, const metrics::PoolMetrics& pool) {
  return cx.frame.replay ? cx.frame.now : std::max(cx.frame.now, pool.last_time());
}

struct Hit {
  std::size_t pool, point;
  float dy;
};

std::vector<TheoryReference> predictions(const scenario::Scenario& s) {
  std::vector<TheoryReference> out;
  const auto phases = theory::phase_models(s);
  for (const theory::Comparison& c : theory::predict(s, phases))
    if (c.predicted && std::isfinite(c.predicted->lq))
      out.push_back({c.pool, phases[c.phase].t0, phases[c.phase].t1, c.predicted->busy, c.predicted->lq,
                     c.capacity.blocking_submitters > 0});
  return out;
}

// The live scenario's predictions are recomputed each frame (it can be
// edited; a prediction costs microseconds); a replay's scenario is parsed once.
std::vector<TheoryReference> references(const Context& cx) {
  try {
    if (cx.live && cx.live->scenario()) return predictions(*cx.live->scenario());
    if (cx.replay) {
      static const Replay* parsed_for = nullptr;
      static std::vector<TheoryReference> cached;
      if (parsed_for != cx.replay) {
        parsed_for = cx.replay;
        cached = predictions(scenario::parse_scenario(cx.replay->file().scenario, "replay", "."));
      }
      return cached;
    }
  } catch (const std::exception&) {
    // A replay whose scenario no longer parses here (a design this build lacks): no reference lines.
  }
  return {};
}

}  // namespace

bool PlotsView::empty(const Frame& f, Counter c) {
  if (f.metrics.pools().empty()) return false;
  for (const metrics::PoolMetrics& p : f.metrics.pools()) {
    const metrics::Summary& t = p.totals();
    const std::uint32_t peak = c == Counter::workers || c == Counter::idle ? t.peak_workers
                               : c == Counter::busy                         ? t.peak_busy
                               : c == Counter::queued                       ? t.peak_queued
                                                                            : t.peak_blocked;
    if (peak > 0) return false;
  }
  return true;
}

float PlotsView::folded_height(const Ui& ui) { return ImGui::GetTextLineHeight() + ui.px(4); }

// One plot's area: the pools it draws on one y-scale (all of them, or one
// when the plot is split), and what every area of the frame shares.
struct PlotsView::Area {
  ImVec2 r0, r1;
  std::span<const std::size_t> pools;
  const std::vector<TheoryReference>* refs;
  const RunComparison* b_run;  // run B, when it is drawn
  double b_t0, b_t1;           // B's buckets drawn: those in view, up to A's cursor (s)
  const SweepSeries* b_series(std::size_t p) const {
    return b_run && p < b_run->pools.size() && b_run->pools[p].b_series ? &*b_run->pools[p].b_series : nullptr;
  }
};

float PlotsView::weight(const Ui& ui, std::size_t pools_shown, Counter c) {
  // Half a plot's height per pool, so five pools split take 2.5 plots' room, a pool 1.25 plots.
  return ui.plot_split[static_cast<std::size_t>(c)] && pools_shown > 1 ? 0.5f * static_cast<float>(pools_shown)
                                                                        : 1.0f;
}

std::size_t PlotsView::pools_shown(const Ui& ui, const Frame& f, Counter c) {
  std::size_t n = 0;
  for (std::size_t p = 0; p < f.metrics.pools().size(); ++p) n += ui.pool_shown(static_cast<std::size_t>(c), p);
  return n;
}

float PlotsView::draw(Context& cx, float y, float height) {
  Ui& ui = cx.ui;
  const auto& pools = cx.frame.metrics.pools();
  const plot::TimeMap map = ui.map();
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const ImVec2 mouse = ImGui::GetIO().MousePos;

  ++frame_;
  std::swap(before_, ranges_);
  if (index_generation_ != cx.frame.index.generation()) before_.clear();  // another run: keep nothing
  index_generation_ = cx.frame.index.generation();
  before_.resize(pools.size());
  ranges_.resize(pools.size());
  columns_.resize(pools.size());
  decimated_in_.resize(pools.size());
  for (std::size_t p = 0; p < pools.size(); ++p)
    plot::column_ranges(cx.frame.index.pool(p).times, series_end(cx, pools[p]), map, ranges_[p]);

  const float top = y;
  const float label_x = ui.time_x0 - ui.gutter + ui.px(4);
  const std::vector<TheoryReference> refs = references(cx);
  Area area{.r0 = {},
            .r1 = {},
            .pools = {},
            .refs = &refs,
            .b_run = ui.overlay_b ? cx.compared : nullptr,
            .b_t0 = std::max(0.0, map.to_t(ui.time_x0)) * 1e-9,
            .b_t1 = std::min(map.to_t(ui.time_x1), static_cast<double>(cx.frame.now)) * 1e-9};
  bool legend_drawn = false;
  for (Counter counter : kCounters) {
    const auto cu = static_cast<std::size_t>(counter);
    if (!ui.plots_shown[cu]) continue;
    // A plot where every pool stayed at 0 the whole run (no queue, nobody
    // blocked) says so in one line instead of taking a plot's room.
    if (ui.fold_empty_plots && empty(cx.frame, counter)) {
      const float h = folded_height(ui);
      dl->AddText({label_x, y + ui.px(1)}, IM_COL32(150, 150, 160, 255), std::string(counter_name(counter)).c_str());
      dl->AddText({ui.time_x0 + ui.px(4), y + ui.px(1)}, IM_COL32(150, 150, 160, 255),
                  "0 for every pool, the whole run (folded)");
      y += h;
      continue;
    }
    std::vector<std::size_t>& shown = shown_;
    shown.clear();
    for (std::size_t p = 0; p < pools.size(); ++p)
      if (ui.pool_shown(cu, p)) shown.push_back(p);
    const float plot_h = height * weight(ui, shown.size(), counter);
    const ImVec2 r0{ui.time_x0, y}, r1{ui.time_x1, y + plot_h - ui.px(3)};
    label_column(cx, counter, label_x, r0, r1, shown.size());
    if (ui.plot_split[cu] && shown.size() > 1) {
      // Small multiples: each pool on its own y-scale, one above another.
      const float each = (r1.y - r0.y + ui.px(2)) / static_cast<float>(shown.size());
      for (std::size_t k = 0; k < shown.size(); ++k) {
        area.r0 = {r0.x, r0.y + each * static_cast<float>(k)};
        area.r1 = {r1.x, area.r0.y + each - ui.px(2)};
        area.pools = std::span(shown).subspan(k, 1);
        draw_area(cx, counter, area);
      }
    } else {
      area.r0 = r0;
      area.r1 = r1;
      area.pools = shown;
      draw_area(cx, counter, area);
    }
    if (area.b_run && !legend_drawn) {
      overlay_legend(ui, dl, *area.b_run, {r1.x, r0.y}, r1.x - r0.x);
      legend_drawn = true;
    }
    // The label's help.
    if (mouse.x >= label_x && mouse.x < r0.x && mouse.y >= r0.y && mouse.y < r1.y && ImGui::IsWindowHovered()) {
      ImGui::BeginTooltip();
      wrapped(std::string(counter_help(counter)), ui.px(460));
      ImGui::TextDisabled("click: log scale on or off; right-click: split per pool, hide or solo pools in this plot");
      ImGui::EndTooltip();
    }
    y += plot_h;
  }
  return y - top;
}

// The label column: the counter's name and notes ("log", "split", how many
// pools are left out) under it. A click toggles the log scale; right-click: the plot's menu.
void PlotsView::label_column(Context& cx, Counter counter, float label_x, ImVec2 r0, ImVec2 r1, std::size_t shown) {
  Ui& ui = cx.ui;
  const auto cu = static_cast<std::size_t>(counter);
  const auto& pools = cx.frame.metrics.pools();
  ImDrawList* dl = ImGui::GetWindowDrawList();
  dl->AddText({label_x, r0.y + ui.px(2)}, IM_COL32(230, 230, 230, 255), std::string(counter_name(counter)).c_str());
  std::string note = ui.plot_log[cu] ? "log" : "";
  if (ui.plot_split[cu] && shown > 1) note += note.empty() ? "split" : ", split";
  if (shown < pools.size()) note += (note.empty() ? "" : ", ") + std::to_string(pools.size() - shown) + " hidden";
  if (!note.empty() && r1.y - r0.y > ImGui::GetTextLineHeight() * 2.2f)
    dl->AddText({label_x, r0.y + ui.px(2) + ImGui::GetTextLineHeight()}, IM_COL32(150, 150, 160, 255), note.c_str());
  ImGui::SetCursorScreenPos({label_x, r0.y});
  ImGui::PushID(static_cast<int>(cu));
  ImGui::InvisibleButton("label", {std::max(1.0f, r0.x - label_x - ui.px(30)), std::max(1.0f, r1.y - r0.y)});
  if (ImGui::IsItemClicked(0)) ui.plot_log[cu] = !ui.plot_log[cu];
  if (ImGui::BeginPopupContextItem("plot menu")) {
    ImGui::Checkbox("log scale", &ui.plot_log[cu]);
    ImGui::Checkbox("split: a small plot per pool, each on its own scale", &ui.plot_split[cu]);
    if (cx.compared) ImGui::Checkbox("run B dashed over A (every plot)", &ui.overlay_b);
    ImGui::Separator();
    for (std::size_t p = 0; p < pools.size(); ++p) {
      bool on = !ui.plot_hidden[cu].count(p);
      swatch(ui.pool_colour(p));
      if (ImGui::Checkbox(pools[p].info().name.c_str(), &on)) {
        if (on)
          ui.plot_hidden[cu].erase(p);
        else
          ui.plot_hidden[cu].insert(p);
      }
      ImGui::SameLine();
      ImGui::PushID(static_cast<int>(p));
      if (ImGui::SmallButton("solo")) {
        ui.plot_hidden[cu].clear();
        for (std::size_t q = 0; q < pools.size(); ++q)
          if (q != p) ui.plot_hidden[cu].insert(q);
      }
      ImGui::PopID();
    }
    if (ImGui::Selectable("show every pool")) ui.plot_hidden[cu].clear();
    ImGui::EndPopup();
  }
  ImGui::PopID();
}

// One area: its pools' step lines on one y-scale with its ticks, B's dashed
// lines, the predictions, and the hover.
void PlotsView::draw_area(Context& cx, Counter counter, const Area& area) {
  Ui& ui = cx.ui;
  const auto cu = static_cast<std::size_t>(counter);
  const auto& pools = cx.frame.metrics.pools();
  const plot::TimeMap map = ui.map();
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const ImVec2 mouse = ImGui::GetIO().MousePos;
  const ImVec2 r0 = area.r0, r1 = area.r1;
  const std::size_t visible = area.pools.size();
  dl->AddRectFilled(r0, r1, IM_COL32(28, 28, 33, 255));

  std::uint32_t highest = 0;
  for (std::size_t p : area.pools) {
    // Columns decimated last frame, from before_, keep what is still in range.
    const bool last_frame = decimated_in_[p][cu] + 1 == frame_;
    plot::decimate_steps(ranges_[p], last_frame ? std::span(before_[p]) : std::span<const plot::ColumnRange>(),
                         cx.frame.index.pool(p).values[cu], columns_[p][cu]);
    decimated_in_[p][cu] = frame_;
    highest = std::max(highest, plot::columns_max(columns_[p][cu]));
    if (const SweepSeries* b = area.b_series(p))
      if (auto peak = peak_between(*b, static_cast<SweepCounter>(counter), area.b_t0, area.b_t1))
        highest = std::max(highest, static_cast<std::uint32_t>(std::ceil(*peak)));
  }
  const plot::ValueMap vm{.vmax = plot::nice_ceiling(highest),
                          .y_top = r0.y + ui.px(3),
                          .y_bottom = r1.y - ui.px(1),
                          .log = ui.plot_log[cu]};
  {
    // From the top down, a label only where it does not overlap the one
    // above (a short plot keeps its top value, not a pile of "250" on "0").
    const auto ticks = plot::value_ticks(vm, ImGui::GetTextLineHeight() * 1.6f);
    float free_from = r0.y - 1e6f;
    for (auto t = ticks.rbegin(); t != ticks.rend(); ++t) {
      const auto ty = static_cast<float>(t->pos);
      dl->AddLine({r0.x, ty}, {r1.x, ty}, IM_COL32(255, 255, 255, 14));
      // Labels stay inside their plot, so neighbouring plots' labels never meet.
      ImVec2 size = ImGui::CalcTextSize(t->label.c_str());
      const float ly = std::clamp(ty - size.y * 0.5f, r0.y, r1.y - size.y);
      if (ly < free_from) continue;
      dl->AddText({r0.x - size.x - ui.px(4), ly}, IM_COL32(150, 150, 160, 255), t->label.c_str());
      free_from = ly + size.y;
    }
  }
  dl->PushClipRect(r0, r1, true);
  time_lines(cx, dl, r0.y, r1.y);
  // Pools with the same values draw one line over another (six pools at
  // 10 in `overload`): each is shifted by a line's width from the next,
  // around the true value, so every colour shows. Hover gives the values.
  const float thick = std::max(1.0f, std::round(ui.px(1.6f)));
  // A short plot shifts them by half a width: every colour still shows a sliver.
  const float step = r1.y - r0.y >= 6 * thick * static_cast<float>(visible) ? thick : thick * 0.5f;
  for (std::size_t k = 0; k < visible; ++k) {
    const std::size_t p = area.pools[k];
    const float shift = visible > 1 && visible <= 10
                            ? step * (static_cast<float>(k) - static_cast<float>(visible - 1) * 0.5f)
                            : 0.0f;
    plot::step_line(columns_[p][cu], vm, line_);
    points_.resize(line_.size());
    for (std::size_t i = 0; i < line_.size(); ++i) points_[i] = {line_[i].x, line_[i].y - shift};
    // A whole number of pixels thick: ImGui then anti-aliases with a texture, half the vertices.
    dl->AddPolyline(points_.data(), static_cast<int>(points_.size()), col(ui.pool_colour(p)), 0, thick);
  }
  // Run B, dashed and thinner in the same colours, at its true values (not shifted).
  for (std::size_t p : area.pools)
    if (const SweepSeries* b = area.b_series(p)) {
      b_step_line(*b, static_cast<SweepCounter>(counter), map, vm, area.b_t0, area.b_t1, points_);
      dashed_polyline(dl, points_.data(), points_.size(), col(ui.pool_colour(p), 0.9f),
                      std::max(1.0f, std::round(ui.px(1.2f))), ui.px(4));
    }
  // The prediction, dashed in the pool's colour over its phase.
  if (counter == Counter::busy || counter == Counter::queued || counter == Counter::blocked)
    for (std::size_t p : area.pools)
      for (const TheoryReference& r : *area.refs) {
        if (r.pool != pools[p].info().name) continue;
        if (counter != Counter::busy && (counter == Counter::blocked) != r.blocking) continue;
        const auto ry = static_cast<float>(vm.to_y(counter == Counter::busy ? r.busy : r.queued));
        const auto x0 = static_cast<float>(map.to_x(static_cast<double>(r.t0)));
        const auto x1 = static_cast<float>(map.to_x(static_cast<double>(r.t1)));
        const float dash = ui.px(6);
        // Each dash on a dark edge, so it reads over the measured step lines.
        for (float x = std::max(x0, r0.x); x < std::min(x1, r1.x); x += 2 * dash) {
          dl->AddLine({x, ry}, {std::min(x + dash, x1), ry}, IM_COL32(10, 10, 12, 230), thick * 3);
          dl->AddLine({x, ry}, {std::min(x + dash, x1), ry}, col(ui.pool_colour(p)), thick * 1.5f);
        }
      }
  // A small multiple names its pool, in its colour, at its top left.
  if (visible == 1 && ui.plot_split[cu]) {
    const std::string& name = pools[area.pools[0]].info().name;
    const ImVec2 at{r0.x + ui.px(4), r0.y + ui.px(1)};
    dl->AddRectFilled({at.x - ui.px(2), at.y}, {at.x + ImGui::CalcTextSize(name.c_str()).x + ui.px(2), at.y + ImGui::GetTextLineHeight()},
                      IM_COL32(20, 20, 24, 150), ui.px(2));
    dl->AddText(at, col(ui.pool_colour(area.pools[0])), name.c_str());
  }
  dl->PopClipRect();

  // Hover: every pool's value here, and the nearest change (among this area's pools) with its event and rule.
  if (mouse.x >= r0.x && mouse.x < r1.x && mouse.y >= r0.y && mouse.y < r1.y && ImGui::IsWindowHovered() &&
      !ImGui::IsMouseDragging(0)) {
    const float wrap = ui.px(460);
    const auto t = static_cast<std::int64_t>(map.to_t(mouse.x));
    std::optional<Hit> hit;
    for (std::size_t p : area.pools) {
      const PoolIndex& ix = cx.frame.index.pool(p);
      auto i = plot::nearest_change(ix.times, series_end(cx, pools[p]), map, mouse.x, ui.px(6));
      if (!i) continue;
      float dy = std::fabs(static_cast<float>(vm.to_y(ix.values[cu][*i])) - mouse.y);
      if (!hit || dy < hit->dy) hit = Hit{p, *i, dy};
    }
    ImGui::BeginTooltip();
    ImGui::Text("%s at %s", std::string(counter_name(counter)).c_str(), plot::format_time(static_cast<double>(t)).c_str());
    if (counter != Counter::workers && counter != Counter::idle && !area.refs->empty())
      ImGui::TextDisabled("dashed, level: queueing theory's prediction for the phase (docs/theory.md)");
    if (area.b_run) ImGui::TextDisabled("dashed, stepped: run B, each bucket's peak (its file's series)");
    for (std::size_t p = 0; p < pools.size(); ++p) {
      const PoolIndex& ix = cx.frame.index.pool(p);
      auto i = t <= series_end(cx, pools[p]) ? plot::point_at(ix.times, t) : std::nullopt;
      swatch(ui.pool_colour(p));
      if (i)
        ImGui::Text("%-14s %u", pools[p].info().name.c_str(), ix.values[cu][*i]);
      else
        ImGui::Text("%-14s -", pools[p].info().name.c_str());
      if (const SweepSeries* b = area.b_series(p); b && t <= cx.frame.now) {
        const auto v = value_at(*b, static_cast<SweepCounter>(counter), static_cast<double>(t) * 1e-9);
        ImGui::SameLine();
        ImGui::TextDisabled(v ? "B %.0f" : "B -", v.value_or(0));
      }
    }
    if (hit) {
      const PoolIndex& ix = cx.frame.index.pool(hit->pool);
      const auto& values = ix.values[cu];
      const float hx = static_cast<float>(map.to_x(static_cast<double>(ix.times[hit->point])));
      const float hy = static_cast<float>(vm.to_y(values[hit->point]));
      dl->AddCircle({hx, hy}, ui.px(4), col(ui.pool_colour(hit->pool)), 12, ui.px(1.5f));
      ImGui::Separator();
      swatch(ui.pool_colour(hit->pool));
      ImGui::Text("%s: %u -> %u at %s", pools[hit->pool].info().name.c_str(),
                  hit->point > 0 ? values[hit->point - 1] : 0u, values[hit->point],
                  plot::format_time(static_cast<double>(ix.times[hit->point])).c_str());
      if (const Event* e = cx.frame.index.event_for_point(pools[hit->pool], hit->point, cx.frame.events)) {
        wrapped(describe(*e), wrap);
        if (e->rule != kNoLabel) dim(describe_rule(e->rule), wrap);
      }
    }
    ImGui::EndTooltip();
  }
}

}  // namespace poolscope::gui
