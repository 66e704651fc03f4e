// Head-of-line waiting behind long tasks (the heavy-tail lesson): a few
// huge tasks hold the workers and the short tasks behind them wait. A task
// is long when it ran ten times the median service time (a tail, not the
// body: for exponential service times one task in a thousand); a task was
// held up when it waited longer than two typical tasks (so the wait, not
// the work, made most of its latency) and, as it arrived, long tasks held at
// least half the busy workers: the wait is theirs, not a general overload's.
// Flagged from 3 such tasks on: a pattern, not one unlucky arrival.
#include <algorithm>

#include "scenarios/engine/findings/rules.h"

namespace poolscope::findings {

namespace {
constexpr std::int64_t kLongFactor = 10;
constexpr std::int64_t kWaitFactor = 2;
constexpr std::size_t kMinHeldUp = 3;
}  // namespace

void head_of_line(const PoolView& v, std::vector<Finding>& out) {
  const std::int64_t typical = std::max(kHandoffFloor, v.summary.service.p50);
  const std::int64_t long_task = kLongFactor * typical;
  const std::int64_t long_wait = kWaitFactor * typical;
  struct Slice {
    std::int64_t start, end;
  };
  std::vector<Slice> longs;
  for (const metrics::WorkerLane& l : v.metrics.lanes())
    for (const metrics::TaskSlice& t : l.slices) {
      const std::int64_t end = t.end < 0 ? v.metrics.last_time() : t.end;
      if (end - t.start >= long_task) longs.push_back({t.start, end});
    }
  if (longs.empty()) return;
  // Stable: slices that start together keep their order on every standard library.
  std::stable_sort(longs.begin(), longs.end(), [](const Slice& a, const Slice& b) { return a.start < b.start; });
  std::size_t held = 0;
  std::int64_t first = -1, last = 0, longest = 0;
  std::uint32_t most_long = 0;
  for (const metrics::Arrival& a : v.metrics.arrivals()) {
    if (a.wait < long_wait || a.busy == 0) continue;
    std::uint32_t running_long = 0;
    for (const Slice& s : longs) {
      if (s.start > a.submitted) break;
      if (s.end > a.submitted) ++running_long;
    }
    if (2 * running_long < a.busy) continue;
    ++held;
    if (first < 0) first = a.submitted;
    last = std::max(last, a.submitted + a.wait);
    longest = std::max(longest, a.wait);
    most_long = std::max(most_long, running_long);
  }
  if (held < kMinHeldUp) return;
  const std::string& d = v.outcome.design;
  Finding f = make(v, "head-of-line", first, last);
  f.summary = std::to_string(held) + " tasks waited over " + seconds_text(to_s(long_wait)) + " (longest " +
              seconds_text(to_s(longest)) + ") while up to " + std::to_string(most_long) + " of " +
              std::to_string(longs.size()) + " long tasks held the workers";
  f.why = "tasks wait in arrival order: short ones queue behind the few huge ones that hold the workers";
  f.parameter = max_knob(d) + (d == "java" ? " (or a PriorityBlockingQueue)" : "");
  f.evidence = {{"held_up", static_cast<double>(held)},
                {"longest_wait_s", to_s(longest)},
                {"long_tasks", static_cast<double>(longs.size())},
                {"most_long_running", static_cast<double>(most_long)},
                {"long_task_s", to_s(long_task)},
                {"long_wait_s", to_s(long_wait)},
                {"median_task_s", to_s(typical)}};
  out.push_back(std::move(f));
}

}  // namespace poolscope::findings
