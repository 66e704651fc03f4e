// pacer/pacer.go: a rate limiter that spaces the starts of tasks, shipped
// beside workerpool but independent of it. Pace(task) wraps a task so that it
// first waits its turn at the pacer's gate; the gate lets one caller through,
// then stays shut for `delay`. Paced tasks can be submitted to a WorkerPool
// (a waiting paced task holds its worker) or run on any thread.
//
//   Pacer pacer(100ms);
//   pool.submit(pacer.pace([] { call_the_rate_limited_api(); }));
//
// Go's three channels, as go::Chan: `gate` (unbuffered: Next blocks until the
// loop receives, and the loop receives once per delay), `pause` and `paused`
// (one slot each: full while paused). The delay is slept on the injected
// clock.
#pragma once

#include "pools/core/clock.h"
#include "pools/core/go/chan.h"
#include "pools/core/go/once.h"
#include "pools/core/task.h"
#include "pools/core/thread.h"

namespace poolscope::gammazero {

class Pacer {
 public:
  // NewPacer(delay): starts the pacer's loop.
  explicit Pacer(Nanos delay, Clock& clock = default_clock());
  // C++: stops and joins the loop (Go's forgotten pacer leaks its goroutine).
  ~Pacer();
  Pacer(const Pacer&) = delete;
  Pacer& operator=(const Pacer&) = delete;

  // Pace: a task that calls next() and then `task`.
  Task pace(Task task);
  // Next: returns when it is this caller's turn. The first call returns at
  // once; the others one at a time, at least `delay` apart. After stop()
  // (also while waiting) it throws go::ClosedChannel, a std::logic_error:
  // Go's send on the closed gate panics.
  void next();
  // Stop: closes the gate; no caller passes any more. Stop only once the
  // paced tasks are done. C++: a second stop() does nothing (Go's second
  // close panics), so that the destructor may stop a stopped pacer.
  void stop();

  // Pause: no caller passes until resume(). Pausing a paused pacer waits for
  // the resume (the `pause` channel is full).
  void pause();
  // Resume: waits until the pacer is paused (`<-p.paused`), then lets callers
  // pass again.
  void resume();
  bool is_paused() const { return paused.len() != 0; }

 private:
  struct empty {};  // Go's struct{}
  void run();

  Clock& clock_;
  const Nanos delay;
  go::Chan<empty> gate;
  go::Chan<empty> pause_{1};  // Go's `pause` (a C++ name cannot be both a field and a method)
  go::Chan<empty> paused{1};
  // C++: closed by stop() beside the gate, so that the loop's sleep and its
  // send on a full `pause` end at once: Go's run goes on sleeping and
  // blocking after Stop, which a joined thread (on a manual clock that may
  // never move) cannot.
  go::Chan<empty> stopped_;
  go::Once stopOnce_;
  Thread loop_;
};

}  // namespace poolscope::gammazero
