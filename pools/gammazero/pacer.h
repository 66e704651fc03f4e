// pacer/pacer.go: a rate limiter that spaces the starts of tasks, shipped
// beside workerpool but independent of it. Pace(task) wraps a task so that it
// first waits its turn at the pacer's gate; the gate lets one caller through,
// then stays shut for `delay`. Paced tasks can be submitted to a WorkerPool
// (a waiting paced task holds its worker) or run on any thread.
//
//   Pacer pacer(100ms);
//   pool.submit(pacer.pace([] { call_the_rate_limited_api(); }));
//
// The gate is Go's unbuffered channel: next() blocks until the pacer's loop
// receives, and the loop receives once per delay. Timed waits use the
// injected clock.
#pragma once

#include <cstdint>
#include <mutex>

#include "pools/core/clock.h"
#include "pools/core/task.h"
#include "pools/core/thread.h"

namespace poolscope::gammazero {

class Pacer {
 public:
  // NewPacer(delay): starts the pacer's loop.
  explicit Pacer(Nanos delay, Clock& clock = default_clock());
  // Stops and joins the loop. Go's Stop does not wait out the current delay;
  // neither does this (a manual clock may never move).
  ~Pacer();
  Pacer(const Pacer&) = delete;
  Pacer& operator=(const Pacer&) = delete;

  // Pace: a task that calls next() and then `task`.
  Task pace(Task task);
  // Next: returns when it is this caller's turn. The first call returns at
  // once; the others one at a time, at least `delay` apart. After stop()
  // (also while waiting) it throws std::logic_error: Go's send on the closed
  // gate panics.
  void next();
  // Stop: no caller passes any more. Stop only once the paced tasks are done.
  void stop();

  // Pause: no caller passes until resume(). Pausing a paused pacer waits for
  // the resume (Go's Pause blocks on the full `pause` channel).
  void pause();
  // Resume: waits until the pacer is paused (Go blocks on `<-p.paused` too),
  // then lets callers pass again.
  void resume();
  bool is_paused() const;

 private:
  void run();

  Clock& clock_;
  const Nanos delay_;
  mutable Mutex m_;
  CondVar loop_cv_;            // the loop waits for a caller at the gate, or for resume
  CondVar sleep_cv_;           // the loop sleeps `delay`; only stop() interrupts it
  CondVar caller_cv_;          // callers of next() wait to pass; pause()/resume() wait for their turn
  std::uint64_t arrived_ = 0;  // callers that reached the gate (each takes a ticket)
  std::uint64_t passed_ = 0;   // callers the loop let through, in ticket order
  bool paused_ = false;        // the `pause` and `paused` channels, both full
  bool stopped_ = false;       // the gate is closed
  Thread loop_;
};

}  // namespace poolscope::gammazero
