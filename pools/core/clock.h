// The injected clock. Every timed behaviour of every design (idle timeouts,
// cleaner and purge periods, keep-alive, tickers) goes through a Clock, so the
// same pool code runs on real time, on scaled time (watch a 10 s idle timeout
// in 1 s) and on a manual clock that tests advance by hand.
//
// Time is measured from the clock's origin (its construction), in nanoseconds,
// so trace timestamps start near zero and every clock speaks the same unit.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>

#include "pools/core/scheduler.h"
#include "pools/core/sync.h"
#include "pools/core/time_pieces.h"

namespace poolscope {

using Nanos = std::chrono::nanoseconds;
using Time = std::chrono::nanoseconds;  // since the clock's origin

class Clock;

// A type-erased reference to any BasicLockable (std::unique_lock<std::mutex>,
// a guard on a spin lock, ...), so timed waits can be virtual on the Clock.
class LockRef {
 public:
  template <class Lock>
  explicit LockRef(Lock& lock)
      : lock_(&lock),
        do_lock_([](void* l) { static_cast<Lock*>(l)->lock(); }),
        do_unlock_([](void* l) { static_cast<Lock*>(l)->unlock(); }) {}
  void lock() { do_lock_(lock_); }
  void unlock() { do_unlock_(lock_); }

 private:
  void* lock_;
  void (*do_lock_)(void*);
  void (*do_unlock_)(void*);
};

// A condition variable whose timed waits follow a poolscope Clock. Untimed
// waits and notifications behave like std::condition_variable_any (it works
// with any lock, e.g. ants' spin lock). Under a Scheduler (scheduler.h; a
// simulation's World) every wait and notify is the Scheduler's, and a timed
// wait's deadline is on the Scheduler's time whichever clock is passed.
class CondVar {
 public:
  template <class Lock>
  void wait(Lock& lock) {
    if (Scheduler* s = this_thread::scheduler()) [[unlikely]] {
      scheduled_wait(*s, LockRef(lock), std::nullopt);
      return;
    }
    cv_.wait(lock);
  }
  template <class Lock, class Pred>
  void wait(Lock& lock, Pred pred) {
    while (!pred()) wait(lock);
  }
  // Waits until notified or until `clock` reaches `deadline` (spurious wake-ups
  // possible, as with any condition variable). Returns timeout once the
  // deadline has passed.
  template <class Lock>
  std::cv_status wait_until(Lock& lock, Clock& clock, Time deadline);
  template <class Lock, class Pred>
  bool wait_until(Lock& lock, Clock& clock, Time deadline, Pred pred);

  void notify_one() noexcept {
    if (Scheduler* s = this_thread::scheduler()) [[unlikely]]
      return scheduled_notify(*s, false);
    cv_.notify_one();
  }
  void notify_all() noexcept {
    if (Scheduler* s = this_thread::scheduler()) [[unlikely]]
      return scheduled_notify(*s, true);
    cv_.notify_all();
  }

 private:
  friend class SteadyClock;
  friend class ManualClock;
  friend class AdjustableClock;
  std::cv_status scheduled_wait(Scheduler& s, LockRef lock, std::optional<Time> deadline);
  // `deadline` on `clock` as the Scheduler's time (a clock may count from
  // its own origin, as each segment of a sequential run does).
  static Time scheduled_deadline(Scheduler& s, Clock& clock, Time deadline);
  void scheduled_notify(Scheduler& s, bool all) noexcept;
  std::condition_variable_any cv_;
  WaitList waiters_;  // under a Scheduler only
};

class Clock {
 public:
  virtual ~Clock() = default;
  virtual Time now() const = 0;
  // Blocks on `cv`, with `lock` held on entry and on return, until notified or
  // until now() >= deadline. Use CondVar::wait_until rather than this.
  virtual std::cv_status wait_until(CondVar& cv, LockRef lock, Time deadline) = 0;

  void sleep_until(Time deadline);
  void sleep_for(Nanos d) { sleep_until(now() + d); }
};

// Real time, optionally scaled: with scale 10, a 10 s timeout passes in 1 s of
// wall time. Scale 1 is the plain steady clock.
class SteadyClock final : public Clock {
 public:
  explicit SteadyClock(double scale = 1.0);
  Time now() const override;
  std::cv_status wait_until(CondVar& cv, LockRef lock, Time deadline) override;
  double scale() const { return scale_; }
  // Its time as one piece of steady_clock's, for a trace stream (pool_trace.cpp).
  TimePiece piece() const { return TimePiece{origin_.time_since_epoch().count(), 0, scale_}; }

 private:
  std::chrono::steady_clock::time_point origin_;
  double scale_;
};

// A clock that only moves when a test calls advance(). advance() notifies the
// waiters whose deadline it passed, in deadline order. That is the order of
// the notifications only: when one advance passes several deadlines, the
// woken threads run in whatever order the scheduler picks (advance one
// deadline at a time where the order matters). A waiter whose deadline is
// still ahead keeps sleeping however long the test takes, unless it shares a
// CondVar with a notified waiter: then it wakes too, finds its deadline ahead
// and waits again, as after any spurious wake-up.
class ManualClock final : public Clock {
 public:
  Time now() const override;
  std::cv_status wait_until(CondVar& cv, LockRef lock, Time deadline) override;

  void advance(Nanos d);
  void advance_to(Time t);

  // Threads currently blocked in a timed wait on this clock.
  std::size_t waiters() const;
  // Test helper: blocks (on real time, at most `limit`) until at least `n`
  // threads are blocked on this clock. Returns false if the limit passed.
  bool await_waiters(std::size_t n, std::chrono::milliseconds limit = std::chrono::seconds(10)) const;

 private:
  mutable std::mutex m_;
  mutable std::condition_variable waiters_changed_;
  Time now_{0};
  std::multimap<Time, CondVar*> waiting_;
};

// Real time that can be paused, resumed and rescaled while pools run on it:
// the scenario engine's clock, so the GUI can pause a run or change its speed.
// Every timed waiter is re-timed on a change (a waiter that computed its
// wall-clock deadline under the old speed is woken to compute it again).
// now() takes no lock: every pool of a run reads this one clock, and every
// traced event of theirs used to take its mutex.
class AdjustableClock final : public Clock {
 public:
  // Starts at time 0, running, or paused there when `paused`.
  explicit AdjustableClock(double scale = 1.0, bool paused = false);
  Time now() const override { return Time(pieces_->now()); }
  std::cv_status wait_until(CondVar& cv, LockRef lock, Time deadline) override;

  double scale() const;
  void set_scale(double scale);  // > 0
  void pause();
  void resume();
  bool paused() const;

  // Its time as pieces of steady_clock's, for a trace stream that turns
  // events' ticks into this clock's time (pool_trace.cpp).
  std::shared_ptr<const TimePieces> pieces() const { return pieces_; }

  // Threads currently blocked in a timed wait on this clock.
  std::size_t waiters() const;
  // Test helper: blocks (on real time, at most `limit`) until at least `n`
  // threads are blocked on this clock. Returns false if the limit passed.
  bool await_waiters(std::size_t n, std::chrono::milliseconds limit = std::chrono::seconds(10)) const;

 private:
  void change_locked(double piece_scale);

  mutable std::mutex m_;  // changes, and the waiters
  mutable std::condition_variable waiters_changed_;
  std::shared_ptr<TimePieces> pieces_;
  double scale_;  // the speed while running, kept across a pause
  bool paused_ = false;
  std::multimap<Time, CondVar*> waiting_;
};

// The default clock for pools built without one: real, unscaled time.
Clock& default_clock();

template <class Lock>
std::cv_status CondVar::wait_until(Lock& lock, Clock& clock, Time deadline) {
  if (Scheduler* s = this_thread::scheduler()) [[unlikely]]
    return scheduled_wait(*s, LockRef(lock), scheduled_deadline(*s, clock, deadline));
  return clock.wait_until(*this, LockRef(lock), deadline);
}

template <class Lock, class Pred>
bool CondVar::wait_until(Lock& lock, Clock& clock, Time deadline, Pred pred) {
  while (!pred()) {
    if (wait_until(lock, clock, deadline) == std::cv_status::timeout) return pred();
  }
  return true;
}

}  // namespace poolscope
