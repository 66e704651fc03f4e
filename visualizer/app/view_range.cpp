// The selected time range (Shift+drag on the plots): what each pool did in
// it, as Perfetto's area select and Tracy's range measure show it, and each
// pool's queue-wait and end-to-end histograms over it (log-spaced bins, like
// Tracy's find-zone), so a LIFO's short waits and a FIFO queue's long tail
// are seen side by side.
#include <algorithm>
#include <cmath>
#include <cstdio>

#include "visualizer/app/draw.h"
#include "visualizer/app/views.h"

namespace poolscope::gui {

namespace {

std::string short_time(std::int64_t ns) { return ns == 0 ? "-" : plot::format_short(static_cast<double>(ns)); }

// A histogram of `v` (sorted) in a w x h box at the cursor, log-spaced bins
// from `lo` to `hi`; hover names the bin.
void histogram(const std::vector<std::int64_t>& v, std::int64_t lo, std::int64_t hi, plot::Rgba colour, float w, float h,
               const char* id) {
  constexpr int kBins = 32;
  const auto bins = log_histogram(v, lo, hi, kBins);
  const std::uint32_t top = std::max<std::uint32_t>(1, *std::max_element(bins.begin(), bins.end()));
  const ImVec2 at = ImGui::GetCursorScreenPos();
  ImDrawList* dl = ImGui::GetWindowDrawList();
  dl->AddRectFilled(at, {at.x + w, at.y + h}, IM_COL32(28, 28, 33, 255));
  const float bw = w / kBins;
  for (int b = 0; b < kBins; ++b) {
    const auto n = bins[static_cast<std::size_t>(b)];
    if (n == 0) continue;
    // Heights on a square-root scale: a single slow task still shows.
    const float bh = std::max(1.0f, (h - 2) * std::sqrt(static_cast<float>(n) / static_cast<float>(top)));
    dl->AddRectFilled({at.x + b * bw + 0.5f, at.y + h - bh}, {at.x + (b + 1) * bw - 0.5f, at.y + h}, col(colour));
  }
  ImGui::InvisibleButton(id, {w, h});
  if (ImGui::IsItemHovered()) {
    const int b = std::clamp(static_cast<int>((ImGui::GetIO().MousePos.x - at.x) / bw), 0, kBins - 1);
    const double l = std::log10(static_cast<double>(std::max<std::int64_t>(lo, 1)));
    const double hh = std::log10(static_cast<double>(std::max<std::int64_t>(hi, 1)));
    const double from = std::pow(10.0, l + (hh - l) * b / kBins), to = std::pow(10.0, l + (hh - l) * (b + 1) / kBins);
    ImGui::SetTooltip("%u tasks from %s to %s", bins[static_cast<std::size_t>(b)], plot::format_short(from).c_str(),
                      plot::format_short(to).c_str());
  }
}

}  // namespace

void RangeView::draw(Context& cx) {
  Ui& ui = cx.ui;
  if (!ui.range) return;
  const auto& pools = cx.frame.metrics.pools();
  // What happened by now: a replay's cursor clips the range.
  const std::int64_t t0 = ui.range->first, t1 = std::min(ui.range->second, cx.frame.now);
  const std::uint64_t version = cx.frame.events.size();
  const double now = ImGui::GetTime();
  if (stats_.size() != pools.size() || computed_for_ != std::pair{t0, t1} ||
      (version != version_ && now - computed_at_ > 0.25)) {
    stats_ = range_stats(cx.frame.events, pools.size(), t0, t1);
    computed_for_ = {t0, t1};
    version_ = version;
    computed_at_ = now;
  }
  const ImGuiViewport* vp = ImGui::GetMainViewport();
  ImGui::SetNextWindowPos({vp->WorkPos.x + vp->WorkSize.x - ui.px(12), vp->WorkPos.y + vp->WorkSize.y - ui.px(12)},
                          ImGuiCond_Appearing, {1, 1});
  ImGui::SetNextWindowBgAlpha(0.95f);
  bool open = true;
  char title[96];
  std::snprintf(title, sizeof title, "Range %s to %s (%s)###range", plot::format_time(static_cast<double>(t0)).c_str(),
                plot::format_time(static_cast<double>(t1)).c_str(),
                plot::format_short(static_cast<double>(std::max<std::int64_t>(t1 - t0, 0))).c_str());
  if (ImGui::Begin(title, &open, ImGuiWindowFlags_AlwaysAutoResize | ImGuiWindowFlags_NoSavedSettings)) {
    // The histograms' width: the pools' names (the longest whole: at
    // 1024x640 a fixed 120 px cut multi-roundrobin), then two plots. The
    // line above them wraps there, not past a laptop's screen.
    const float w = ui.px(260), h = ui.px(34);
    float names = ui.px(120);
    for (const metrics::PoolMetrics& pm : pools)
      names = std::max(names, ImGui::CalcTextSize(pm.info().name.c_str()).x + ui.px(12));
    ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + names + 2 * w + ImGui::GetStyle().ItemSpacing.x);
    ImGui::TextDisabled("tasks ended, refused, workers spawned and reaped in the range; waits of the tasks started in "
                        "it, end-to-end of those ended in it");
    ImGui::PopTextWrapPos();
    const ImGuiTableFlags flags = ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerV | ImGuiTableFlags_SizingFixedFit;
    if (ImGui::BeginTable("range", 10, flags)) {
      for (const char* h : {"pool", "submitted", "ended", "refused", "spawned", "reaped", "wait p50", "wait p99",
                            "e2e p50", "e2e p99"})
        ImGui::TableSetupColumn(h);
      ImGui::TableHeadersRow();
      for (std::size_t p = 0; p < stats_.size(); ++p) {
        const PoolRange& r = stats_[p];
        ImGui::TableNextRow();
        ImGui::TableNextColumn();
        ImGui::TextColored(col4(ui.pool_colour(p)), "%s", pools[p].info().name.c_str());
        for (std::uint64_t n : {r.submitted, r.ended, r.refused, r.spawned, r.reaped}) {
          ImGui::TableNextColumn();
          ImGui::Text("%llu", static_cast<unsigned long long>(n));
        }
        for (std::int64_t t : {quantile(r.waits, 0.5), quantile(r.waits, 0.99), quantile(r.end_to_end, 0.5),
                               quantile(r.end_to_end, 0.99)}) {
          ImGui::TableNextColumn();
          ImGui::TextUnformatted(short_time(t).c_str());
        }
      }
      ImGui::EndTable();
    }
    // Histograms on one scale for every pool: 1 us to the longest.
    std::int64_t longest = 1'000'000;
    for (const PoolRange& r : stats_) {
      if (!r.waits.empty()) longest = std::max(longest, r.waits.back());
      if (!r.end_to_end.empty()) longest = std::max(longest, r.end_to_end.back());
    }
    ImGui::Separator();
    ImGui::Text("queue wait");
    ImGui::SameLine(names + w + ui.px(12));
    ImGui::Text("end to end   (1 µs to %s, log scale)", plot::format_short(static_cast<double>(longest)).c_str());
    for (std::size_t p = 0; p < stats_.size(); ++p) {
      ImGui::PushID(static_cast<int>(p));
      ImGui::AlignTextToFramePadding();
      ImGui::TextColored(col4(ui.pool_colour(p)), "%s", pools[p].info().name.c_str());
      ImGui::SameLine(names);
      histogram(stats_[p].waits, 1'000, longest, ui.pool_colour(p), w, h, "wait");
      ImGui::SameLine();
      histogram(stats_[p].end_to_end, 1'000, longest, ui.pool_colour(p), w, h, "e2e");
      ImGui::PopID();
    }
  }
  ImGui::End();
  if (!open) ui.range.reset();
}

}  // namespace poolscope::gui
