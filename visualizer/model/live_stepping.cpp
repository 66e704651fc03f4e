// Being the scheduler (live.h, "being the scheduler"): a live simulated run
// whose decisions wait for the student. The engine's Stepper pauses the
// World at each decision; a Recorder around it keeps every pick (the
// student's and the policy's), which is the schedule a link carries and
// undo replays.
#include "visualizer/model/live.h"

#include "pools/core/platform.h"

namespace poolscope::gui {

std::optional<std::size_t> LiveSession::Recorder::choose(const sim::Decision& d) {
  const std::optional<std::size_t> i = stepper.choose(d);
  if (i) picks.push_back(d.candidates[*i].thread);
  return i;
}

bool LiveSession::start_stepped(std::vector<std::uint64_t> picks) {
  end_run();
  if (!scenario_) return false;
  scenario::Scenario s = *scenario_;
  s.time_scale = time_scale_;
  if (!s.simulation) s.simulation = sim_spec_;  // a decision is the simulation's
  run_sim_ = scenario::simulation_settings(s);
  stepper_ = std::make_unique<sim::Stepper>(std::move(picks));
  recorder_ = std::make_unique<Recorder>(*stepper_);
  picked_ = false;
  // On this thread, a slice a frame, on the desktop as in a page: the
  // Stepper pauses the World between two slices, never blocking a thread.
  run_ = std::make_unique<scenario::Run>(std::move(s), scenario::RunOptions{.keep_events = true,
                                                                             .limits = live_limits(),
                                                                             .paced = false,
                                                                             .sliced = true,
                                                                             .chooser = recorder_.get()});
  run_->start();
  return true;
}

std::optional<sim::Decision> LiveSession::decision() const {
  if (!stepper_ || picked_ || !run_ || run_->finished()) return std::nullopt;
  return stepper_->waiting();
}

bool LiveSession::pick(std::uint64_t thread) {
  if (!decision() || !stepper_->pick(thread)) return false;
  picked_ = true;
  return true;
}

void LiveSession::policy_for(std::uint64_t n) {
  if (!stepper_ || n == 0) return;
  stepper_->policy_for(n);
  picked_ = true;
}

void LiveSession::to_next_that_matters() {
  if (!stepper_) return;
  stepper_->to_next_that_matters();
  picked_ = true;
}

void LiveSession::run_on() {
  if (!stepper_) return;
  stepper_->run_on();
  picked_ = true;
}

const std::vector<std::uint64_t>& LiveSession::schedule() const {
  static const std::vector<std::uint64_t> none;
  return recorder_ ? recorder_->picks : none;
}

bool LiveSession::undo() {
  if (!stepper_ || recorder_->picks.empty()) return false;
  std::vector<std::uint64_t> picks = recorder_->picks;
  picks.pop_back();
  return start_stepped(std::move(picks));
}

std::string LiveSession::stepping_error() const {
  if (!stepper_) return "";
  if (std::string e = stepper_->error(); !e.empty()) return e;
  if (run_ && run_->finished() && run_->outcome().simulation && run_->outcome().simulation->failure)
    return *run_->outcome().simulation->failure;
  return "";
}

void LiveSession::end_run() {
  // A stepped run waiting for a pick is let go on by the policy, so that
  // ending it (Run's destructor: stopped, then run to its end) ends it.
  if (stepper_) stepper_->run_on();
  run_.reset();
  recorder_.reset();
  stepper_.reset();
  picked_ = false;
  run_sim_.reset();
  lateness_.clear();
  index_.reset();
  tuned_.clear();
}

}  // namespace poolscope::gui
