// Run B over run A's counter plots: B's pool as a dashed step line over its
// file's buckets, and the legend that says which line is which run.
#include <algorithm>
#include <cmath>

#include "visualizer/app/draw.h"
#include "visualizer/app/views.h"

namespace poolscope::gui {

void b_step_line(const SweepSeries& s, SweepCounter c, const plot::TimeMap& map, const plot::ValueMap& vm,
                 double t0_s, double t1_s, std::vector<ImVec2>& out) {
  out.clear();
  const auto& values = s.counters[static_cast<std::size_t>(c)];
  for (std::size_t i = 0; i < s.t.size() && s.t[i] < t1_s; ++i) {
    const double end = std::min(s.t[i] + s.bucket_s, t1_s);
    if (end <= t0_s) continue;
    const auto x0 = static_cast<float>(map.to_x(s.t[i] * 1e9)), x1 = static_cast<float>(map.to_x(end * 1e9));
    const auto y = static_cast<float>(vm.to_y(values[i]));
    if (!out.empty() && out.back().y == y) {
      out.back().x = x1;
      continue;
    }
    out.push_back({x0, y});
    out.push_back({x1, y});
  }
}

// Where the runs' whole names take more than half the plot's width, their file names alone.
void overlay_legend(const Ui& ui, ImDrawList* dl, const RunComparison& runs, ImVec2 top_right, float plot_width) {
  const float sample = ui.px(22), gap = ui.px(6), pad = ui.px(4);
  std::string a = "A: " + runs.a, b = "B: " + runs.b;
  const auto width_of = [&] {
    return 2 * (sample + gap) + ImGui::CalcTextSize(a.c_str()).x + ImGui::CalcTextSize(b.c_str()).x + ui.px(16);
  };
  if (width_of() > plot_width * 0.5f) {
    a = a.substr(0, a.find(':', 3));
    b = b.substr(0, b.find(':', 3));
  }
  const float width = width_of();
  const float h = ImGui::GetTextLineHeight();
  ImVec2 at{top_right.x - width - pad, top_right.y + pad};
  dl->AddRectFilled({at.x - pad, at.y - ui.px(2)}, {top_right.x - ui.px(2), at.y + h + ui.px(2)},
                    IM_COL32(20, 20, 24, 210), ui.px(3));
  const ImU32 grey = IM_COL32(215, 215, 220, 255);
  const float mid = at.y + h * 0.5f, thick = std::max(1.0f, std::round(ui.px(1.6f)));
  dl->AddLine({at.x, mid}, {at.x + sample, mid}, grey, thick);
  at.x += sample + gap;
  dl->AddText(at, grey, a.c_str());
  at.x += ImGui::CalcTextSize(a.c_str()).x + ui.px(16);
  const ImVec2 dashed[] = {{at.x, mid}, {at.x + sample, mid}};
  dashed_polyline(dl, dashed, 2, grey, thick, ui.px(3));
  at.x += sample + gap;
  dl->AddText(at, grey, b.c_str());
}

}  // namespace poolscope::gui
