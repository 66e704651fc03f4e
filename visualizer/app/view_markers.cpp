// Marker rows, one per pool: on the upper track spawns (▲) and reaps (▼,
// coloured by the mechanism that reaped: cleaner pass, purge tick, idle
// tick, keep-alive ...); on the lower track refusals (×), throws (●) and
// drops (◆); the pool's own events (cleaner passes, tuning, state changes)
// as ticks across the row. Markers closer than a glyph share one; hovering
// it lists what happened and the rule behind each.
#include <algorithm>
#include <optional>

#include "visualizer/app/draw.h"
#include "visualizer/app/views.h"
#include "visualizer/model/describe.h"

namespace poolscope::gui {

namespace {

// Which glyph, where, in what colour.
struct Look {
  Glyph glyph;
  bool lower;  // the lower track
  plot::Rgba colour;
};

Look look(const plot::Palette& pal, const metrics::Marker& m, plot::Rgba pool) {
  switch (m.kind) {
    case EventKind::worker_spawned:
      return {Glyph::up, false, pool};
    case EventKind::worker_reaped:  // each mechanism has its own colour, the same in every run
      return {Glyph::down, false, pal.mechanism(label_code(m.rule))};
    case EventKind::task_refused:
      return {Glyph::cross, true, pal.refused};
    case EventKind::task_threw:
      return {Glyph::dot, true, pal.threw};
    default:  // drops
      return {Glyph::diamond, true, pal.refused};
  }
}

// At most this many markers of a shared glyph are looked at for their kinds.
constexpr std::size_t kSample = 24;

}  // namespace

float MarkersView::draw(Context& cx, float y, float row_height) {
  Ui& ui = cx.ui;
  const auto& pools = cx.frame.metrics.pools();
  const plot::TimeMap map = ui.map();
  const plot::Palette& palette = ui.palette();
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const ImVec2 mouse = ImGui::GetIO().MousePos;
  const float r = row_height * 0.2f, cell = 2.4f * r, wrap = ui.px(460);
  const float top = y;
  // The run's reaping mechanisms, for the legend: pool by pool, in the order they fired.
  mechanisms_.clear();
  for (std::size_t p = 0; p < pools.size(); ++p)
    for (Label rule : cx.frame.index.pool(p).reap_rules)
      if (std::none_of(mechanisms_.begin(), mechanisms_.end(),
                       [&](Label seen) { return label_code(seen) == label_code(rule); }))
        mechanisms_.push_back(rule);  // designs may share a code (keep-alive): one legend entry

  for (std::size_t p = 0; p < pools.size(); ++p) {
    const metrics::PoolMetrics& pool = pools[p];
    const PoolIndex& ix = cx.frame.index.pool(p);
    const ImVec2 r0{ui.time_x0, y}, r1{ui.time_x1, y + row_height - ui.px(2)};
    dl->AddRectFilled(r0, r1, IM_COL32(28, 28, 33, 255));
    const float left = ui.time_x0 - ui.gutter;  // the names' column: swatch, then name
    dl->AddRectFilled({left + ui.px(4), y + ui.px(5)}, {left + ui.px(14), y + ui.px(15)}, col(ui.pool_colour(p)), 2);
    // The pool's name: the plots' legend. Click hides the pool in every
    // plot (or shows it again), Ctrl+click shows only it.
    const bool hidden = ui.pools_hidden.count(p) > 0;
    {
      const ImVec2 n0{left + ui.px(2), y}, n1{ui.time_x0 - ui.px(4), r1.y};
      const float name_w = n1.x - n0.x - ui.px(16);
      dl->PushClipRect(n0, n1, true);
      const std::string& name = pool.info().name;
      std::string shown_name = name;
      if (ImGui::CalcTextSize(name.c_str()).x > name_w) {
        while (!shown_name.empty() && ImGui::CalcTextSize((shown_name + "…").c_str()).x > name_w) {
          shown_name.pop_back();
          while (!shown_name.empty() && (static_cast<unsigned char>(shown_name.back()) & 0xC0) == 0x80)
            shown_name.pop_back();
        }
        shown_name += "…";
      }
      dl->AddText({left + ui.px(18), y + ui.px(2)},
                  hidden ? IM_COL32(110, 110, 110, 255) : IM_COL32(220, 220, 220, 255), shown_name.c_str());
      dl->PopClipRect();
      ImGui::SetCursorScreenPos(n0);
      ImGui::PushID(static_cast<int>(p));
      ImGui::InvisibleButton("legend", {n1.x - n0.x, std::max(1.0f, n1.y - n0.y)});
      if (ImGui::IsItemClicked(0)) {
        if (ImGui::GetIO().KeyCtrl) {
          ui.pools_hidden.clear();
          for (std::size_t q = 0; q < pools.size(); ++q)
            if (q != p) ui.pools_hidden.insert(q);
        } else if (hidden) {
          ui.pools_hidden.erase(p);
        } else {
          ui.pools_hidden.insert(p);
        }
      }
      if (ImGui::IsItemHovered())
        ImGui::SetTooltip("%s (%s)%s\nclick: %s it in the plots; Ctrl+click: only it", name.c_str(),
                          pool.info().design.c_str(), hidden ? ", hidden in the plots" : "", hidden ? "show" : "hide");
      ImGui::PopID();
    }
    if (hidden)
      dl->AddLine({left + ui.px(3), y + ui.px(10)}, {left + ui.px(15), y + ui.px(10)}, IM_COL32(20, 20, 20, 255),
                  ui.px(2));
    const bool hovered_row =
        mouse.y >= r0.y && mouse.y < r1.y && ImGui::IsWindowHovered() && !ImGui::IsMouseDragging(0);
    std::optional<plot::Bucket> hover;
    int hover_row = 0;

    dl->PushClipRect({r0.x - r, r0.y}, {r1.x + r, r1.y}, true);
    time_lines(cx, dl, r0.y, r1.y);
    const std::int64_t end = cx.frame.replay ? cx.frame.now : std::max(cx.frame.now, pool.last_time());
    for (int row = 0; row < kMarkerRowCount; ++row) {
      const auto& ids = ix.markers[static_cast<std::size_t>(row)];
      plot::bucket_markers(ix.marker_times[static_cast<std::size_t>(row)], end, map, cell, buckets_);
      for (const plot::Bucket& b : buckets_) {
        if (static_cast<MarkerRow>(row) == MarkerRow::pool) {
          dl->AddLine({b.x, r0.y + ui.px(1)}, {b.x, r1.y - ui.px(1)}, col(palette.pool_event, 0.5f), ui.px(1));
          continue;
        }
        // Each kind present among the first markers gets its glyph, side by side.
        unsigned seen = 0;
        float dx = 0;
        for (std::size_t k = 0; k < std::min(b.count, kSample); ++k) {
          const metrics::Marker& m = pool.markers()[ids[b.first + k]];
          if (m.kind == EventKind::worker_exited) continue;  // the lane shows where a worker ends
          const unsigned bit = 1u << static_cast<unsigned>(m.kind);
          if (seen & bit) continue;
          seen |= bit;
          Look l = look(palette, m, ui.pool_colour(p));
          const float gy = l.lower ? r0.y + (r1.y - r0.y) * 0.72f : r0.y + (r1.y - r0.y) * 0.3f;
          glyph(dl, l.glyph, {b.x + dx, gy}, b.count > 1 ? r * 1.15f : r, col(l.colour));
          // A rule a lesson's step points at: its markers ringed in amber (Ui::lesson_highlights).
          if (m.rule != kNoLabel)
            for (const Ui::LessonHighlight& h : ui.lesson_highlights)
              if (h.what == Ui::LessonHighlight::rule && h.name == label_code(m.rule) &&
                  (h.pool.empty() || h.pool == pool.info().name))
                dl->AddCircle({b.x + dx, gy}, r * 1.7f, IM_COL32(255, 200, 80, 230), 16, ui.px(1.5f));
          if (b.count == 1 && ui.hovered_worker && ui.hovered_worker->first == p && m.worker != 0 &&
              ui.hovered_worker->second == m.worker)
            dl->AddCircle({b.x + dx, gy}, r * 1.9f, IM_COL32(255, 255, 255, 230), 16, ui.px(1.5f));
          dx += r * 1.2f;
        }
        // A merged reap glyph says how many it stands for, and by which
        // mechanism when there is one and room before the next glyph:
        // "48 cleaner-pass". Counted over at most 2,048 markers a cell.
        if (b.count > 1 && static_cast<MarkerRow>(row) == MarkerRow::workers) {
          std::size_t reaps = 0;
          Label rule = kNoLabel;
          bool one_rule = true;
          const std::size_t scan = std::min<std::size_t>(b.count, 2048);
          for (std::size_t k = 0; k < scan; ++k) {
            const metrics::Marker& m = pool.markers()[ids[b.first + k]];
            if (m.kind != EventKind::worker_reaped) continue;
            ++reaps;
            if (rule == kNoLabel) rule = m.rule;
            one_rule = one_rule && label_code(m.rule) == label_code(rule);
          }
          if (reaps > 1) {
            const float next = &b + 1 < buckets_.data() + buckets_.size() ? (&b + 1)->x : r1.x;
            std::string text = std::to_string(reaps) + (scan < b.count ? "+" : "");
            const std::string full = one_rule ? text + " " + std::string(label_code(rule)) : text;
            if (ImGui::CalcTextSize(full.c_str()).x + dx + r < next - b.x) text = full;
            const float room = next - b.x - dx - r * 0.5f;
            if (ImGui::CalcTextSize(text.c_str()).x < room || room > ui.px(12)) {
              // The draw list's clip only: ImGui::PopClipRect would leave the
              // window's clip at the row's, and hide the lanes below.
              dl->PushClipRect({b.x, r0.y}, {std::max(b.x + 1, next - ui.px(2)), r1.y}, true);
              dl->AddText({b.x + dx - r * 0.2f, r0.y - ui.px(1)}, IM_COL32(235, 235, 235, 255), text.c_str());
              dl->PopClipRect();
            }
          }
        }
      }
      if (hovered_row && static_cast<MarkerRow>(row) != MarkerRow::pool) {
        const bool lower = static_cast<MarkerRow>(row) == MarkerRow::tasks;
        if (lower == (mouse.y > (r0.y + r1.y) * 0.5f))
          if (const plot::Bucket* b = plot::bucket_at(buckets_, mouse.x, cell)) {
            hover = *b;
            hover_row = row;
          }
      }
      if (hovered_row && !hover && static_cast<MarkerRow>(row) == MarkerRow::pool)
        if (const plot::Bucket* b = plot::bucket_at(buckets_, mouse.x, ui.px(3))) {
          hover = *b;
          hover_row = row;
        }
    }
    dl->PopClipRect();

    if (hover) {
      const auto& ids = ix.markers[static_cast<std::size_t>(hover_row)];
      const auto& first = pool.markers()[ids[hover->first]];
      if (first.worker != 0) ui.hovering_worker = std::pair{p, first.worker};
      const auto& last = pool.markers()[ids[hover->first + hover->count - 1]];
      ImGui::BeginTooltip();
      swatch(ui.pool_colour(p));
      if (hover->count == 1)
        ImGui::Text("%s at %s", pool.info().name.c_str(), plot::format_time(static_cast<double>(first.t)).c_str());
      else
        ImGui::Text("%s: %zu events, %s to %s", pool.info().name.c_str(), hover->count,
                    plot::format_time(static_cast<double>(first.t)).c_str(),
                    plot::format_time(static_cast<double>(last.t)).c_str());
      const std::size_t shown = std::min<std::size_t>(hover->count, 6);
      for (std::size_t k = 0; k < shown; ++k) {
        const metrics::Marker& m = pool.markers()[ids[hover->first + k]];
        ImGui::Separator();
        wrapped((hover->count > 1 ? plot::format_time(static_cast<double>(m.t)) + "  " : "") + describe(m), wrap);
        if (m.rule != kNoLabel) dim(describe_rule(m.rule), wrap);
      }
      if (hover->count > shown) ImGui::TextDisabled("... and %zu more (zoom in)", hover->count - shown);
      ImGui::EndTooltip();
    }
    y += row_height;
  }

  // The legend: glyphs, and the run's reaping mechanisms with their colours,
  // on as many lines as it takes.
  float x = ui.time_x0;
  const float line = ImGui::GetTextLineHeight();
  auto item = [&](Glyph g, plot::Rgba c, const std::string& text) {
    const float width = 2.6f * r + ImGui::CalcTextSize(text.c_str()).x;
    if (x + width > ui.time_x1 && x > ui.time_x0) {
      x = ui.time_x0;
      y += line;
    }
    glyph(dl, g, {x + r, y + line * 0.5f + ui.px(1)}, r, col(c));
    dl->AddText({x + 2.6f * r, y + ui.px(1)}, IM_COL32(180, 180, 190, 255), text.c_str());
    x += width + ui.px(14);
  };
  item(Glyph::up, ui.pool_colour(0), "spawned");
  for (std::size_t i = 0; i < mechanisms_.size(); ++i)
    item(Glyph::down, palette.mechanism(label_code(mechanisms_[i])),
         "reaped: " + std::string(label_code(mechanisms_[i])));
  if (mechanisms_.empty()) item(Glyph::down, palette.mechanism(std::size_t{0}), "reaped");
  item(Glyph::cross, palette.refused, "refused");
  item(Glyph::dot, palette.threw, "threw");
  item(Glyph::diamond, palette.refused, "dropped");
  const char* ticks = "cleaner pass, tune, state";
  if (x + ImGui::CalcTextSize(ticks).x + ui.px(5) > ui.time_x1) {
    x = ui.time_x0;
    y += line;
  }
  dl->AddLine({x, y + ui.px(2)}, {x, y + line}, col(palette.pool_event, 0.7f), ui.px(1));
  dl->AddText({x + ui.px(5), y + ui.px(1)}, IM_COL32(180, 180, 190, 255), ticks);
  y += ImGui::GetTextLineHeightWithSpacing() + ui.px(4);
  return y - top;
}

}  // namespace poolscope::gui
