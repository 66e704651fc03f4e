// Two runs compared, in a window of their own: per pool, run A's number, run
// B's and the difference B - A (green where B is better, red where worse),
// each run named by its file, scenario and seed. The timeline shows run A;
// the counter plots show B too, dashed, unless unticked here.
#include <algorithm>
#include <cmath>
#include <cstdio>

#include "visualizer/app/draw.h"
#include "visualizer/app/views.h"

namespace poolscope::gui {

namespace {

std::string value_text(const std::optional<double>& v, const ComparedFigure& f) {
  if (!v) return "-";
  if (f.seconds) return *v == 0 ? "0" : plot::format_short(*v * 1e9);
  char buf[32];
  std::snprintf(buf, sizeof buf, *v == std::floor(*v) ? "%.0f" : "%.2f", *v);
  return buf;
}

}  // namespace

void RunsView::draw(Context& cx, const RunComparison& runs, bool& open) {
  Ui& ui = cx.ui;
  // Wide enough for every pool's three columns (else it scrolls), over the
  // lower part of the window, below the counter plots where there is room:
  // both runs' lines stay in sight above.
  const ImVec2 screen = ImGui::GetIO().DisplaySize;
  const float w = std::min(screen.x - ui.px(24), ui.px(150 + 250 * static_cast<float>(runs.pools.size())));
  const float below_plots = screen.y - ui.plots_y1 - ui.px(20);
  const float h = std::min(std::max(below_plots, screen.y * 0.35f), ImGui::GetFrameHeightWithSpacing() * 25);
  ImGui::SetNextWindowSize({w, h}, ImGuiCond_FirstUseEver);
  ImGui::SetNextWindowPos({screen.x - w - ui.px(12), screen.y - h - ui.px(12)}, ImGuiCond_FirstUseEver);
  if (!ImGui::Begin("Two runs compared: B - A", &open)) return ImGui::End();
  ImGui::Text("A: %s", runs.a.c_str());
  ImGui::SameLine();
  ImGui::TextDisabled("(on the timeline; solid on the plots)");
  ImGui::Text("B: %s", runs.b.c_str());
  ImGui::SameLine();
  ImGui::Checkbox("dashed on the plots", &ui.overlay_b);
  const auto& figures = compared_figures();
  const int columns = 1 + 3 * static_cast<int>(runs.pools.size());
  const ImGuiTableFlags flags = ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerV | ImGuiTableFlags_ScrollX |
                                ImGuiTableFlags_ScrollY | ImGuiTableFlags_SizingFixedFit;
  if (columns > 64 || !ImGui::BeginTable("runs", columns, flags)) return ImGui::End();
  ImGui::TableSetupScrollFreeze(1, 2);
  ImGui::TableSetupColumn("");
  // A pool's name sits in its A column, which clips it (at 1024x640 "phpfpm-d"
  // of phpfpm-dynamic): that column is as wide as the name's longest part
  // between hyphens or A's widest number, and the name broken after hyphens.
  std::vector<float> a_width(runs.pools.size());
  for (std::size_t p = 0; p < runs.pools.size(); ++p) {
    float w = std::max(widest_part(runs.pools[p].pool), ImGui::CalcTextSize("A").x);
    for (std::size_t f = 0; f < figures.size(); ++f)
      w = std::max(w, ImGui::CalcTextSize(value_text(runs.pools[p].a[f], figures[f]).c_str()).x);
    a_width[p] = std::ceil(w) + 1;
    ImGui::TableSetupColumn("A", ImGuiTableColumnFlags_WidthFixed, a_width[p]);
    ImGui::TableSetupColumn("B");
    ImGui::TableSetupColumn("B - A");
  }
  // The pools' names over their three columns, in their colours (A's pools keep theirs).
  ImGui::TableNextRow(ImGuiTableRowFlags_Headers);
  for (std::size_t p = 0; p < runs.pools.size(); ++p) {
    ImGui::TableSetColumnIndex(1 + 3 * static_cast<int>(p));
    ImGui::PushStyleColor(ImGuiCol_Text, col4(ui.pool_colour(p)));
    const float width = std::max(ImGui::GetContentRegionAvail().x, a_width[p]);
    for (const std::string& line : break_after_hyphens(runs.pools[p].pool, width)) ImGui::TextUnformatted(line.c_str());
    ImGui::PopStyleColor();
  }
  ImGui::TableHeadersRow();
  for (std::size_t f = 0; f < figures.size(); ++f) {
    const ComparedFigure& figure = figures[f];
    ImGui::TableNextRow();
    ImGui::TableSetColumnIndex(0);
    ImGui::TextUnformatted(figure.name);
    for (std::size_t p = 0; p < runs.pools.size(); ++p) {
      const std::optional<double> a = runs.pools[p].a[f], b = runs.pools[p].b[f];
      ImGui::TableSetColumnIndex(1 + 3 * static_cast<int>(p));
      ImGui::TextUnformatted(value_text(a, figure).c_str());
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(value_text(b, figure).c_str());
      ImGui::TableNextColumn();
      if (!a || !b) continue;
      const double d = *b - *a;
      std::string text = value_text(std::abs(d), figure);
      if (d != 0) text = (d > 0 ? "+" : "-") + text;
      if (d != 0 && *a != 0) {
        char pct[24];
        std::snprintf(pct, sizeof pct, " (%+.0f%%)", d / std::abs(*a) * 100);
        text += pct;
      }
      const bool better = figure.better == Better::lower ? d < 0 : d > 0;
      if (figure.better != Better::none && d != 0)
        ImGui::PushStyleColor(ImGuiCol_Text, better ? IM_COL32(120, 230, 140, 255) : IM_COL32(255, 120, 110, 255));
      else
        ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetColorU32(ImGuiCol_TextDisabled));
      ImGui::TextUnformatted(text.c_str());
      ImGui::PopStyleColor();
    }
  }
  ImGui::EndTable();
  ImGui::End();
}

}  // namespace poolscope::gui
