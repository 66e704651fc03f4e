// The comparison table: the runner's summary metrics (metrics::Summary, the
// same numbers `poolscope run` prints and writes) for every pool side by
// side, refreshed a few times a second during a run, and as of the cursor in
// a replay. The best value of a row where "best" means something is bright.
#include <algorithm>
#include <cmath>
#include <cstdio>

#include "visualizer/app/draw.h"
#include "visualizer/app/views.h"

namespace poolscope::gui {

namespace {

enum class Format { count, rate, time, percent };
enum class Better { none, lower, higher };

struct Row {
  const char* name;
  const char* help;
  Format format;
  Better better;
  double (*value)(const metrics::Summary&);
  const std::map<std::string, std::uint64_t>* (*by_rule)(const metrics::Summary&) = nullptr;
};

double ns(std::int64_t v) { return static_cast<double>(v); }

const Row kRows[] = {
    {"submitted", "tasks handed to the pool", Format::count, Better::none,
     [](const metrics::Summary& s) { return double(s.submitted); }},
    {"completed", "tasks that ran to the end", Format::count, Better::none,
     [](const metrics::Summary& s) { return double(s.completed); }},
    {"threw", "tasks that ended with an exception (a Go panic)", Format::count, Better::none,
     [](const metrics::Summary& s) { return double(s.threw); }},
    {"refused", "tasks the design said no to, by its reason (hover)", Format::count, Better::lower,
     [](const metrics::Summary& s) { return double(s.refused); },
     [](const metrics::Summary& s) { return &s.refused_by_reason; }},
    {"dropped", "accepted tasks never run (shutdown-now, discarded from a queue)", Format::count, Better::lower,
     [](const metrics::Summary& s) { return double(s.dropped); },
     [](const metrics::Summary& s) { return &s.dropped_by_rule; }},
    {"in flight", "submitted, not yet completed, threw, refused or dropped", Format::count, Better::none,
     [](const metrics::Summary& s) { return double(s.in_flight()); }},
    {"throughput", "tasks ended per second of scenario time, first submission to last end", Format::rate,
     Better::higher, [](const metrics::Summary& s) { return s.throughput; }},
    {"queue wait p50", "submitted -> started, median", Format::time, Better::lower,
     [](const metrics::Summary& s) { return ns(s.queue_wait.p50); }},
    {"queue wait p99", "submitted -> started, 99th percentile", Format::time, Better::lower,
     [](const metrics::Summary& s) { return ns(s.queue_wait.p99); }},
    {"end to end p50", "submitted -> ended, median", Format::time, Better::lower,
     [](const metrics::Summary& s) { return ns(s.end_to_end.p50); }},
    {"end to end p99", "submitted -> ended, 99th percentile", Format::time, Better::lower,
     [](const metrics::Summary& s) { return ns(s.end_to_end.p99); }},
    {"workers now", "alive at the end (or now)", Format::count, Better::none,
     [](const metrics::Summary& s) { return double(s.final_workers); }},
    {"workers peak", "most alive at once", Format::count, Better::none,
     [](const metrics::Summary& s) { return double(s.peak_workers); }},
    {"workers mean", "alive, averaged over time", Format::count, Better::none,
     [](const metrics::Summary& s) { return s.mean_workers; }},
    {"spawned", "workers started, by rule (hover)", Format::count, Better::none,
     [](const metrics::Summary& s) { return double(s.workers_spawned); },
     [](const metrics::Summary& s) { return &s.spawned_by_rule; }},
    {"reaped", "workers reaped, by mechanism (hover)", Format::count, Better::none,
     [](const metrics::Summary& s) { return double(s.workers_reaped); },
     [](const metrics::Summary& s) { return &s.reaped_by_rule; }},
    {"utilisation", "busy / workers, averaged over time: how much of what it keeps alive it uses", Format::percent,
     Better::higher, [](const metrics::Summary& s) { return s.utilisation; }},
    {"peak busy", "most workers running tasks at once", Format::count, Better::none,
     [](const metrics::Summary& s) { return double(s.peak_busy); }},
    {"peak queued", "most tasks waiting at once", Format::count, Better::none,
     [](const metrics::Summary& s) { return double(s.peak_queued); }},
    {"peak blocked", "most submitters blocked inside submit at once", Format::count, Better::none,
     [](const metrics::Summary& s) { return double(s.peak_blocked); }},
};

std::string format(double v, Format f) {
  char buf[48];
  switch (f) {
    case Format::count:
      std::snprintf(buf, sizeof buf, v == std::floor(v) ? "%.0f" : "%.1f", v);
      return buf;
    case Format::rate:
      std::snprintf(buf, sizeof buf, "%.1f/s", v);
      return buf;
    case Format::percent:
      std::snprintf(buf, sizeof buf, "%.0f%%", v * 100);
      return buf;
    case Format::time:
      return v == 0 ? "0" : plot::format_short(v);
  }
  return "";
}

}  // namespace

void CompareView::draw(Context& cx) {
  Ui& ui = cx.ui;
  const auto& pools = cx.frame.at_now.pools();
  // Percentiles copy and partially sort every latency so far (a million
  // events: tens of ms). While the numbers keep changing (a live run, a replay
  // playing or stepped), a few times a second is plenty; a change after a
  // quiet moment shows at once, and the last one at most 0.25 s later.
  const double now = ImGui::GetTime();
  const std::uint64_t version = cx.frame.at_now.event_count();
  if (summaries_.size() != pools.size() || (version != version_ && now - computed_at_ > 0.25)) {
    summaries_.clear();
    for (const metrics::PoolMetrics& p : pools) summaries_.push_back(p.summary());
    version_ = version;
    computed_at_ = now;
  }
  if (pools.empty()) {
    ImGui::TextDisabled("Start the run to compare its pools.");
    return;
  }
  ImGui::TextDisabled(cx.frame.replay ? "as of the replay cursor" : "so far in this run");
  const ImGuiTableFlags flags = ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerV | ImGuiTableFlags_ScrollY |
                                ImGuiTableFlags_SizingStretchProp;
  if (!ImGui::BeginTable("compare", static_cast<int>(pools.size()) + 1, flags)) return;
  ImGui::TableSetupScrollFreeze(1, 1);
  ImGui::TableSetupColumn("", ImGuiTableColumnFlags_WidthFixed);
  for (const metrics::PoolMetrics& p : pools)
    ImGui::TableSetupColumn(p.info().name.c_str(), ImGuiTableColumnFlags_WidthStretch);
  ImGui::TableNextRow(ImGuiTableRowFlags_Headers);
  ImGui::TableSetColumnIndex(0);
  ImGui::TextUnformatted("");
  for (std::size_t p = 0; p < pools.size(); ++p) {
    ImGui::TableSetColumnIndex(static_cast<int>(p) + 1);
    // The pool's name in its colour: the key to every plot and lane.
    ImGui::TextColored(col4(ui.palette().pool(p)), "%s", pools[p].info().name.c_str());
    if (ImGui::IsItemHovered())
      ImGui::SetTooltip("%s (design %s)", pools[p].info().name.c_str(), pools[p].info().design.c_str());
  }
  const float wrap = ui.px(380);
  for (const Row& row : kRows) {
    ImGui::TableNextRow();
    ImGui::TableSetColumnIndex(0);
    ImGui::TextUnformatted(row.name);
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", row.help);
    // The best value, where lower or higher is better and the pools differ as shown.
    double best = row.value(summaries_[0]);
    for (const metrics::Summary& s : summaries_) {
      double v = row.value(s);
      if (row.better == Better::lower ? v < best : v > best) best = v;
    }
    const std::string best_text = format(best, row.format);
    bool differ = false;
    for (const metrics::Summary& s : summaries_) differ = differ || format(row.value(s), row.format) != best_text;
    for (std::size_t p = 0; p < summaries_.size(); ++p) {
      ImGui::TableSetColumnIndex(static_cast<int>(p) + 1);
      const std::string text = format(row.value(summaries_[p]), row.format);
      const bool highlight = row.better != Better::none && differ && text == best_text;
      if (highlight) ImGui::PushStyleColor(ImGuiCol_Text, IM_COL32(120, 230, 140, 255));
      ImGui::TextUnformatted(text.c_str());
      if (highlight) ImGui::PopStyleColor();
      if (row.by_rule && ImGui::IsItemHovered()) {
        const auto* by = row.by_rule(summaries_[p]);
        ImGui::BeginTooltip();
        if (by->empty()) ImGui::TextDisabled("none");
        for (const auto& [code, n] : *by) {
          ImGui::Text("%llu  %s", static_cast<unsigned long long>(n), code.c_str());
          // Designs may share a code, each with its own reason: this pool's.
          const auto& rules = pools[p].rules();
          auto l = std::find_if(rules.begin(), rules.end(), [&](Label r) { return label_code(r) == code; });
          if (l != rules.end() && label_text(*l) != code) dim(std::string(label_text(*l)), wrap);
        }
        ImGui::EndTooltip();
      }
    }
  }
  ImGui::EndTable();
}

}  // namespace poolscope::gui
