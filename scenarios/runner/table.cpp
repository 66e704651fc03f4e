#include "scenarios/runner/table.h"

#include <algorithm>
#include <cstdio>
#include <iomanip>

#include "scenarios/engine/result_json.h"

namespace poolscope::runner {

std::string human_duration(double s) {
  char buf[32];
  if (s == 0) return "0";
  if (s < 0.5e-6) return "<1us";  // not "0us": a wait that happened, beside "0" for none
  if (s < 1e-3)
    std::snprintf(buf, sizeof buf, "%.0fus", s * 1e6);
  else if (s < 1)
    std::snprintf(buf, sizeof buf, "%.1fms", s * 1e3);
  else
    std::snprintf(buf, sizeof buf, "%.2fs", s);
  return buf;
}

namespace {

std::string num(double v, int decimals = 0) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
  return buf;
}

std::string by_rule(const std::map<std::string, std::uint64_t>& m) {
  std::string out;
  for (const auto& [rule, n] : m) out += (out.empty() ? "" : " ") + rule + ":" + std::to_string(n);
  return out.empty() ? "-" : out;
}

std::string lateness(const std::vector<std::int64_t>& v) {
  if (v.empty()) return "-";
  std::vector<std::int64_t> s = v;
  std::sort(s.begin(), s.end());
  auto p99 = s[std::min(s.size() - 1, static_cast<std::size_t>(0.99 * static_cast<double>(s.size())))];
  return human_duration(static_cast<double>(p99) / 1e9);
}

}  // namespace

void print_summary_table(std::ostream& out, const scenario::Scenario& sc, const scenario::RunOutcome& outcome,
                         const metrics::RunMetrics& metrics) {
  struct Row {
    std::string label;
    std::vector<std::string> cells;
  };
  std::vector<Row> rows = {{"tasks submitted", {}},
                           {"completed", {}},
                           {"threw", {}},
                           {"refused", {}},
                           {"  by reason", {}},
                           {"dropped at shutdown", {}},
                           {"throughput /s", {}},
                           {"queue wait p50", {}},
                           {"queue wait p99", {}},
                           {"end-to-end p50", {}},
                           {"end-to-end p99", {}},
                           {"end-to-end max", {}},
                           {"workers peak", {}},
                           {"workers final", {}},
                           {"workers mean", {}},
                           {"spawned", {}},
                           {"reaped", {}},
                           {"  by mechanism", {}},
                           {"utilisation", {}},
                           {"queue peak", {}},
                           {"blocked submitters peak", {}},
                           {"blocked time total", {}},
                           {"blocked time p99", {}},
                           {"ran by caller", {}},
                           {"submit lateness p99", {}},
                           {"CPU time (sequential)", {}},
                           {"invariant", {}},
                           {"status", {}}};
  // What each pool ran on (os-threads, goroutines, simulation): the row
  // that says why a real run's thread starts cost what they cost.
  Row ran_on{"ran on", {}};
  std::vector<std::string> names;
  bool complete = outcome.events_dropped == 0;
  for (const scenario::PoolOutcome& p : outcome.pools) {
    names.push_back(p.name);
    const metrics::PoolMetrics* pm = metrics.pool(p.trace_id);
    metrics::Summary s = pm ? pm->summary(outcome.workload_end.count()) : metrics::Summary{};
    std::string problem = scenario::invariant_problem(p, s, complete);
    std::vector<std::string> v = {
        std::to_string(s.submitted),
        std::to_string(s.completed),
        std::to_string(s.threw),
        std::to_string(s.refused),
        by_rule(s.refused_by_reason),
        std::to_string(s.dropped),
        num(s.throughput, 1),
        human_duration(static_cast<double>(s.queue_wait.p50) / 1e9),
        human_duration(static_cast<double>(s.queue_wait.p99) / 1e9),
        human_duration(static_cast<double>(s.end_to_end.p50) / 1e9),
        human_duration(static_cast<double>(s.end_to_end.p99) / 1e9),
        human_duration(static_cast<double>(s.end_to_end.max) / 1e9),
        std::to_string(s.peak_workers),
        std::to_string(s.final_workers),
        num(s.mean_workers, 1),
        std::to_string(s.workers_spawned),
        std::to_string(s.workers_reaped),
        by_rule(s.reaped_by_rule),
        num(100 * s.utilisation, 0) + "%",
        std::to_string(s.peak_queued),
        std::to_string(s.peak_blocked),
        human_duration(static_cast<double>(s.blocked_total) / 1e9),
        human_duration(static_cast<double>(s.blocked.p99) / 1e9),
        std::to_string(s.ran_by_caller),
        lateness(p.lateness),
        // Measured only when the pool ran alone (schedule: sequential):
        // what its threads burnt, spinning included.
        p.cpu_seconds ? human_duration(*p.cpu_seconds) : "-",
        problem.empty() ? "holds" : "BREACH",
        p.stall ? (p.shutdown_hung ? "STALLED, hung" : "STALLED") : "ok",
    };
    for (std::size_t i = 0; i < rows.size(); ++i) rows[i].cells.push_back(v[i]);
    ran_on.cells.push_back(p.ran_on.empty() ? "-" : p.ran_on);
  }
  rows.insert(rows.begin(), std::move(ran_on));
  // Only when the trace dropped events (the run is trace-incomplete): whose,
  // so that a student sees which column's counts miss some tasks.
  if (outcome.events_dropped > 0) {
    Row dropped{"trace events dropped", {}};
    for (const scenario::PoolOutcome& p : outcome.pools) dropped.cells.push_back(std::to_string(p.events_dropped));
    rows.push_back(std::move(dropped));
  }
  std::size_t label_w = 0;
  for (const Row& r : rows) label_w = std::max(label_w, r.label.size());
  std::vector<std::size_t> col_w(names.size());
  for (std::size_t c = 0; c < names.size(); ++c) {
    col_w[c] = names[c].size();
    for (const Row& r : rows) col_w[c] = std::max(col_w[c], r.cells[c].size());
  }
  out << sc.name << ": " << sc.lesson << "\n\n";
  out << std::left << std::setw(static_cast<int>(label_w)) << "";
  for (std::size_t c = 0; c < names.size(); ++c)
    out << "  " << std::right << std::setw(static_cast<int>(col_w[c])) << names[c];
  out << "\n";
  for (const Row& r : rows) {
    out << std::left << std::setw(static_cast<int>(label_w)) << r.label;
    for (std::size_t c = 0; c < names.size(); ++c)
      out << "  " << std::right << std::setw(static_cast<int>(col_w[c])) << r.cells[c];
    out << "\n";
  }
}

}  // namespace poolscope::runner
