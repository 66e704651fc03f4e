#include "visualizer/model/run_compare.h"

#include <algorithm>
#include <filesystem>
#include <optional>

#include "scenarios/engine/json_reader.h"

namespace poolscope::gui {

const std::vector<ComparedFigure>& compared_figures() {
  static const std::vector<ComparedFigure> figures = {
      {"submitted", "/tasks/submitted", Better::none, false},
      {"completed", "/tasks/completed", Better::none, false},
      {"refused", "/tasks/refused", Better::lower, false},
      {"dropped", "/tasks/dropped", Better::lower, false},
      {"throughput /s", "/throughput_per_s", Better::higher, false},
      {"queue wait p50", "/queue_wait_s/p50", Better::lower, true},
      {"queue wait p99", "/queue_wait_s/p99", Better::lower, true},
      {"end to end p50", "/end_to_end_s/p50", Better::lower, true},
      {"end to end p99", "/end_to_end_s/p99", Better::lower, true},
      {"end to end max", "/end_to_end_s/max", Better::lower, true},
      {"submit lateness p99", "/submission_lateness_s/p99", Better::lower, true},
      {"workers final", "/workers/final", Better::none, false},
      {"workers peak", "/workers/peak", Better::none, false},
      {"workers mean", "/workers/mean", Better::none, false},
      {"spawned", "/workers/spawned", Better::none, false},
      {"reaped", "/workers/reaped", Better::none, false},
      {"utilisation", "/utilisation", Better::higher, false},
      {"peak queued", "/peak_queued", Better::none, false},
      {"peak blocked", "/peak_blocked", Better::none, false},
  };
  return figures;
}

namespace {

std::vector<std::optional<double>> figures_of(const json& summary) {
  std::vector<std::optional<double>> values;
  for (const ComparedFigure& f : compared_figures()) {
    const json::json_pointer at(f.path);
    values.push_back(summary.is_object() && summary.contains(at) && summary[at].is_number()
                         ? std::optional(summary[at].get<double>())
                         : std::nullopt);
  }
  return values;
}

// The pool's series, or none when its file has none; a malformed one is an
// error naming its path, as any other part of the file would be.
std::optional<SweepSeries> series_of(const scenario::ResultPool& pool, std::size_t position) {
  if (pool.series.is_null()) return std::nullopt;
  return read_series(pool.series, "/pools/" + std::to_string(position) + "/series");
}

}  // namespace

std::optional<double> peak_between(const SweepSeries& series, SweepCounter c, double t0_s, double t1_s) {
  if (series.t.empty() || t1_s < series.t.front() || t0_s >= series.end_s() || t1_s < t0_s) return std::nullopt;
  // The buckets starting at or before t1, from the one holding t0 (read the starts as written, as value_at does).
  const auto after_first = std::upper_bound(series.t.begin(), series.t.end(), t0_s);
  const auto first = after_first == series.t.begin() ? 0 : after_first - series.t.begin() - 1;
  const auto last = std::upper_bound(series.t.begin(), series.t.end(), t1_s) - series.t.begin();
  const auto& values = series.counters[static_cast<std::size_t>(c)];
  return *std::max_element(values.begin() + first, values.begin() + last);
}

std::string describe_run(const scenario::ResultFile& f) {
  std::string s = std::filesystem::path(f.file).filename().string();
  if (f.scenario.is_object()) {
    if (f.scenario.contains("name") && f.scenario["name"].is_string())
      s += ": scenario " + f.scenario["name"].get<std::string>();
    if (auto seed =
            f.scenario.contains("seed") ? scenario::integer_in<std::uint64_t>(f.scenario["seed"]) : std::nullopt)
      s += ", seed " + std::to_string(*seed);
  }
  return s;
}

RunComparison compare_runs(const scenario::ResultFile& a, const scenario::ResultFile& b) {
  RunComparison c{.a = describe_run(a), .b = describe_run(b), .pools = {}};
  const std::vector<std::optional<double>> none(compared_figures().size());
  auto in = [](const scenario::ResultFile& f, const std::string& name) -> const scenario::ResultPool* {
    auto it = std::find_if(f.pools.begin(), f.pools.end(), [&](const auto& p) { return p.info.name == name; });
    return it == f.pools.end() ? nullptr : &*it;
  };
  for (const scenario::ResultPool& p : a.pools) {
    const scenario::ResultPool* other = in(b, p.info.name);
    c.pools.push_back({p.info.name, figures_of(p.summary), other ? figures_of(other->summary) : none,
                       other ? series_of(*other, other->info.id) : std::nullopt});
  }
  for (const scenario::ResultPool& p : b.pools)
    if (!in(a, p.info.name)) c.pools.push_back({p.info.name, none, figures_of(p.summary), series_of(p, p.info.id)});
  return c;
}

}  // namespace poolscope::gui
