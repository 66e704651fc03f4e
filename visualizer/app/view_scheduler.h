// The Scheduler panel (docs/visualizer.md, "Be the scheduler"): a simulated
// run stepped by decision. At each point where more than one thread can run,
// the run waits, and the panel lists those threads: each one's name and
// pool, where it stands and what it does next when chosen, in the design's
// own words, with its lane outlined and numbered on the timeline. The
// student picks one (a click, or its number key), or lets the seeded policy
// pick the next N decisions, or runs on to the next decision that matters;
// Undo goes back one decision (the run is replayed from its start without
// its last pick). A challenge (challenge_play.h) adds its goal and hint above.
#pragma once

#include <cstdint>
#include <functional>
#include <string>

#include "visualizer/app/ui.h"

namespace poolscope::gui {

struct ChallengePlay;

// "3.5x4.3": the picks as a link's `sched=` carries them (pools/core/sim/schedule.h).
std::string schedule_text(const std::vector<std::uint64_t>& picks);

class SchedulerView {
 public:
  // Draws the panel while the live run is stepped; `play` is the challenge
  // played, if any. `share` copies a link to the schedule so far.
  void draw(Context& cx, const ChallengePlay* play, const std::function<void()>& share);
  // A decision waits for a pick: the number keys are the panel's, not the tabs'.
  bool takes_number_keys(const Context& cx) const;
  // The keyboard's ways (app_controls.cpp dispatches them from the shortcuts table).
  static void undo(Context& cx);
  void policy(Context& cx) const;
  static void to_next_that_matters(Context& cx);
  static void run_on(Context& cx);

 private:
  int policy_n_ = 5;      // "let the policy pick the next N"
  std::size_t shown_ = ~std::size_t{0};  // the decision last announced (for the page's live region)
};

}  // namespace poolscope::gui
