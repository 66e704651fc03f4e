// The runner's "findings" section, printed under the table and the theory:
// each rule that fired, on which pool, when, the numbers, why, and the
// parameter that changes it (docs/findings.md).
#pragma once

#include <ostream>

#include "scenarios/engine/engine.h"

namespace poolscope::runner {

void print_findings(std::ostream& out, const scenario::RunOutcome& outcome, const metrics::RunMetrics& metrics);

}  // namespace poolscope::runner
