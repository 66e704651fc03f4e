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

// A missing value (not known at this moment): shown as "-".
constexpr double kNone = -1;

struct Row {
  const char* name;
  const char* help;
  Format format;
  Better better;
  double (*value)(const CompareView::Cell&);
  const std::map<std::string, std::uint64_t>* (*by_rule)(const CompareView::Cell&) = nullptr;
};

double ns(std::int64_t v) { return static_cast<double>(v); }

const Row kRows[] = {
    {"submitted", "tasks handed to the pool", Format::count, Better::none,
     [](const CompareView::Cell& s) { return double(s.submitted); }},
    {"completed", "tasks that ran to the end", Format::count, Better::none,
     [](const CompareView::Cell& s) { return double(s.completed); }},
    {"threw", "tasks that ended with an exception (a Go panic)", Format::count, Better::none,
     [](const CompareView::Cell& s) { return double(s.threw); }},
    {"refused", "tasks the design said no to, by its reason (hover)", Format::count, Better::lower,
     [](const CompareView::Cell& s) { return double(s.refused); },
     [](const CompareView::Cell& s) { return &s.refused_by_reason; }},
    {"dropped", "accepted tasks never run (shutdown-now, discarded from a queue)", Format::count, Better::lower,
     [](const CompareView::Cell& s) { return double(s.dropped); },
     [](const CompareView::Cell& s) { return &s.dropped_by_rule; }},
    {"in flight", "submitted, not yet completed, threw, refused or dropped", Format::count, Better::none,
     [](const CompareView::Cell& s) { return double(s.in_flight()); }},
    {"throughput", "tasks ended per second of scenario time, first submission to last end", Format::rate,
     Better::higher, [](const CompareView::Cell& s) { return s.throughput; }},
    {"queue wait p50", "submitted -> started, median", Format::time, Better::lower,
     [](const CompareView::Cell& s) { return ns(s.queue_wait.p50); }},
    {"queue wait p99", "submitted -> started, 99th percentile", Format::time, Better::lower,
     [](const CompareView::Cell& s) { return ns(s.queue_wait.p99); }},
    {"end to end p50", "submitted -> ended, median", Format::time, Better::lower,
     [](const CompareView::Cell& s) { return ns(s.end_to_end.p50); }},
    {"end to end p99", "submitted -> ended, 99th percentile", Format::time, Better::lower,
     [](const CompareView::Cell& s) { return ns(s.end_to_end.p99); }},
    {"end to end max", "submitted -> ended, the longest", Format::time, Better::lower,
     [](const CompareView::Cell& s) { return ns(s.end_to_end.max); }},
    {"submit lateness p99",
     "how late the submissions were against the schedule, 99th percentile: a pool that blocks its submitter "
     "(ants when full, Java's CallerRuns) delays the arrivals behind it. Measured by the runner's submitters, "
     "not traced: known for the whole run, once it has ended (a replay: the file's)",
     Format::time, Better::lower, [](const CompareView::Cell& s) { return s.late.known ? ns(s.late.p99) : kNone; }},
    {"submit lateness max", "how late the latest submission was against the schedule (whole run, once it ended)",
     Format::time, Better::lower, [](const CompareView::Cell& s) { return s.late.known ? ns(s.late.max) : kNone; }},
    {"workers final",
     "alive when the workload ended (its last phase), before the pools were shut down: the runner's "
     "\"workers final\". \"-\" until then",
     Format::count, Better::none,
     [](const CompareView::Cell& s) { return s.after_workload ? double(s.final_workers) : kNone; }},
    {"workers now", "alive at this moment: the replay cursor, or the live run's clock (0 once the pools were shut down)",
     Format::count, Better::none, [](const CompareView::Cell& s) { return double(s.now_workers); }},
    {"workers peak", "most alive at once", Format::count, Better::none,
     [](const CompareView::Cell& s) { return double(s.peak_workers); }},
    {"workers mean", "alive, averaged over time", Format::count, Better::none,
     [](const CompareView::Cell& s) { return s.mean_workers; }},
    {"spawned", "workers started, by rule (hover)", Format::count, Better::none,
     [](const CompareView::Cell& s) { return double(s.workers_spawned); },
     [](const CompareView::Cell& s) { return &s.spawned_by_rule; }},
    {"reaped", "workers reaped, by mechanism (hover)", Format::count, Better::none,
     [](const CompareView::Cell& s) { return double(s.workers_reaped); },
     [](const CompareView::Cell& s) { return &s.reaped_by_rule; }},
    {"utilisation",
     "the share of its workers' time spent running a task: how much of what it keeps alive it uses (tasks running "
     "beyond its workers, weedge's timed-out ones, count as every worker busy)",
     Format::percent,
     Better::higher, [](const CompareView::Cell& s) { return s.utilisation; }},
    {"peak busy", "most workers running tasks at once", Format::count, Better::none,
     [](const CompareView::Cell& s) { return double(s.peak_busy); }},
    {"peak queued", "most tasks waiting at once", Format::count, Better::none,
     [](const CompareView::Cell& s) { return double(s.peak_queued); }},
    {"peak blocked", "most submitters blocked inside submit at once", Format::count, Better::none,
     [](const CompareView::Cell& s) { return double(s.peak_blocked); }},
};

std::string format(double v, Format f) {
  char buf[48];
  switch (f) {
    case Format::count:
      if (v == kNone) return "-";
      std::snprintf(buf, sizeof buf, v == std::floor(v) ? "%.0f" : "%.1f", v);
      return buf;
    case Format::rate:
      if (v == kNone) return "-";
      std::snprintf(buf, sizeof buf, "%.1f/s", v);
      return buf;
    case Format::percent:
      std::snprintf(buf, sizeof buf, "%.0f%%", v * 100);
      return buf;
    case Format::time:
      if (v == kNone) return "-";
      return v == 0 ? "0" : plot::format_short(v);
  }
  return "";
}

}  // namespace

CompareView::Cell CompareView::cell(Context& cx, std::size_t pool) const {
  const std::int64_t end = cx.frame.workload_end;
  Cell c;
  c.after_workload = end >= 0 && cx.frame.now >= end;
  const metrics::PoolMetrics& pm = cx.frame.at_now.pools()[pool];
  if (cx.frame.percentiles) {
    static_cast<metrics::Summary&>(c) = pm.summary_without_percentiles(c.after_workload ? end : -1);
    cx.frame.percentiles->fill(pool, c);
  } else {
    static_cast<metrics::Summary&>(c) = pm.summary(c.after_workload ? end : -1);
  }
  c.now_workers = pm.counters().workers;
  if (pool < cx.frame.lateness.size()) c.late = cx.frame.lateness[pool];
  return c;
}

void CompareView::draw(Context& cx) {
  Ui& ui = cx.ui;
  const auto& pools = cx.frame.at_now.pools();
  // A live run's percentiles copy and partially sort every latency so far
  // (a million events: 10 ms). While its numbers keep changing, a few times
  // a second is plenty, one pool a frame, so no frame pays for them all; a
  // change after a quiet moment shows at once, and the last one at most
  // 0.25 s later. A replay keeps its percentiles up to date as the cursor
  // moves (frame.percentiles): every pool, every frame the numbers change.
  // Never in a frame that also rebuilds a replay's metrics. A picture
  // (refresh_table) has them all at once.
  const double now = ImGui::GetTime();
  const std::uint64_t version = cx.frame.at_now.event_count();
  const std::int64_t end = cx.frame.workload_end;
  const bool after = end >= 0 && cx.frame.now >= end;
  const bool known_late = !cx.frame.lateness.empty();
  if (summaries_.size() != pools.size() || after != after_workload_ || known_late != lateness_known_ ||
      (version != version_ && !ui.rebuilding && (ui.refresh_table || cx.frame.percentiles))) {
    ui.refresh_table = false;
    summaries_.clear();
    for (std::size_t i = 0; i < pools.size(); ++i) summaries_.push_back(cell(cx, i));
    next_ = pools.size();
    version_ = version;
    computed_at_ = now;
    after_workload_ = after;
    lateness_known_ = known_late;
  } else if (!pools.empty() && !ui.rebuilding &&
             (next_ < pools.size() || (version != version_ && now - computed_at_ > 0.25))) {
    if (next_ >= pools.size()) next_ = 0;  // a refresh begins
    summaries_[next_] = cell(cx, next_);
    if (++next_ == pools.size()) {
      version_ = version;
      computed_at_ = now;
    }
  }
  if (pools.empty()) {
    ImGui::TextDisabled("Start the run to compare its pools.");
    return;
  }
  // Which moment the numbers are of: the replay cursor or the live clock;
  // "workers final" is read where the workload ended, as the runner does.
  {
    std::string when = cx.frame.replay ? "as of the replay cursor, " : "so far in this run, ";
    when += plot::format_short(static_cast<double>(cx.frame.now));
    if (end >= 0) when += std::string("; the workload ends at ") + plot::format_short(static_cast<double>(end));
    if (cx.frame.at_now_behind) when += " (catching up with the cursor)";
    ImGui::TextDisabled("%s", when.c_str());
  }
  // Every name whole and every number whole (issue 39: at 1280x720 the
  // table cut phpfpm-dynamic, -ondemand and -static to three "phpfpm..."):
  // a column is as wide as its widest number or the longest part of its
  // name between hyphens, the name broken after a hyphen where the whole is
  // wider ("phpfpm-" over "ondemand"). Where the columns fit, they share the
  // room in proportion; where they do not (survey's 14 pools), they keep
  // their widths and the table scrolls sideways, the metric names frozen.
  const ImGuiStyle& style = ImGui::GetStyle();
  float names_w = 0;
  for (const Row& row : kRows) names_w = std::max(names_w, ImGui::CalcTextSize(row.name).x);
  std::vector<float> needs(pools.size());
  float total = names_w + 2 * style.CellPadding.x;
  for (std::size_t p = 0; p < pools.size(); ++p) {
    float w = widest_part(pools[p].info().name);
    for (const Row& row : kRows)
      if (p < summaries_.size())
        w = std::max(w, ImGui::CalcTextSize(format(row.value(summaries_[p]), row.format).c_str()).x);
    needs[p] = std::ceil(w) + 1;
    total += needs[p] + 2 * style.CellPadding.x + 1;  // (the inner border)
  }
  const bool fits = total <= ImGui::GetContentRegionAvail().x - style.ScrollbarSize;
  const ImGuiTableFlags flags = ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerV | ImGuiTableFlags_ScrollY |
                                (fits ? ImGuiTableFlags_SizingStretchProp : ImGuiTableFlags_ScrollX);
  if (!ImGui::BeginTable("compare", static_cast<int>(pools.size()) + 1, flags)) return;
  ImGui::TableSetupScrollFreeze(1, 1);
  ImGui::TableSetupColumn("", ImGuiTableColumnFlags_WidthFixed, names_w);
  for (std::size_t p = 0; p < pools.size(); ++p)
    ImGui::TableSetupColumn(pools[p].info().name.c_str(),
                            fits ? ImGuiTableColumnFlags_WidthStretch : ImGuiTableColumnFlags_WidthFixed, needs[p]);
  ImGui::TableNextRow(ImGuiTableRowFlags_Headers);
  ImGui::TableSetColumnIndex(0);
  ImGui::TextUnformatted("");
  drawn_ = {};
  for (std::size_t p = 0; p < pools.size(); ++p) {
    ImGui::TableSetColumnIndex(static_cast<int>(p) + 1);
    // The pool's name in its colour: the key to every plot and lane; its
    // design on hover, the legend of pools sharing a colour family.
    const std::string& name = pools[p].info().name;
    const float right = ImGui::GetCursorScreenPos().x + ImGui::GetContentRegionAvail().x;
    ImGui::PushStyleColor(ImGuiCol_Text, col4(ui.pool_colour(p)));
    ImGui::BeginGroup();
    std::string shown;
    for (const std::string& line : break_after_hyphens(name, std::max(ImGui::GetContentRegionAvail().x, needs[p]))) {
      ImGui::TextUnformatted(line.c_str());
      shown += (shown.empty() ? "" : "|") + line;
    }
    ImGui::EndGroup();
    ImGui::PopStyleColor();
    drawn_.names.push_back(shown);
    drawn_.overflow = drawn_.overflow || ImGui::GetItemRectMax().x > right + 0.5f;
    if (p == 0) drawn_.min = ImGui::GetItemRectMin();
    drawn_.max.x =
        std::max(drawn_.max.x, std::min(ImGui::GetItemRectMax().x, ImGui::GetWindowPos().x + ImGui::GetWindowSize().x));
    drawn_.max.y = std::max(drawn_.max.y, ImGui::GetItemRectMax().y);
    if (ImGui::IsItemHovered())
      ImGui::SetTooltip("%s (design %s)", pools[p].info().name.c_str(), pools[p].info().design.c_str());
  }
  const float wrap = ui.px(380);
  for (const Row& row : kRows) {
    ImGui::TableNextRow();
    // A row a lesson's step points at, tinted amber (Ui::lesson_highlights).
    for (const Ui::LessonHighlight& h : ui.lesson_highlights)
      if (h.what == Ui::LessonHighlight::row && h.name == row.name)
        ImGui::TableSetBgColor(ImGuiTableBgTarget_RowBg1, IM_COL32(255, 200, 80, 70));
    ImGui::TableSetColumnIndex(0);
    ImGui::TextUnformatted(row.name);
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", row.help);
    // The best value, where lower or higher is better and the pools differ as shown.
    double best = kNone;
    for (const Cell& s : summaries_) {
      double v = row.value(s);
      if (v != kNone && (best == kNone || (row.better == Better::lower ? v < best : v > best))) best = v;
    }
    const std::string best_text = format(best, row.format);
    bool differ = false;
    for (const Cell& s : summaries_) differ = differ || format(row.value(s), row.format) != best_text;
    for (std::size_t p = 0; p < summaries_.size(); ++p) {
      ImGui::TableSetColumnIndex(static_cast<int>(p) + 1);
      const std::string text = format(row.value(summaries_[p]), row.format);
      const bool highlight = row.better != Better::none && differ && best != kNone && text == best_text;
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
          auto l = std::find_if(rules.begin(), rules.end(), [&c = code](Label r) { return label_code(r) == c; });
          if (l != rules.end() && label_text(*l) != code) dim(std::string(label_text(*l)), wrap);
        }
        ImGui::EndTooltip();
      }
    }
  }
  ImGui::EndTable();
}

}  // namespace poolscope::gui
