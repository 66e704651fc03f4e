// Paces a simulated run for a live view: virtual time may run ahead of wall
// time only by the chosen speed (0.1x to 1000x), stops while paused, and
// moves one step at a time when stepped. Without a pacer a simulation runs
// as fast as it can (the headless runner).
//
// The World calls pace() (or, on a thread that must not block, try_pass())
// on its own OS thread before it moves virtual time; the GUI calls the rest
// from its thread.
#pragma once

#include <chrono>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <optional>

#include "pools/core/clock.h"

namespace poolscope::scenario {

class Pacer {
 public:
  explicit Pacer(double speed, bool paused = false);

  // Blocks until virtual time may move from `from` to `to`. `before_wait`,
  // if given, runs (outside the pacer's lock) once before it first blocks:
  // the World has nothing to do until then, and a view paused or stepped
  // here should see everything up to this instant.
  void pace(Time from, Time to, const std::function<void()>& before_wait = {});
  // pace() without the wait: whether virtual time may move to `to` now (a
  // sliced run asks again at its next slice). Each false makes held() true.
  bool try_pass(Time to);
  // The last try_pass() was refused: virtual time is ahead of the wall
  // clock, or the run is paused.
  bool held() const;

  void set_speed(double speed);  // > 0: virtual seconds per wall second
  double speed() const;
  void pause();
  void resume();
  bool paused() const;
  // While paused: lets virtual time move once, to the next thing due.
  void step();
  // Pauses by itself before virtual time passes `at` (once: then it is
  // cleared), so a view sees every event up to `at` and none after it (a
  // lesson's question asked at that moment); nullopt clears it.
  void pause_at(std::optional<Time> at);
  // The moment pause_at() paused it at, while it stays paused there (every
  // event up to it drained, none after): nullopt otherwise.
  std::optional<Time> paused_at() const;
  // Lets every pace() through at once, for good (the run is stopping).
  void release();

 private:
  void rebase_locked(Time at);
  // Whether `to` may pass now (taking a step if paused); else, when it may.
  enum class Verdict { pass, paused, early };
  Verdict verdict_locked(Time to, std::chrono::steady_clock::time_point& due);

  mutable std::mutex m_;
  std::condition_variable changed_;
  double speed_;
  bool paused_;
  bool released_ = false;
  int steps_ = 0;
  std::optional<Time> pause_at_, paused_at_;
  // The anchor: virtual time `base_` was reached at wall time `base_wall_`.
  Time base_{0};
  std::chrono::steady_clock::time_point base_wall_;
  Time last_{0};  // the last virtual time let through
  bool held_ = false;
};

}  // namespace poolscope::scenario
