#include "scenarios/engine/explore.h"

#include "scenarios/engine/result_json.h"

namespace poolscope::scenario {

std::string run_problem(const RunOutcome& outcome, const metrics::RunMetrics& m) {
  if (outcome.simulation && outcome.simulation->failure) return *outcome.simulation->failure;
  for (const PoolOutcome& p : outcome.pools) {
    if (p.stall)
      return "pool '" + p.name + "' stalled at " + std::to_string(static_cast<double>(p.stall->at.count()) / 1e9) +
             " s (" + p.stall->reason + ") with " + std::to_string(outstanding(p.stall->accounting)) +
             " tasks outstanding: workers " + std::to_string(p.stall->state.workers) + ", busy " +
             std::to_string(p.stall->state.busy) + ", queued " + std::to_string(p.stall->state.queued);
    if (const auto* pm = m.pool(p.trace_id))
      if (std::string why = invariant_problem(p, pm->totals(), outcome.events_dropped == 0); !why.empty())
        return "pool '" + p.name + "' broke the accounting invariant: " + why;
  }
  if (outcome.events_dropped) return "the trace dropped " + std::to_string(outcome.events_dropped) + " events";
  if (outcome.thread_refused) return "a thread was refused: " + *outcome.thread_refused;
  if (outcome.simulation && !outcome.simulation->leaked.empty())
    return "a thread outlived the run: " + outcome.simulation->leaked.front();
  return "";
}

std::string bound_problem(const RunOutcome& outcome, const metrics::RunMetrics& m, const ExploreOptions& o) {
  for (const PoolOutcome& p : outcome.pools) {
    const auto* pm = m.pool(p.trace_id);
    if (!pm) continue;
    const metrics::Summary& t = pm->totals();
    if (o.max_workers && t.peak_workers > *o.max_workers)
      return "pool '" + p.name + "' had " + std::to_string(t.peak_workers) + " workers alive at once; its limit is " +
             std::to_string(*o.max_workers);
    if (o.max_queued && t.peak_queued > *o.max_queued)
      return "pool '" + p.name + "' had " + std::to_string(t.peak_queued) + " tasks queued at once; its bound is " +
             std::to_string(*o.max_queued);
  }
  return "";
}

ProblemMoment problem_moment(const RunOutcome& outcome, const metrics::RunMetrics& m) {
  // The same order as run_problem: the first problem it names is the one placed.
  const bool failed = outcome.simulation && outcome.simulation->failure;
  if (!failed)
    for (const PoolOutcome& p : outcome.pools)
      if (p.stall) return {p.stall->at, std::min(p.stall->at, p.stall->last_progress)};
  std::int64_t end = 0;
  for (const metrics::PoolMetrics& p : m.pools()) end = std::max(end, p.last_time());
  return {Time(end), Time(end)};
}

sim::Settings schedule_settings(const Scenario& s, const ExploreOptions& o, int i) {
  sim::Settings settings = simulation_settings(s);
  settings.seed = o.first_seed + static_cast<std::uint64_t>(i);
  settings.policy = o.policy ? *o.policy : (i % 2 == 0 ? sim::Policy::random : sim::Policy::pct);
  return settings;
}

ExploreResult explore(const Scenario& s, const ExploreOptions& o, const std::function<bool(int)>& progress) {
  ExploreResult result;
  for (int i = 0; i < o.schedules; ++i) {
    if (progress && !progress(i)) break;
    RunOptions options;
    options.simulation = schedule_settings(s, o, i);
    RunResult r = run_scenario(s, options);
    ++result.ran;
    std::string problem = run_problem(r.outcome, r.metrics);
    if (problem.empty()) problem = bound_problem(r.outcome, r.metrics, o);
    if (!problem.empty()) {
      result.failure = ExploreFailure{i, *options.simulation, problem};
      break;
    }
  }
  return result;
}

}  // namespace poolscope::scenario
