// Spawn/reap churn: workers started again after others were let go. A
// re-spawn is a spawn that replaces a worker let go before it (reaped by the
// design's idle rule, or ended for want of work; not one lost to a throwing
// task, nor the shutdown's). Flagged when the re-spawns reach the pool's
// peak size (and at least 3): the pool paid for its whole size again, so its
// idle limit is shorter than the gaps in its load. A few replacements are
// how a pool follows a falling load; its peak over again is a pattern. The
// spawn design (a thread per task, the baseline) reuses nothing by intent
// and is left out, and so are the threads other designs start for one task
// only (rulego's engine's `go task()` when its pool refuses): no idle limit
// let them go.
#include <algorithm>
#include <string_view>

#include "scenarios/engine/findings/rules.h"

namespace poolscope::findings {

namespace {
constexpr std::size_t kMinRespawns = 3;

// Spawn rules that start a thread for one task, outside the pool's reuse.
bool one_task_thread(Label spawn_rule) { return label_code(spawn_rule) == std::string_view("fallback-goroutine"); }
}  // namespace

void spawn_reap_churn(const PoolView& v, std::vector<Finding>& out) {
  if (v.outcome.design == "spawn") return;
  std::unordered_map<WorkerId, const metrics::WorkerLane*> lanes;
  for (const metrics::WorkerLane& l : v.metrics.lanes()) lanes[l.id] = &l;
  std::vector<std::int64_t> let_go;
  std::vector<std::int64_t> spawns;
  for (const metrics::Marker& m : v.metrics.markers()) {
    if (v.workload_end > 0 && m.t > v.workload_end) break;  // shutdown ends workers for another reason
    auto it = lanes.find(m.worker);
    const metrics::WorkerLane* l = it == lanes.end() ? nullptr : it->second;
    if (l && one_task_thread(l->spawn_rule)) continue;
    if (m.kind == EventKind::worker_spawned) {
      spawns.push_back(m.t);
    } else if (l && l->spawned >= 0 &&
               (m.kind == EventKind::worker_reaped ||
                (m.kind == EventKind::worker_exited && l->reaped < 0 && !l->slices.empty() && !l->slices.back().threw))) {
      let_go.push_back(m.t);
    }
  }
  // Each spawn replaces the earliest let-go not yet replaced.
  std::size_t replaced = 0, respawns = 0;
  std::int64_t first = -1, last = 0, shortest_gap = -1;
  for (std::int64_t s : spawns) {
    if (replaced >= let_go.size() || let_go[replaced] > s) continue;
    const std::int64_t gap = s - let_go[replaced];
    if (first < 0) first = let_go[replaced];
    ++replaced;
    ++respawns;
    last = s;
    shortest_gap = shortest_gap < 0 ? gap : std::min(shortest_gap, gap);
  }
  if (respawns < std::max<std::size_t>(kMinRespawns, v.summary.peak_workers)) return;
  const std::string& d = v.outcome.design;
  Finding f = make(v, "spawn-reap-churn", first, last);
  f.summary = std::to_string(respawns) + " of " + std::to_string(spawns.size()) +
              " workers started replaced workers let go before them, for a pool of at most " +
              std::to_string(v.summary.peak_workers) + " (" + std::to_string(let_go.size()) + " let go; shortest gap " +
              seconds_text(to_s(shortest_gap)) + ")";
  auto limit = idle_limit_ns(v);
  f.why = limit && *limit == 0 ? "a worker ends the moment the work runs out, so every new burst starts its workers again"
                               : "the idle limit is shorter than the gaps in the load: workers reaped in one gap are started again at the next rise";
  f.parameter = idle_knob(d);
  f.evidence = {{"respawns", static_cast<double>(respawns)},
                {"spawned", static_cast<double>(spawns.size())},
                {"let_go", static_cast<double>(let_go.size())},
                {"peak_workers", static_cast<double>(v.summary.peak_workers)},
                {"shortest_gap_s", to_s(shortest_gap)}};
  if (limit) f.evidence.push_back({"idle_limit_s", to_s(*limit)});
  out.push_back(std::move(f));
}

}  // namespace poolscope::findings
