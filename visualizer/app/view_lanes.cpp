// Worker lanes: per pool, one row per worker, from its spawn to its exit.
// Grey while it is alive and idle, its pool's colour while it runs a task
// (magenta if the task threw), white from the moment it is reaped until it
// exits. So LIFO reuse (fasthttp, ants: the same few lanes busy, the rest
// idle until reaped) and FIFO hand-off (gammazero: every lane takes its turn)
// show at a glance. Tasks the submitting thread ran itself (Java's
// CallerRunsPolicy: worker 0) get a "caller" lane above the pool's workers.
// Rows scroll and fold per pool, only the rows on screen are drawn, and each
// row only the slices in view (merged below a pixel).
#include <algorithm>
#include <limits>
#include <cmath>
#include <cstdio>

#include "visualizer/app/draw.h"
#include "visualizer/app/views.h"
#include "visualizer/model/describe.h"

namespace poolscope::gui {

namespace {

struct Life {
  std::int64_t begin, end, reaped;  // reaped < 0: not (yet, at `now`)
};

Life life(const metrics::WorkerLane& lane, std::int64_t now) {
  std::int64_t begin = lane.spawned >= 0 ? lane.spawned : lane.slices.empty() ? 0 : lane.slices.front().start;
  std::int64_t end = lane.exited >= 0 && lane.exited <= now ? lane.exited : now;
  std::int64_t reaped = lane.reaped >= 0 && lane.reaped <= now ? lane.reaped : -1;
  return {begin, end, reaped};
}

// "task 12: 1.2 s to 1.3 s (100 ms)", for the task under the mouse.
void task_line(const metrics::TaskSlice& s, std::int64_t now) {
  const std::int64_t end = plot::slice_end(s, now);
  ImGui::Text("task %llu: %s to %s (%s)%s", static_cast<unsigned long long>(s.task), at_time(s.start).c_str(),
              s.end >= 0 && s.end <= now ? at_time(s.end).c_str() : "running", at_time(end - s.start).c_str(),
              s.threw ? ", threw" : "");
}

void lane_tooltip(const metrics::WorkerLane& lane, const Life& l, std::int64_t t, std::int64_t now, float wrap,
                  const metrics::TaskSlice* slice, const TaskFlow* flow) {
  ImGui::BeginTooltip();
  ImGui::Text("worker %u: %zu tasks", lane.id, lane.slices.size());
  if (lane.spawned >= 0) {
    ImGui::Text("spawned at %s", at_time(lane.spawned).c_str());
    if (lane.spawn_rule != kNoLabel) dim(describe_rule(lane.spawn_rule), wrap);
  }
  if (l.reaped >= 0) {
    ImGui::Text("reaped at %s, after %s idle", at_time(lane.reaped).c_str(), at_time(lane.idle_before_reap).c_str());
    if (lane.reap_rule != kNoLabel) dim(describe_rule(lane.reap_rule), wrap);
  }
  if (lane.exited >= 0 && lane.exited <= now) {
    ImGui::Text("exited at %s", at_time(lane.exited).c_str());
    if (lane.exit_rule != kNoLabel) dim(describe_rule(lane.exit_rule), wrap);
  }
  ImGui::Separator();
  if (slice) {
    task_line(*slice, now);
    if (flow) {
      ImGui::TextUnformatted(flow_line(*flow).c_str());
      if (flow->handoff != kNoLabel) dim("handed over: " + describe_rule(flow->handoff), wrap);
    }
    ImGui::TextDisabled("click: keep its arrow (W: every task's)");
  } else if (t >= l.begin && t <= l.end) {
    ImGui::TextUnformatted(l.reaped >= 0 && t >= l.reaped ? "reaped, exiting" : "idle");
  }
  ImGui::EndTooltip();
}

void caller_tooltip(const metrics::WorkerLane& lane, Label rule, std::int64_t t, std::int64_t now, float wrap) {
  ImGui::BeginTooltip();
  const auto ran = static_cast<std::size_t>(
      std::partition_point(lane.slices.begin(), lane.slices.end(), [&](const auto& s) { return s.start <= now; }) -
      lane.slices.begin());
  ImGui::Text("the caller: %zu tasks run by the submitting thread itself", ran);
  dim(rule != kNoLabel ? describe_rule(rule)
                       : "the pool handed these tasks back to the thread that submitted them (worker 0)",
      wrap);
  ImGui::Separator();
  if (auto i = plot::slice_at<metrics::TaskSlice>(lane.slices, now, t)) {
    task_line(lane.slices[*i], now);
    dim("meanwhile it submits nothing: the arrivals wait (back-pressure)", wrap);
  } else {
    ImGui::TextDisabled("submitting");
  }
  ImGui::EndTooltip();
}


// A thread the scheduler may run next (the Scheduler panel, at a decision):
// its lane outlined in amber, no pool's colour, and the key that picks it at
// the lane's right end; brighter while its row in the panel is hovered.
void choice_lane(Context& cx, ImDrawList* dl, std::size_t pool, WorkerId worker, float top, float bottom) {
  const Ui& ui = cx.ui;
  for (const Ui::ChoiceLane& c : ui.choice_lanes) {
    if (c.pool != pool || c.worker != worker) continue;
    const ImU32 amber = c.hovered ? IM_COL32(255, 214, 90, 255) : IM_COL32(255, 214, 90, 170);
    dl->AddRect({ui.time_x0 - ui.px(2), top - 1}, {ui.time_x1 + ui.px(2), bottom + 1}, amber, 0, 0,
                ui.px(c.hovered ? 2.5f : 1.5f));
    const std::string key = std::to_string(c.number);
    const ImVec2 size = ImGui::CalcTextSize(key.c_str());
    const ImVec2 at{ui.time_x1 - size.x - ui.px(8), (top + bottom - size.y) * 0.5f};
    dl->AddRectFilled({at.x - ui.px(4), at.y - 1}, {at.x + size.x + ui.px(4), at.y + size.y + 1}, amber, ui.px(3));
    dl->AddText(at, IM_COL32(20, 16, 8, 255), key.c_str());
  }
}

}  // namespace

void LanesView::draw(Context& cx, float y, float height) {
  Ui& ui = cx.ui;
  const auto& pools = cx.frame.metrics.pools();
  const plot::Palette& palette = ui.palette();
  const plot::TimeMap map = ui.map();
  const std::int64_t now = cx.frame.now;
  const float header_h = ImGui::GetTextLineHeight() + ui.px(6);
  const float wrap = ui.px(460);

  // Which workers get a row: those spawned by now (the replay cursor), and
  // with lanes_alive_only, alive somewhere in the view.
  rows_.resize(pools.size());
  for (std::size_t p = 0; p < pools.size(); ++p) {
    Rows& r = rows_[p];
    r.lanes.clear();
    r.alive = r.ever = r.callers = 0;
    // The callers' lanes: those that ran a task by now (and in view, with lanes_alive_only).
    if (p < cx.frame.index.pools())
      for (const metrics::WorkerLane& lane : cx.frame.index.pool(p).callers) {
        if (lane.slices.empty() || lane.slices.front().start > now) continue;
        if (ui.lanes_alive_only) {
          // A lane's slices never overlap: their ends rise with their starts.
          auto first = std::partition_point(lane.slices.begin(), lane.slices.end(), [&](const metrics::TaskSlice& sl) {
            return static_cast<double>(plot::slice_end(sl, now)) < map.t0;
          });
          if (first == lane.slices.end() || first->start > now || static_cast<double>(first->start) > map.t1) continue;
        }
        r.lanes.push_back(&lane);
        ++r.callers;
      }
    for (const metrics::WorkerLane& lane : pools[p].lanes()) {
      Life l = life(lane, now);
      if (l.begin > now) continue;
      ++r.ever;
      if (lane.exited < 0 || lane.exited > now) ++r.alive;
      if (ui.lanes_alive_only && (static_cast<double>(l.end) < map.t0 || static_cast<double>(l.begin) > map.t1))
        continue;
      r.lanes.push_back(&lane);
    }
    // Spawn order, or exit order: the workers that left first on top, those
    // still alive (as of now) below, so a drain reads as a staircase.
    const auto workers = r.lanes.begin() + static_cast<std::ptrdiff_t>(r.callers);
    if (ui.lanes_by_exit) {
      auto exit_key = [&](const metrics::WorkerLane* w) {
        return w->exited >= 0 && w->exited <= now ? w->exited : std::numeric_limits<std::int64_t>::max();
      };
      std::stable_sort(workers, r.lanes.end(), [&](const metrics::WorkerLane* a, const metrics::WorkerLane* b) {
        const auto ka = exit_key(a), kb = exit_key(b);
        return ka != kb ? ka < kb : a->spawned < b->spawned;
      });
    } else {
      std::stable_sort(workers, r.lanes.end(), [](const metrics::WorkerLane* a, const metrics::WorkerLane* b) {
        return a->spawned < b->spawned;
      });
    }
  }
  // Rows shrink (down to 3 px) to fit the panel before it has to scroll. Each
  // pool gets a fair share of the room, so one with thousands of workers
  // (spawn) does not squeeze the one with eight: pools with the fewest rows
  // take what they need first and leave the rest to the others.
  std::vector<std::size_t> order;
  for (std::size_t p = 0; p < pools.size(); ++p)
    if (!ui.lanes_collapsed.contains(p)) order.push_back(p);
  std::sort(order.begin(), order.end(), [&](auto a, auto b) { return rows_[a].lanes.size() < rows_[b].lanes.size(); });
  float room = height - static_cast<float>(pools.size()) * header_h - ui.px(8);
  const float tallest = std::max(ui.px(3), std::round(ui.px(ui.lane_height)));
  // A caller lane never shrinks below its label: there are one or two, and they are the point.
  const float caller_h = std::round(std::max(tallest, ImGui::GetTextLineHeight() + ui.px(2)));
  for (std::size_t p : order) room -= caller_h * static_cast<float>(rows_[p].callers);
  for (std::size_t k = 0; k < order.size(); ++k) {
    Rows& r = rows_[order[k]];
    const std::size_t workers = r.lanes.size() - r.callers;
    const float share = room / static_cast<float>(order.size() - k);
    const float fit = workers == 0 ? tallest : std::floor(share / static_cast<float>(workers));
    r.row_h = std::clamp(fit, ui.px(3), tallest);
    r.caller_h = caller_h;
    room -= r.row_h * static_cast<float>(workers);
  }

  ImGui::SetCursorScreenPos({ImGui::GetCursorScreenPos().x, y});
  ImGui::BeginChild("lanes", {0, std::max(height, ui.px(60))}, false, ImGuiWindowFlags_NoScrollWithMouse);
  // The wheel scrolls the rows; with Ctrl it zooms, as it does everywhere else.
  ImGuiIO& io = ImGui::GetIO();
  const bool hovered = ImGui::IsWindowHovered();
  if (hovered && io.MouseWheel != 0 && !io.KeyCtrl) ImGui::SetScrollY(ImGui::GetScrollY() - io.MouseWheel * ui.px(40));

  ImDrawList* dl = ImGui::GetWindowDrawList();
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  const float clip_top = ImGui::GetWindowPos().y, clip_bottom = clip_top + ImGui::GetWindowHeight();
  const ImVec2 mouse = io.MousePos;
  clip_top_ = clip_top;
  clip_bottom_ = clip_bottom;
  header_y_.assign(pools.size(), 0);
  row_y_.resize(pools.size());
  std::optional<std::pair<std::size_t, TaskId>> hovered_task;
  float cy = origin.y;
  // The pools a lesson's step points at (Ui::lesson_highlights): their header and rows framed in amber.
  std::vector<std::pair<float, float>> lit;
  auto lit_from = [&](std::size_t p) {
    for (const Ui::LessonHighlight& h : ui.lesson_highlights)
      if (h.what == Ui::LessonHighlight::lane && h.pool == pools[p].info().name) return cy;
    return -1.0f;
  };
  for (std::size_t p = 0; p < pools.size(); ++p) {
    const metrics::PoolMetrics& pool = pools[p];
    const Rows& rows = rows_[p];
    if (const float from = lit_from(p); from >= 0) lit.emplace_back(from, -1);
    struct Close {  // the block ends where the pool's rows do, folded or not
      std::vector<std::pair<float, float>>& lit;
      const float& cy;
      bool mine;
      ~Close() {
        if (mine) lit.back().second = cy;
      }
    } close{lit, cy, !lit.empty() && lit.back().second < 0};
    header_y_[p] = cy + header_h * 0.5f;
    row_y_[p].clear();
    // The pool's header: fold or unfold its rows.
    const bool folded = ui.lanes_collapsed.contains(p);
    if (cy + header_h >= clip_top && cy <= clip_bottom) {
      ImGui::SetCursorScreenPos({origin.x, cy});
      ImGui::PushID(static_cast<int>(p));
      if (ImGui::InvisibleButton("fold", {ui.time_x0 - origin.x + ui.px(260), header_h})) {
        if (folded)
          ui.lanes_collapsed.erase(p);
        else
          ui.lanes_collapsed.insert(p);
      }
      if (ImGui::IsItemHovered())
        ImGui::SetTooltip("click to %s %s's lanes\nrows: %s (L to switch)", folded ? "unfold" : "fold",
                          pool.info().name.c_str(),
                          ui.lanes_alive_only ? "the workers alive somewhere in view" : "every worker");
      ImGui::PopID();
      const float ty = cy + ui.px(3), th = ImGui::GetTextLineHeight();
      const float ax = origin.x + ui.px(4);
      if (folded)
        dl->AddTriangleFilled({ax, ty + th * 0.2f}, {ax + th * 0.6f, ty + th * 0.5f}, {ax, ty + th * 0.8f},
                              IM_COL32(200, 200, 200, 255));
      else
        dl->AddTriangleFilled({ax, ty + th * 0.25f}, {ax + th * 0.6f, ty + th * 0.25f},
                              {ax + th * 0.3f, ty + th * 0.75f}, IM_COL32(200, 200, 200, 255));
      dl->AddRectFilled({ax + th, ty + th * 0.2f}, {ax + th * 1.6f, ty + th * 0.8f}, col(ui.pool_colour(p)), 2);
      char text[240];
      std::snprintf(text, sizeof text, "%s: %zu workers alive, %zu ever%s", pool.info().name.c_str(), rows.alive,
                    rows.ever, rows.callers > 0 ? "; the caller runs tasks too (top lane)" : "");
      dl->AddText({ax + th * 2, ty}, IM_COL32(230, 230, 230, 255), text);
    }
    cy += header_h;
    if (folded) continue;

    for (std::size_t k = 0; k < rows.lanes.size(); ++k) {
      const metrics::WorkerLane* lane = rows.lanes[k];
      const float row_h = k < rows.callers ? rows.caller_h : rows.row_h;
      const float top = cy, bottom = cy + row_h - (row_h >= ui.px(5) ? 1 : 0);
      cy += row_h;
      if (bottom < clip_top || top > clip_bottom) continue;
      const Life l = life(*lane, now);
      auto x = [&](std::int64_t t) {
        return static_cast<float>(std::clamp<double>(map.to_x(static_cast<double>(t)), ui.time_x0 - 2, ui.time_x1 + 2));
      };
      auto draw_tasks = [&] {  // runs of tasks in the pool's colour; a lone task that threw in palette.threw
        plot::visible_spans<metrics::TaskSlice>(lane->slices, now, map, spans_);
        for (const plot::Span& s : spans_) {
          const bool threw = s.count == 1 && lane->slices[s.first].threw;
          dl->AddRectFilled({s.x0, top}, {s.x1, bottom}, col(threw ? palette.threw : ui.pool_colour(p)));
        }
      };
      const bool row_hovered = hovered && !dragging_ && mouse.y >= top && mouse.y < top + row_h &&
                               mouse.x >= ui.time_x0 && mouse.x <= ui.time_x1;
      if (k < rows.callers) {
        // The submitting thread: labelled whatever the row height, no idle
        // (it is not the pool's), a hairline while it exists, its tasks in the pool's colour.
        char id[24];
        std::snprintf(id, sizeof id, rows.callers > 1 ? "caller %u" : "caller", lane->id);
        const ImVec2 extent = ImGui::CalcTextSize(id);
        dl->AddText({ui.time_x0 - extent.x - ui.px(6), top + (row_h - extent.y) * 0.5f}, IM_COL32(230, 230, 230, 255),
                    id);
        dl->PushClipRect({ui.time_x0, top}, {ui.time_x1, bottom + 1}, true);
        const float mid = std::floor((top + bottom) * 0.5f);
        dl->AddLine({x(l.begin), mid}, {x(now), mid}, col(palette.idle.with_alpha(200)), 1);
        draw_tasks();
        dl->PopClipRect();
        if (row_hovered)
          caller_tooltip(*lane, p < cx.frame.index.pools() ? cx.frame.index.pool(p).caller_rule : kNoLabel,
                         static_cast<std::int64_t>(map.to_t(mouse.x)), now, wrap);
        continue;
      }
      row_y_[p].emplace_back(lane->id, (top + bottom) * 0.5f);
      if (row_h >= ImGui::GetTextLineHeight() * 0.8f) {
        char id[16];
        std::snprintf(id, sizeof id, "w%u", lane->id);
        ImVec2 size = ImGui::CalcTextSize(id);
        dl->AddText({ui.time_x0 - size.x - ui.px(6), top + (row_h - size.y) * 0.5f}, IM_COL32(150, 150, 160, 255), id);
      }
      dl->PushClipRect({ui.time_x0, top}, {ui.time_x1, bottom + 1}, true);
      // Alive: idle until reaped, then reaped until it exits.
      const std::int64_t idle_end = l.reaped >= 0 ? l.reaped : l.end;
      dl->AddRectFilled({x(l.begin), top}, {x(idle_end), bottom}, col(palette.idle));
      if (l.reaped >= 0)
        dl->AddRectFilled({x(l.reaped), top}, {std::max(x(l.end), x(l.reaped) + 2), bottom}, col(palette.reaped));
      draw_tasks();
      dl->PopClipRect();
      // The worker hovered here or in the marker rows: its whole row outlined.
      if (ui.hovered_worker && ui.hovered_worker->first == p && ui.hovered_worker->second == lane->id)
        dl->AddRect({ui.time_x0 - ui.px(2), top - 1}, {ui.time_x1 + ui.px(2), bottom + 1},
                    IM_COL32(255, 255, 255, 220), 0, 0, ui.px(1.5f));
      choice_lane(cx, dl, p, lane->id, top, bottom);
      if (row_hovered) {
        ui.hovering_worker = std::pair{p, lane->id};
        const auto i = plot::slice_at<metrics::TaskSlice>(lane->slices, now, static_cast<std::int64_t>(map.to_t(mouse.x)));
        const metrics::TaskSlice* slice = i ? &lane->slices[*i] : nullptr;
        if (slice) hovered_task = std::pair{p, slice->task};
        lane_tooltip(*lane, l, static_cast<std::int64_t>(map.to_t(mouse.x)), now, wrap, slice,
                     slice ? cx.frame.index.flows().find(p, slice->task) : nullptr);
      }
    }
  }
  for (const auto& [top, bottom] : lit)
    dl->AddRect({origin.x + ui.px(1), top + 1}, {ui.time_x1 + ui.px(2), bottom - 1}, IM_COL32(255, 200, 80, 230), 3, 0,
                ui.px(2));
  // The rows' full height, for the scroll bar; then the lines across what is visible.
  ImGui::SetCursorScreenPos({origin.x, cy});
  ImGui::Dummy({1, ui.px(4)});
  dl->PushClipRect({ui.time_x0, clip_top}, {ui.time_x1, clip_bottom}, true);
  time_lines(cx, dl, clip_top, clip_bottom);
  dl->PopClipRect();
  draw_flows(cx, hovered_task);

  // A click (not a drag) on a task keeps its arrow; elsewhere on the lanes, lets it go.
  if (hovered && ImGui::IsMouseReleased(0) && io.MouseDragMaxDistanceSqr[0] < ui.px(4) * ui.px(4) &&
      mouse.x >= ui.time_x0)
    ui.flow_selected = hovered_task;

  // Drag to pan, double-click to show everything, Ctrl+wheel to zoom.
  if (hovered && ImGui::IsMouseClicked(0) && mouse.x >= ui.time_x0) dragging_ = true;
  if (!ImGui::IsMouseDown(0)) dragging_ = false;
  if (dragging_ && io.MouseDelta.x != 0) ui.axis.pan(-io.MouseDelta.x * map.ns_per_px());
  if (hovered && io.KeyCtrl && io.MouseWheel != 0) ui.axis.zoom(std::pow(0.8, io.MouseWheel), map.to_t(mouse.x));
  if (hovered && ImGui::IsMouseDoubleClicked(0) && mouse.x >= ui.time_x0) fit_all(cx);
  ImGui::EndChild();
}

}  // namespace poolscope::gui
