// Tasks waiting in a queue while workers sit idle. A hand-off takes a
// wake-up (microseconds), so queued and idle overlap briefly in every
// queueing pool; a stretch counts when it lasts at least as long as a
// typical task (the median service time, and at least 1 ms): long enough
// that an idle worker could have run a task meanwhile.
#include <algorithm>

#include "scenarios/engine/findings/rules.h"

namespace poolscope::findings {

void idle_while_queued(const PoolView& v, std::vector<Finding>& out) {
  const std::int64_t min_len = std::max(kHandoffFloor, v.summary.service.p50);
  auto all = stretches(
      v.metrics, [](const Counters& c) { return c.queued > 0 && c.idle() > 0; },
      [](const Counters& c) { return c.idle(); }, [](const Counters& c) { return c.queued; });
  std::vector<Stretch> kept;
  for (const Stretch& s : all)
    if (s.length() >= min_len) kept.push_back(s);
  if (kept.empty()) return;
  std::int64_t total = 0;
  std::uint32_t max_idle = 0, max_queued = 0;
  const Stretch* longest = &kept.front();
  for (const Stretch& s : kept) {
    total += s.length();
    max_idle = std::max(max_idle, s.peak_a);
    max_queued = std::max(max_queued, s.peak_b);
    if (s.length() > longest->length()) longest = &s;
  }
  Finding f = make(v, "idle-while-queued", longest->from, longest->to);
  f.summary = std::to_string(kept.size()) + " stretches, " + seconds_text(to_s(total)) + " in all (longest " +
              seconds_text(to_s(longest->length())) + "), with up to " + std::to_string(max_idle) +
              " workers idle while up to " + std::to_string(max_queued) + " tasks waited";
  const std::string& d = v.outcome.design;
  if (d == "redis-io")
    f.why = "the main thread deals the pending writes once per loop iteration: I/O threads that finished their share idle until the next";
  else if (d == "redis-bio")
    f.why = "each job type has its own thread and list: a job waits behind its own type while the other threads idle";
  else if (d == "ants-multi")
    f.why = "each sub-pool queues for its own workers: one pool's tasks wait while another's workers idle";
  else
    f.why = "the design hands a queued task to an idle worker only at its own pace (a dispatcher, a tick, a wake-up)";
  if (d == "redis-io") f.parameter = "io-threads, hz";
  else if (d == "redis-bio") f.parameter = "jobType";
  else if (d == "ants-multi") f.parameter = "lbs";
  else f.parameter = max_knob(d);
  f.evidence = {{"stretches", static_cast<double>(kept.size())},
                {"total_s", to_s(total)},
                {"longest_s", to_s(longest->length())},
                {"max_idle_while_queued", static_cast<double>(max_idle)},
                {"max_queued_while_idle", static_cast<double>(max_queued)},
                {"threshold_s", to_s(min_len)}};
  out.push_back(std::move(f));
}

}  // namespace poolscope::findings
