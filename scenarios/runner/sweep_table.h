// A sweep's table: one row per point and pool, the point's parameter values,
// then the chosen metrics (durations shown as durations), and each point's
// status when any point was not ok.
#pragma once

#include <ostream>

#include "scenarios/engine/sweep_run.h"

namespace poolscope::runner {

void print_sweep_table(std::ostream& out, const scenario::sweep::Sweep& sweep,
                       const std::vector<scenario::sweep::PointResult>& points);

}  // namespace poolscope::runner
