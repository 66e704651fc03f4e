// The side-by-side comparison printed after a run: one column per pool.
#pragma once

#include <ostream>

#include "scenarios/engine/engine.h"

namespace poolscope::runner {

void print_summary_table(std::ostream& out, const scenario::Scenario& s, const scenario::RunOutcome& outcome,
                         const metrics::RunMetrics& metrics);

// "12.3ms", "1.50s", "850us"
std::string human_duration(double seconds);

}  // namespace poolscope::runner
