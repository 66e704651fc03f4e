// `run --schedule FILE` (schedule_option.h).
#include "scenarios/runner/schedule_option.h"

#include "scenarios/engine/schedule_file.h"

namespace poolscope::runner {

std::unique_ptr<sim::Stepper> apply_schedule_file(const std::string& file, bool scenario_given, std::string& scenario,
                                                  scenario::Overrides& o) {
  scenario::ScheduleSpec s = scenario::read_schedule_file(file);
  if (!scenario_given && s.scenario) scenario = *s.scenario;
  if (s.pool && o.pools.empty()) o.pools = {*s.pool};
  o.simulate = true;
  if (s.seed && !o.sim_seed) o.sim_seed = s.seed;
  if (s.policy && !o.policy) o.policy = s.policy;
  return std::make_unique<sim::Stepper>(std::move(s.picks), sim::Stepper::After::policy);
}

}  // namespace poolscope::runner
