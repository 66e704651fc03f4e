// Being the scheduler: a simulated run stepped by decision (issue 49).
//
// A *decision* is a moment where more than one thread is runnable, and the
// World (world.h) must pick one. Normally its seeded policy picks. With a
// Chooser set (World::set_chooser, or RunOptions::chooser for a scenario's
// run) the World asks the Chooser at every decision instead, showing it the
// candidates: each runnable thread, where it stands, what it does next when
// chosen, and the object it touches. Moments with one runnable thread are
// taken without asking.
//
// The policy's own pick is computed first, drawing from the random stream
// exactly as it would without a Chooser, so a Chooser that always takes
// Decision::policy_pick runs the very run the seed alone runs, and the
// picks made so far (World::schedule(), the *schedule*) replay it exactly:
// the same scenario, settings and picks give the same events. Undo is a
// replay of the schedule minus its last pick.
//
//   Stepper (below)   the Chooser a GUI, a test or the runner drives: it
//                     replays given picks, then pauses at each decision
//                     (or lets the policy go on), picks by thread id, lets
//                     the policy take the next N, or runs on to the next
//                     decision that matters.
//   schedule.h        picks as text ("3.5.5x3") for links and files.
#pragma once

#include <cstddef>
#include <cstdint>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "pools/core/clock.h"

namespace poolscope::sim {

// One runnable thread at a decision.
struct Candidate {
  std::uint64_t thread = 0;  // its id in the World (what a schedule's pick names), from 1 in start order
  std::string name;          // "lab01-2", "ants worker 3", "submitter 1"
  std::string group;         // the pool (or part of the run) it works for
  std::string where;         // the scheduling point it stands at: "Mutex::lock", "CondVar::wait"
  std::string next;          // what it does next when chosen, in a few words
  // The object its next step touches (a lock, a condition variable: the
  // primitive's wait list), or nullptr; object_label names it ("lock #2")
  // by order of first appearance in the run, the same on every replay.
  const void* object = nullptr;
  std::string object_label;
};

struct Decision {
  std::uint64_t index = 0;  // 0-based: how many decisions came before
  Time at{0};               // virtual time
  std::vector<Candidate> candidates;  // in the order they became runnable
  std::size_t policy_pick = 0;        // the candidate the seeded policy picks
  // A decision that matters: two candidates touch the same object, so their
  // order can change what happens (who gets the lock, who sees the queue
  // first). Elsewhere any order leads to the same state.
  bool matters() const;
  // The candidate whose thread is `thread`, or nullopt.
  std::optional<std::size_t> find(std::uint64_t thread) const;
  // "decision 4 at 10ms: 3 'lab01-1' at Mutex::lock, 5 'submitter 1' at CondVar::notify_one"
  std::string describe() const;
};

// Asked by the World at every decision, on the World's OS thread, between
// two switches (no thread of the run is running).
class Chooser {
 public:
  virtual ~Chooser() = default;
  // The candidate to run (an index into d.candidates), or nullopt to pause:
  // World::run_for then returns false, and the same decision is asked again
  // at the next slice. To refuse the run (a pick that does not fit), throw
  // sim::Failure (world.h) saying why.
  virtual std::optional<std::size_t> choose(const Decision& d) = 0;
};

// The Chooser a student (a GUI), a test or the runner drives. It first
// replays `picks`, one per decision (a pick whose thread is not runnable
// there fails the run, naming the decision and who was runnable); then it
// pauses at each decision (After::pause) or lets the policy pick on
// (After::policy). While paused, the caller says how to go on. Its calls may
// come from another thread than the World's (a GUI's, while a controller
// thread runs the World): they are guarded.
class Stepper final : public Chooser {
 public:
  enum class After { pause, policy };
  explicit Stepper(std::vector<std::uint64_t> picks = {}, After after = After::pause);

  std::optional<std::size_t> choose(const Decision& d) override;

  // The decision the run is paused at, if it is.
  std::optional<Decision> waiting() const;
  // Answers the decision paused at with the candidate whose thread is
  // `thread`; false if no candidate is (nothing changes then).
  bool pick(std::uint64_t thread);
  // Lets the seeded policy pick the next `n` decisions (the one paused at
  // included), then pauses again.
  void policy_for(std::uint64_t n);
  // Lets the policy pick until a decision that matters (Decision::matters),
  // and pauses there.
  void to_next_that_matters();
  // Lets the policy pick every decision from now on: no more pauses.
  void run_on();
  // The failure a replayed pick met, if any ("" otherwise).
  std::string error() const;

 private:
  mutable std::mutex m_;
  std::vector<std::uint64_t> replay_;
  std::size_t replayed_ = 0;
  After after_;
  std::optional<Decision> waiting_;
  std::optional<std::uint64_t> answer_;  // a thread id picked while paused
  std::uint64_t policy_left_ = 0;
  bool to_matters_ = false;
  std::string error_;
};

}  // namespace poolscope::sim
