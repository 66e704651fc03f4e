// Submitters blocked inside submit for longer than a task takes (the median
// service time, at least 1 ms): the caller, not the pool, absorbed the
// overload, and every arrival behind it was late. A wait shorter than a task
// is the ordinary hand-off of a full pool; one longer is a pool too small,
// or a design that should refuse or queue instead.
#include <algorithm>

#include "scenarios/engine/findings/rules.h"

namespace poolscope::findings {

void blocked_submitters(const PoolView& v, std::vector<Finding>& out) {
  const std::int64_t task = std::max(kHandoffFloor, v.summary.service.p50);
  std::size_t count = 0;
  std::int64_t first = -1, last = 0, longest = 0, total = 0;
  for (const metrics::BlockedWait& w : v.metrics.blocked_waits()) {
    const std::int64_t len = w.to - w.from;
    if (len <= task) continue;
    ++count;
    total += len;
    longest = std::max(longest, len);
    first = first < 0 ? w.from : std::min(first, w.from);
    last = std::max(last, w.to);
  }
  if (count == 0) return;
  Finding f = make(v, "blocked-submitters", first, last);
  f.summary = std::to_string(count) + " waits inside submit longer than a task (" + seconds_text(to_s(task)) +
              "): longest " + seconds_text(to_s(longest)) + ", " + seconds_text(to_s(total)) + " lost in all";
  f.why = "a full pool makes the submitter wait for a worker: the caller absorbs the overload and later arrivals are late";
  f.parameter = blocking_knob(v.outcome.design);
  f.evidence = {{"waits", static_cast<double>(count)},
                {"longest_s", to_s(longest)},
                {"total_s", to_s(total)},
                {"median_task_s", to_s(task)},
                {"peak_blocked", static_cast<double>(v.summary.peak_blocked)}};
  out.push_back(std::move(f));
}

}  // namespace poolscope::findings
