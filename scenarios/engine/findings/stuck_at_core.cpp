// A pool that never grows past its core because its queue never fills: in
// ThreadPoolExecutor (and coremax, Java's order in Go) a thread above core
// starts only when the queue refuses a task, so with an unbounded queue the
// maximum is never reached and the backlog waits on the core threads. Flagged
// when tasks waited, with the pool at its core below its maximum, for longer
// than a typical task (the median service time, at least 1 ms): a thread
// more would have run them.
#include <algorithm>

#include "scenarios/engine/findings/rules.h"

namespace poolscope::findings {

void stuck_at_core(const PoolView& v, std::vector<Finding>& out) {
  const std::string& d = v.outcome.design;
  if (d != "java" && d != "coremax") return;  // the designs whose order is core, then queue, then max
  const std::int64_t core = config_integer(v, d == "java" ? "corePoolSize" : "coreSize").value_or(0);
  const std::int64_t max = max_workers(v).value_or(core);
  if (max <= core || static_cast<std::int64_t>(v.summary.peak_workers) > core) return;
  const std::int64_t min_len = std::max(kHandoffFloor, v.summary.service.p50);
  auto queued = stretches(
      v.metrics, [core](const Counters& k) { return k.queued > 0 && static_cast<std::int64_t>(k.workers) >= core; },
      [](const Counters& k) { return k.queued; }, [](const Counters& k) { return k.workers; });
  std::int64_t total = 0;
  std::uint32_t peak = 0;
  std::int64_t from = -1, to = 0;
  for (const Stretch& s : queued) {
    if (s.length() < min_len) continue;
    total += s.length();
    peak = std::max(peak, s.peak_a);
    if (from < 0) from = s.from;
    to = s.to;
  }
  if (from < 0) return;
  Finding f = make(v, "stuck-at-core", from, to);
  std::string queue = d == "java" ? config_text(v, "workQueue") : "task queue";
  if (queue.empty()) queue = "?";
  f.summary = "up to " + std::to_string(peak) + " tasks queued for " + seconds_text(to_s(total)) + " while the pool stayed at " +
              std::to_string(v.summary.peak_workers) + " workers (core " + std::to_string(core) + ", max " +
              std::to_string(max) + ")";
  f.why = "threads above core start only when the queue refuses a task; this " + queue +
          " never filled, so the maximum was never used";
  f.parameter = d == "java" ? "workQueue, queueCapacity, corePoolSize" : "taskQueueCap, coreSize";
  f.evidence = {{"core", static_cast<double>(core)},
                {"max", static_cast<double>(max)},
                {"peak_workers", static_cast<double>(v.summary.peak_workers)},
                {"peak_queued", static_cast<double>(peak)},
                {"queued_at_core_s", to_s(total)}};
  out.push_back(std::move(f));
}

}  // namespace poolscope::findings
