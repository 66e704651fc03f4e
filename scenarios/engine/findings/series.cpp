#include "scenarios/engine/findings/rules.h"

namespace poolscope::findings {

std::vector<Stretch> stretches(const metrics::PoolMetrics& m, const std::function<bool(const Counters&)>& holds,
                               const std::function<std::uint32_t(const Counters&)>& a,
                               const std::function<std::uint32_t(const Counters&)>& b) {
  std::vector<Stretch> out;
  std::optional<Stretch> open;
  for (const metrics::CounterPoint& p : m.series()) {
    if (holds(p.c)) {
      if (!open) open = Stretch{p.t, p.t};
      open->peak_a = std::max(open->peak_a, a(p.c));
      open->peak_b = std::max(open->peak_b, b(p.c));
    } else if (open) {
      open->to = p.t;
      out.push_back(*open);
      open.reset();
    }
  }
  if (open) {
    open->to = std::max(open->from, m.last_time());
    out.push_back(*open);
  }
  return out;
}

}  // namespace poolscope::findings
