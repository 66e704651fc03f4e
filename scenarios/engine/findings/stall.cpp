// A stall or deadlock, as the engine's watchdog reported it: no task started
// or ended for the watchdog time with tasks outstanding (or tasks still
// outstanding long past the workload's end). The evidence is who held whom:
// the tasks running at the stall (parents waiting for their children, in the
// nested-submit lesson) and the tasks queued or blocked behind them.
#include <algorithm>

#include "scenarios/engine/findings/rules.h"

namespace poolscope::findings {

namespace {
constexpr std::size_t kListed = 8;  // task ids named in the summary; the count says the rest
}

void stall(const PoolView& v, std::vector<Finding>& out) {
  if (!v.outcome.stall) return;
  const scenario::StallReport& s = *v.outcome.stall;
  const std::int64_t at = s.at.count(), since = s.last_progress.count();
  std::vector<TaskId> running;  // started by the last progress and still running at the stall
  for (const metrics::WorkerLane& l : v.metrics.lanes())
    for (const metrics::TaskSlice& t : l.slices)
      if (t.start <= at && (t.end < 0 || t.end > at)) running.push_back(t.task);
  std::sort(running.begin(), running.end());
  std::string ids;
  // Appended piece by piece: g++ 12 warns falsely about "," + to_string(...) (-Wrestrict).
  for (std::size_t i = 0; i < std::min(running.size(), kListed); ++i) {
    if (i) ids += ',';
    ids += std::to_string(running[i]);
  }
  if (running.size() > kListed) ids += ",...";
  Finding f = make(v, "stall", since, at);
  std::string what = "no task started or ended for " + seconds_text(to_s(at - since));
  if (s.reason == "overrun") what = "overrun: tasks outstanding long past the workload's end";
  if (s.reason == "parents-blocked")
    what = "parents blocked: every worker waited for children queued behind it while tasks ran elsewhere";
  f.summary = what + ": " + std::to_string(running.size()) + " tasks started and not ended" +
              (ids.empty() ? "" : " (" + ids + ")") +
              ", " + std::to_string(s.state.busy) + " of " + std::to_string(s.state.workers) + " workers busy" +
              ", " + std::to_string(s.state.queued) + " queued and " + std::to_string(s.state.blocked) +
              " submitters blocked behind them, " + std::to_string(scenario::outstanding(s.accounting)) +
              " outstanding";
  if (s.reason == "no-progress" && !running.empty() && s.state.queued == 0 && s.state.blocked == 0)
    f.why =
        "a task has run for the whole watchdog time with nothing waiting behind it: a task that never ends holds "
        "its worker for good, and no pool can take a running thread back (Java's shutdownNow interrupts it)";
  else if (s.state.workers > 0 && s.state.busy >= s.state.workers)
    f.why = "every worker holds a task that waits (for children that only a worker can run): none is left to run them";
  else
    f.why = "tasks wait while no worker takes them: the design's workers are gone or wait elsewhere";
  f.parameter = max_knob(v.outcome.design) + (v.outcome.design == "java" ? ", handler" : "");
  f.evidence = {{"running", static_cast<double>(running.size())},
                {"busy", static_cast<double>(s.state.busy)},
                {"workers", static_cast<double>(s.state.workers)},
                {"queued", static_cast<double>(s.state.queued)},
                {"blocked", static_cast<double>(s.state.blocked)},
                {"outstanding", static_cast<double>(scenario::outstanding(s.accounting))},
                {"stalled_for_s", to_s(at - since)}};
  out.push_back(std::move(f));
}

}  // namespace poolscope::findings
