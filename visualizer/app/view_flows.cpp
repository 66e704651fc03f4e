// Flow arrows over the worker lanes, as Perfetto draws flow events: from the
// moment a task was submitted (a dot on its pool's header, the submitter's
// line) to its start on the lane of the worker that ran it, labelled with the
// queue wait. With every task's arrow in view, LIFO hand-off (fasthttp, ants:
// the arrows converge on the same few lanes) and FIFO (gammazero: they fan
// out over every lane) read at a glance.
#include <algorithm>
#include <cstdio>

#include "visualizer/app/draw.h"
#include "visualizer/app/views.h"
#include "visualizer/model/describe.h"

namespace poolscope::gui {

namespace {

// More arrows than this per pool are a tangle, not a picture.
constexpr std::size_t kMaxFlowsInView = 64;

void arrow(ImDrawList* dl, ImVec2 from, ImVec2 to, ImU32 colour, float thickness, float head) {
  // Down from the submission, then along the lane into the task's start.
  const ImVec2 c1{from.x, to.y}, c2{from.x + (to.x - from.x) * 0.5f, to.y};
  dl->AddCircleFilled(from, thickness * 1.6f, colour);
  dl->AddBezierCubic(from, c1, c2, {to.x - head * 0.5f, to.y}, colour, thickness);
  dl->AddTriangleFilled({to.x, to.y}, {to.x - head, to.y - head * 0.55f}, {to.x - head, to.y + head * 0.55f}, colour);
}

}  // namespace

std::string flow_line(const TaskFlow& f) {
  std::string s = "submitted at " + at_time(f.submitted);
  if (f.started < 0) return s + ", not started yet";
  s += ", waited " + plot::format_short(static_cast<double>(f.wait()));
  s += f.from_queue ? " in the queue" : ", straight to a worker";
  if (f.worker == 0) s += "; the submitting thread ran it";
  return s;
}

void LanesView::draw_flows(Context& cx, std::optional<std::pair<std::size_t, TaskId>> hovered) {
  Ui& ui = cx.ui;
  const TaskFlows& flows = cx.frame.index.flows();
  const plot::TimeMap map = ui.map();
  const std::int64_t now = cx.frame.now;
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const float head = ui.px(7);
  auto row_y = [&](std::size_t p, WorkerId w) -> std::optional<float> {
    for (const auto& [id, y] : row_y_[p])
      if (id == w) return y;
    return std::nullopt;
  };
  // Returns whether it was drawn (both ends known, the start by now).
  auto draw_one = [&](std::size_t p, const TaskFlow& f, ImU32 colour, float thickness, bool label) {
    if (f.started < 0 || f.started > now || f.submitted > now || p >= header_y_.size()) return false;
    const std::optional<float> y = row_y(p, f.worker);
    if (!y) return false;
    const ImVec2 from{static_cast<float>(map.to_x(static_cast<double>(f.submitted))), header_y_[p]};
    const ImVec2 to{static_cast<float>(map.to_x(static_cast<double>(f.started))), *y};
    arrow(dl, from, to, colour, thickness, head);
    if (label) {
      const std::string text = "waited " + plot::format_short(static_cast<double>(f.wait()));
      const ImVec2 size = ImGui::CalcTextSize(text.c_str());
      const ImVec2 at{std::max(from.x, to.x - size.x - head * 1.5f), to.y - size.y - ui.px(3)};
      dl->AddRectFilled({at.x - ui.px(3), at.y - ui.px(1)}, {at.x + size.x + ui.px(3), at.y + size.y + ui.px(1)},
                        IM_COL32(20, 20, 24, 230), ui.px(3));
      dl->AddText(at, colour, text.c_str());
    }
    return true;
  };

  dl->PushClipRect({ui.time_x0, clip_top_}, {ui.time_x1, clip_bottom_}, true);
  if (ui.flows_in_view) {
    const auto t0 = static_cast<std::int64_t>(map.t0), t1 = static_cast<std::int64_t>(map.t1);
    for (std::size_t p = 0; p < header_y_.size(); ++p) {
      if (ui.lanes_collapsed.contains(p)) continue;
      std::span<const TaskFlow> in = flows.submitted_within(p, t0, std::min(t1, now));
      if (in.size() > kMaxFlowsInView) {
        char note[96];
        std::snprintf(note, sizeof note, "%zu tasks submitted in view: zoom in for their arrows (W)", in.size());
        const ImVec2 size = ImGui::CalcTextSize(note);
        dl->AddText({ui.time_x1 - size.x - ui.px(8), header_y_[p] - size.y * 0.5f}, IM_COL32(200, 200, 200, 255),
                    note);
        continue;
      }
      // Light, not the pool's colour: the arrows must stand out from the tasks they point at.
      for (const TaskFlow& f : in) draw_one(p, f, IM_COL32(235, 235, 235, 150), ui.px(1.2f), false);
    }
  }
  // The clicked task and the hovered one, over the rest, in white, with their wait.
  for (const auto& which : {ui.flow_selected, hovered})
    if (which)
      if (const TaskFlow* f = flows.find(which->first, which->second))
        draw_one(which->first, *f, IM_COL32(255, 255, 255, 255), ui.px(2), true);
  dl->PopClipRect();
}

}  // namespace poolscope::gui
