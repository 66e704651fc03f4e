// The runner's "theory" section, printed under the comparison table: per
// Poisson phase, each pool's predicted figures (M/M/c, Erlang B, M/M/c/K)
// beside its measured ones (docs/theory.md).
#pragma once

#include <ostream>

#include "scenarios/engine/engine.h"

namespace poolscope::runner {

void print_theory(std::ostream& out, const scenario::Scenario& s, const scenario::RunOutcome& outcome,
                  const metrics::RunMetrics& metrics);

}  // namespace poolscope::runner
