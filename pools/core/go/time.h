// Go's time.Ticker and time.Timer, on a poolscope Clock (so a manual clock in
// a test, or the scenario's clock, drives them).
#pragma once

#include <mutex>

#include "pools/core/clock.h"
#include "pools/core/go/select.h"

namespace poolscope::go {

// Go's time.Ticker: ticks at origin + k * period, where
// origin is the construction time. A slow receiver gets one tick, not a
// backlog (Go drops ticks the same way), so advance a manual clock one period
// at a time to see every tick.
class Ticker {
 public:
  Ticker(Clock& clock, Nanos period);
  // Blocks until the next tick; returns false (at once) after stop().
  bool wait();
  void stop();
  // Restarts the period from now (Go's Ticker.Reset / Timer.Reset).
  void reset(Nanos period);
  Nanos period() const;

 private:
  Clock& clock_;
  mutable Mutex m_;
  CondVar cv_;
  Nanos period_;
  Time next_;
  bool stopped_ = false;
};

// Go's time.Timer, as the dispatcher of a pool uses it: one goroutine owns
// it, waits for it in a select (`case <-t.C:` is `t.C()`), and Resets it
// after it fired. Not safe for concurrent use (Go's is; no port needs that).
class Timer {
 public:
  // time.NewTimer(d)
  Timer(Clock& clock, Nanos d) : clock_(&clock), when_(clock.now() + d) {}
  // t.Reset(d): due d from now.
  void Reset(Nanos d) { when_ = clock_->now() + d; }
  // t.Stop(): never fires until the next Reset.
  void Stop() { when_ = Time::max(); }
  // t.C, as a select case.
  TimerCase C() const { return after(*clock_, when_); }
  Time when() const { return when_; }

 private:
  Clock* clock_;
  Time when_;
};

}  // namespace poolscope::go
