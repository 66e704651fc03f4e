// Findings (docs/findings.md): rules that read a finished run's metrics and
// name, with evidence, a behaviour a teacher would point at: tasks queued
// while workers idle, a pool stuck at its core, spawn/reap churn, workers
// that never expire, refusals below the maximum, long blocked submitters, a
// stall, head-of-line waiting. Each finding says which pool, when (the range
// the GUI jumps to), the numbers, a one-line why and the parameter, in the
// design's own names, that changes it. Rules read only what the metrics keep
// without --events (series, markers, lanes, arrivals, blocked waits) and the
// engine's stall reports, so every run has its findings.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "scenarios/engine/engine.h"

namespace poolscope::findings {

struct Finding {
  std::string rule;               // the rule's id, e.g. "idle-while-queued"
  std::string pool;               // the pool's name in the scenario
  std::int64_t from = 0, to = 0;  // scenario ns: where to look
  std::string summary;            // one line, with the numbers
  std::string why;                // one line: why the design does it
  std::string parameter;          // the knob that changes it, in the design's names
  // The numbers behind the summary, in order (counts, or seconds for keys ending in _s).
  std::vector<std::pair<std::string, double>> evidence;
};

// What a rule reads: one pool's outcome and metrics, and the run's end.
struct PoolView {
  const scenario::PoolOutcome& outcome;
  const metrics::PoolMetrics& metrics;
  const metrics::Summary& summary;  // with percentiles
  std::int64_t workload_end = 0;    // scenario ns the last phase ended
};

using RuleFn = void (*)(const PoolView&, std::vector<Finding>&);
struct Rule {
  const char* id;
  const char* detects;  // one line, for listings and docs
  RuleFn run;
};
// Every rule, in the order findings are reported.
const std::vector<Rule>& rules();

// Every rule on every pool of a run, pool by pool in scenario order.
std::vector<Finding> find(const scenario::RunOutcome& outcome, const metrics::RunMetrics& metrics);

// The result's "findings" array (docs/result-format.md), and back (a
// replay's): entries that do not read as a finding are left out.
json findings_json(const std::vector<Finding>& findings);
std::vector<Finding> findings_from_json(const json& array);

}  // namespace poolscope::findings
