// Decisions and the Stepper (decision.h).
#include "pools/core/sim/decision.h"

#include <sstream>

#include "pools/core/duration.h"
#include "pools/core/sim/world.h"

namespace poolscope::sim {

bool Decision::matters() const {
  for (std::size_t i = 0; i < candidates.size(); ++i)
    for (std::size_t j = i + 1; j < candidates.size(); ++j)
      if (candidates[i].object && candidates[i].object == candidates[j].object) return true;
  return false;
}

std::optional<std::size_t> Decision::find(std::uint64_t thread) const {
  for (std::size_t i = 0; i < candidates.size(); ++i)
    if (candidates[i].thread == thread) return i;
  return std::nullopt;
}

std::string Decision::describe() const {
  std::ostringstream out;
  out << "decision " << index << " at " << format_duration(at) << ":";
  for (std::size_t i = 0; i < candidates.size(); ++i) {
    const Candidate& c = candidates[i];
    out << (i ? ", " : " ") << c.thread << " '" << c.name << "' at " << c.where;
  }
  return out.str();
}

Stepper::Stepper(std::vector<std::uint64_t> picks, After after) : replay_(std::move(picks)), after_(after) {}

std::optional<std::size_t> Stepper::choose(const Decision& d) {
  std::lock_guard g(m_);
  if (replayed_ < replay_.size()) {
    const std::uint64_t want = replay_[replayed_];
    std::optional<std::size_t> i = d.find(want);
    if (!i) {
      error_ = "the schedule's pick " + std::to_string(replayed_ + 1) + " (thread " + std::to_string(want) +
               ") does not fit the run: at " + d.describe() + "; thread " + std::to_string(want) +
               " is not runnable there";
      throw Failure(error_);
    }
    ++replayed_;
    return i;
  }
  if (answer_) {
    std::optional<std::size_t> i = d.find(*answer_);
    answer_.reset();
    waiting_.reset();
    if (i) return i;
  }
  if (policy_left_ > 0) {
    --policy_left_;
    waiting_.reset();
    return d.policy_pick;
  }
  if (to_matters_ && !d.matters()) return d.policy_pick;
  if (after_ == After::policy) return d.policy_pick;
  to_matters_ = false;
  waiting_ = d;
  return std::nullopt;
}

std::optional<Decision> Stepper::waiting() const {
  std::lock_guard g(m_);
  return waiting_;
}

bool Stepper::pick(std::uint64_t thread) {
  std::lock_guard g(m_);
  if (!waiting_ || !waiting_->find(thread)) return false;
  answer_ = thread;
  return true;
}

void Stepper::policy_for(std::uint64_t n) {
  std::lock_guard g(m_);
  policy_left_ = n;
}

void Stepper::to_next_that_matters() {
  std::lock_guard g(m_);
  // The decision paused at is taken by the policy: the next one is looked for.
  policy_left_ = waiting_ ? 1 : 0;
  to_matters_ = true;
}

void Stepper::run_on() {
  std::lock_guard g(m_);
  after_ = After::policy;
  to_matters_ = false;
}

std::string Stepper::error() const {
  std::lock_guard g(m_);
  return error_;
}

}  // namespace poolscope::sim
