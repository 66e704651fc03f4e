// Refusals while the pool had room: below its maximum of workers, or with a
// worker that had sat idle since at least 1 ms before (so not one that ended
// its task in the same instant and was on its way back, a race every
// refusing design shows). The design turned away a task its own limits had
// room for: a sub-pool full while others idled (ants' MultiPool), a spawn
// rate, a queue sized apart from the workers. The workers are the gauges at
// the refusal in stream order (the marker's). Any one such refusal is
// flagged: a refusal is a lost task. Refusals because the pool was closing
// are the shutdown's, not the limit's.
#include <algorithm>
#include <map>

#include "scenarios/engine/findings/rules.h"

namespace poolscope::findings {

namespace {
constexpr std::int64_t kIdleSince = 1'000'000;  // 1 ms: far above a worker's way back to its wait

// The fewest idle workers in force at any time within [t0, t1].
std::uint32_t min_idle(const metrics::PoolMetrics& m, std::int64_t t0, std::int64_t t1) {
  const auto& s = m.series();
  auto it = std::upper_bound(s.begin(), s.end(), t0, [](std::int64_t v, const metrics::CounterPoint& p) { return v < p.t; });
  std::uint32_t least = it == s.begin() ? 0 : std::prev(it)->c.idle();
  for (; it != s.end() && it->t <= t1; ++it) least = std::min(least, it->c.idle());
  return least;
}
}  // namespace

void refused_below_max(const PoolView& v, std::vector<Finding>& out) {
  const auto max = max_workers(v);
  std::size_t count = 0, refused = 0, with_idle = 0;
  std::int64_t first = -1, last = 0;
  std::uint32_t fewest = UINT32_MAX, most_idle = 0;
  std::map<std::string, std::size_t> reasons;
  for (const metrics::Marker& m : v.metrics.markers()) {
    if (m.kind != EventKind::task_refused) continue;
    const std::string reason(label_code(m.rule));
    if (reason.find("closed") != std::string::npos || reason.find("shutdown") != std::string::npos) continue;
    ++refused;
    const Counters& c = m.counters;
    const bool below = max && static_cast<std::int64_t>(c.workers) < *max;
    const bool idle = c.idle() > 0 && min_idle(v.metrics, m.t - kIdleSince, m.t) > 0;
    if (!below && !idle) continue;
    ++count;
    with_idle += idle;
    ++reasons[reason.empty() ? "unspecified" : reason];
    if (first < 0) first = m.t;
    last = m.t;
    fewest = std::min(fewest, c.workers);
    most_idle = std::max(most_idle, c.idle());
  }
  if (count == 0) return;
  const std::string& d = v.outcome.design;
  Finding f = make(v, "refused-below-max", first, last);
  std::string by;
  for (const auto& [r, n] : reasons) by += (by.empty() ? "" : ", ") + r + ": " + std::to_string(n);
  f.summary = std::to_string(count) + " of " + std::to_string(refused) + " refusals came with room: " +
              std::to_string(with_idle) + " with workers idle (up to " + std::to_string(most_idle) + "), " +
              "as few as " + std::to_string(fewest) + " workers" + (max ? " of " + std::to_string(*max) : std::string()) +
              " (" + by + ")";
  if (d == "ants-multi")
    f.why = "a task goes to one sub-pool, which refuses when full although the others have idle workers";
  else if (d == "phpfpm")  // what makes its master fork, by process manager (docs/pools/phpfpm.md)
    f.why = v.outcome.config.value("pm", "") == "static"
                ? "a static pool never forks more children: the backlog filled while every child was busy"
            : v.outcome.config.value("pm", "") == "ondemand"
                ? "the backlog filled faster than the master forks: one child per wake-up of the master (the "
                  "listening socket's event is edge-triggered), and a new child is not idle until it reaches accept()"
                : "the backlog filled faster than the master forks children (once a second, at a doubling rate)";
  else
    f.why = "the design refuses on its own count (a queue, a slot, a ready list), not on the workers it has or could start";
  f.parameter = max_knob(d);
  f.evidence = {{"refused_with_room", static_cast<double>(count)},
                {"refused", static_cast<double>(refused)},
                {"with_idle_workers", static_cast<double>(with_idle)},
                {"most_idle", static_cast<double>(most_idle)},
                {"fewest_workers", static_cast<double>(fewest)}};
  if (max) f.evidence.push_back({"max", static_cast<double>(*max)});
  out.push_back(std::move(f));
}

}  // namespace poolscope::findings
