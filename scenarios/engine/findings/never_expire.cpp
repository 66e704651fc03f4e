// Workers that never expire: workers above the pool's floor (its core, min
// or static size: the ones it keeps by design) sat idle and none was let go.
// Flagged when that lasted twice the design's idle limit (one limit, plus as
// long again for the tick that enforces it), or, for a design with no idle
// limit (coremax: seed 001's flaw), one second: longer than the shortest
// idle limit of the shipped designs (ants' default 1 s), so any of them
// would have let a worker go by then. Only the workload's time counts: the
// shutdown ends every worker anyway.
#include <algorithm>

#include "scenarios/engine/findings/rules.h"

namespace poolscope::findings {

namespace {
constexpr std::int64_t kNoLimitWait = 1'000'000'000;  // 1 s
}

void never_expire(const PoolView& v, std::vector<Finding>& out) {
  if (v.outcome.design == "spawn") return;
  const std::int64_t floor = floor_workers(v);
  const auto limit = idle_limit_ns(v);
  if (limit && *limit == 0) return;  // its workers end the moment they idle
  const std::int64_t wait = limit ? 2 * *limit : kNoLimitWait;
  auto above = [floor](const Counters& c) {
    const std::int64_t extra = static_cast<std::int64_t>(c.workers) - floor;
    return static_cast<std::uint32_t>(std::clamp<std::int64_t>(extra, 0, c.idle()));
  };
  auto idle = stretches(v.metrics, [&](const Counters& c) { return above(c) > 0; }, above,
                        [](const Counters& c) { return c.workers; });
  std::vector<std::int64_t> let_go;
  for (const metrics::Marker& m : v.metrics.markers())
    if (m.kind == EventKind::worker_reaped || m.kind == EventKind::worker_exited) let_go.push_back(m.t);
  const std::int64_t end = v.workload_end > 0 ? v.workload_end : v.metrics.last_time();
  std::int64_t best_from = 0, best_to = 0;
  std::uint32_t extra = 0, workers = 0;
  for (const Stretch& s : idle) {
    // The longest part of the stretch with no worker let go.
    std::int64_t from = s.from;
    const std::int64_t to = std::min(s.to, end);
    auto it = std::lower_bound(let_go.begin(), let_go.end(), s.from);
    for (;; ++it) {
      const std::int64_t stop = it != let_go.end() && *it < to ? *it : to;
      if (stop - from > best_to - best_from) {
        best_from = from;
        best_to = stop;
        extra = s.peak_a;
        workers = s.peak_b;
      }
      if (stop == to) break;
      from = stop;
    }
  }
  if (best_to - best_from < wait) return;
  const std::string& d = v.outcome.design;
  Finding f = make(v, "never-expire", best_from, best_to);
  f.summary = "up to " + std::to_string(extra) + " idle workers above the floor of " + std::to_string(floor) +
              " (of " + std::to_string(workers) + ") for " + seconds_text(to_s(best_to - best_from)) +
              ", none let go";
  if (!limit)
    f.why = "the design has no idle limit: workers started for a burst stay for the pool's life";
  else if (d == "gammazero")
    f.why = "one idle worker stops per idleTimeout with no new task: arrivals keep resetting the tick, so none stops";
  else
    f.why = "each idle worker got a task before its idle limit ran out: a trickle spread over all of them keeps every one";
  f.parameter = idle_knob(d);
  f.evidence = {{"idle_above_floor", static_cast<double>(extra)},
                {"floor", static_cast<double>(floor)},
                {"idle_s", to_s(best_to - best_from)},
                {"threshold_s", to_s(wait)}};
  out.push_back(std::move(f));
}

}  // namespace poolscope::findings
