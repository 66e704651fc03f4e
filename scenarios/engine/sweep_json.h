// A sweep's outputs (docs/sweeps.md): the JSON document
// (`poolscope-sweep/1`, docs/schemas/sweep.schema.json) and the CSV, one row
// per point and pool. The GUI reads the JSON back (read_sweep).
#pragma once

#include <ostream>

#include "scenarios/engine/sweep_run.h"

namespace poolscope::scenario::sweep {

inline constexpr std::string_view kSweepFormat = "poolscope-sweep/1";

// "ok" when every point is ok (or stopped), else "failed".
std::string overall_status(const std::vector<PointResult>& points);

json sweep_json(const Sweep& sweep, const std::vector<PointResult>& points);

// point,<each param>,pool,<each metric>,status; metrics as numbers (seconds
// for durations), an empty cell where a pool measured nothing.
void write_csv(std::ostream& out, const Sweep& sweep, const std::vector<PointResult>& points);

}  // namespace poolscope::scenario::sweep
