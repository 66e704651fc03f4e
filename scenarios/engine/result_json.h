// The runner's result document (docs/result-format.md): the scenario, the
// environment, and per pool its config, summary, time series and, on
// request, every event. Versioned by its "format" field.
#pragma once

#include <optional>
#include <ostream>
#include <string>

#include "scenarios/engine/engine.h"

namespace poolscope::scenario {

inline constexpr std::string_view kResultFormat = "poolscope-result/1";

// A failing schedule `poolscope explore` found, written with its result
// (the "explore" block): which schedule, what went wrong, when (see
// explore.h's problem_moment), and the command that replays it.
struct ExploreNote {
  int schedule = 0;  // 1-based, as explore prints it
  int ran = 0;       // schedules run until it
  std::string problem;
  Time at{0}, since{0};
  std::string replay;
};

struct ResultOptions {
  bool include_events = false;
  std::optional<ExploreNote> explore;
  std::size_t series_points = 1000;  // time-series buckets per pool (each bucket keeps its maxima)
};

// trace_incomplete: the trace dropped events (the consumer fell behind), so
// the counts computed from it are not the whole story; the invariant was
// checked on the pools' own accounting only.
// thread_refused: the system refused a thread the run needed (the machine's
// threads were used up); the run ended early and says which.
enum class RunStatus { ok, stalled, invariant_breach, stopped, trace_incomplete, thread_refused };
std::string_view status_name(RunStatus s);
// stalled > invariant breach > thread refused > trace incomplete > stopped > ok.
RunStatus run_status(const RunOutcome& outcome, const metrics::RunMetrics& metrics);
// Why the invariant fails for a pool, or "" if it holds.
std::string invariant_problem(const PoolOutcome& pool, const metrics::Summary& s, bool trace_complete);

json environment_json();
json summary_json(const metrics::Summary& s, const PoolOutcome& pool, bool trace_complete);
json series_json(const metrics::PoolMetrics& pool, std::size_t points);
json event_json(const Event& e);

// Writes the whole document. Events, when included, are streamed one per line.
void write_result(std::ostream& out, const Scenario& scenario, const RunOutcome& outcome,
                  const metrics::RunMetrics& metrics, const ResultOptions& options);

}  // namespace poolscope::scenario
