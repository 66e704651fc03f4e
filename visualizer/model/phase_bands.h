// The scenario's phases as the timeline draws them: one band each, one after
// another from 0, read from the scenario document as written (a live edit, a
// replay's file, a sweep's scenario), not from a parsed Scenario.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "pools/core/params.h"

namespace poolscope::gui {

struct PhaseBand {
  std::string name, kind;  // kind: the arrival ("poisson", "burst", "idle" ...)
  std::int64_t start = 0, end = 0;
};

// A scenario document's phases, one band each, in scenario time; up to the
// first that does not read (a live edit in progress).
std::vector<PhaseBand> phase_bands(const json& doc);

}  // namespace poolscope::gui
