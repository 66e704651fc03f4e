// `poolscope run --schedule FILE`: a run replayed pick by pick from a
// schedule file or a stepped run's result (scenarios/engine/schedule_file.h),
// then on under the seeded policy.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "pools/core/sim/decision.h"
#include "scenarios/engine/scenario.h"

namespace poolscope::runner {

// Reads FILE, and sets what it decides: the simulation, its seed and
// policy, the scenario (unless one was given) and the pool. Returns the
// Chooser that replays its picks. Bad files: ScenarioErrors naming the file
// and the field (exit 2).
std::unique_ptr<sim::Stepper> apply_schedule_file(const std::string& file, bool scenario_given, std::string& scenario,
                                                  scenario::Overrides& o);

}  // namespace poolscope::runner
