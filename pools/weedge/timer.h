// C++: a worker's *time.Timer with its channel, under the pre-Go-1.23 rules
// (weedge/lib's go.mod says `go 1.15`): when the timer fires, a value goes
// into its 1-slot channel and stays there until received; Reset re-arms the
// timer but leaves a value already in the channel. A worker that let its
// timer fire unseen therefore finds a stale tick at its next task, which is
// then reported timed out at once. With go123 (Go 1.23 and later), Reset
// empties the channel first. go::Timer (pools/core/go/time.h) has no channel
// to hold a stale tick, hence this one. Only the worker's goroutine uses it.
#pragma once

#include "pools/core/go/select.h"

namespace poolscope::weedge {

class Timer {
 public:
  // time.NewTimer(d)
  Timer(Clock& clock, Nanos d, bool go123) : clock_(&clock), go123_(go123), when_(clock.now() + d) {}

  // timer.Reset(d)
  void Reset(Nanos d) {
    fold();
    if (go123_) pending_ = false;
    armed_ = true;
    when_ = clock_->now() + d;
  }
  // case <-timer.C, as a select case: ready at once when a tick waits in the
  // channel, else when the timer is due, else never.
  go::TimerCase C() {
    fold();
    if (pending_) return go::after(*clock_, Time::min());
    return go::after(*clock_, armed_ ? when_ : Time::max());
  }
  // The select took the timer's case: the tick has left the channel.
  void received() {
    fold();
    pending_ = false;
  }
  bool pending() {
    fold();
    return pending_;
  }
  // C++: the timer will never send: it fired and its tick was received, and
  // nothing re-armed it (a task with no TimeOut after the 30 s from init).
  bool never() {
    fold();
    return !armed_ && !pending_;
  }

 private:
  // A due timer has sent its tick (a second tick into a full channel is dropped).
  void fold() {
    if (armed_ && when_ <= clock_->now()) {
      armed_ = false;
      pending_ = true;
    }
  }

  Clock* clock_;
  bool go123_;
  bool armed_ = true;
  bool pending_ = false;
  Time when_;
};

}  // namespace poolscope::weedge
