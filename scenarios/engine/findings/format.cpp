#include <cmath>
#include <cstdio>

#include "scenarios/engine/findings/rules.h"

namespace poolscope::findings {

double to_s(std::int64_t ns) { return static_cast<double>(ns) / 1e9; }

std::string seconds_text(double s) {
  char buf[32];
  if (s >= 1) std::snprintf(buf, sizeof buf, "%.3g s", s);
  else if (s >= 1e-3) std::snprintf(buf, sizeof buf, "%.3g ms", s * 1e3);
  else std::snprintf(buf, sizeof buf, "%.3g us", s * 1e6);
  return buf;
}

Finding make(const PoolView& v, const char* rule, std::int64_t from, std::int64_t to) {
  Finding f;
  f.rule = rule;
  f.pool = v.outcome.name;
  f.from = from;
  f.to = std::max(from, to);
  return f;
}

}  // namespace poolscope::findings
