#include "scenarios/runner/findings_table.h"

#include <cstdio>

#include "scenarios/engine/findings.h"

namespace poolscope::runner {

namespace {
std::string at(std::int64_t ns) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3f", static_cast<double>(ns) / 1e9);
  return buf;
}
}  // namespace

void print_findings(std::ostream& out, const scenario::RunOutcome& outcome, const metrics::RunMetrics& metrics) {
  const auto found = findings::find(outcome, metrics);
  out << "\nfindings (docs/findings.md)";
  if (found.empty()) {
    out << ": none\n";
    return;
  }
  out << "\n";
  for (const findings::Finding& f : found) {
    out << "\n" << f.pool << ": " << f.rule << ", " << at(f.from) << "-" << at(f.to) << " s\n"
        << "  " << f.summary << "\n"
        << "  why: " << f.why << "\n";
    if (!f.parameter.empty()) out << "  parameter: " << f.parameter << "\n";
  }
}

}  // namespace poolscope::runner
