// Translations of gammazero/workerpool's workerpool_test.go at 22a7e8d, one
// TEST_CASE per upstream function, named in the comment above each. Go runs
// them in a synctest bubble, where time moves only once every goroutine of
// the bubble is blocked; here the manual clock is moved by the test at the
// point where the bubble would be blocked, which a latch tells. README.md
// lists every upstream function and what became of it.
#include "pools/gammazero/workerpool.h"

#include <atomic>

#include "pools/core/go/select.h"
#include "pools/core/thread.h"
#include "tests/gammazero/rig.h"

using namespace poolscope;
using namespace poolscope::gammazero;
using namespace poolscope::test;
using namespace std::chrono_literals;

// workerpool_test.go TestOverflow (22a7e8d): two workers wait on
// releaseChan, 62 tasks wait in the queue; a goroutine closes releaseChan
// 1 ms after Stop is called; after Stop the waiting queue still holds 62.
// poolscope's WaitingQueueSize reads Go's waitingQueue.Len() here: Stop
// abandons the 62 tasks but, as Go, leaves the count (divergence (b),
// docs/fidelity.md).
TEST_CASE("workerpool_test.go TestOverflow") {
  Rig rig;
  WorkerPool wp(2, {}, rig.target());
  Gate releaseChan;

  // Start workers, and have them all wait on a channel before completing.
  for (int i = 0; i < 64; ++i) REQUIRE_FALSE(wp.submit([&] { releaseChan.pass(); }));
  releaseChan.await_arrivals(2);

  // Start a goroutine to free the workers after calling stop. This way the
  // dispatcher can exit, then when this goroutine runs, the workerpool can
  // exit.
  Thread freer("freer", [&] {
    rig.clock.sleep_for(1ms);  // <-time.After(time.Millisecond)
    releaseChan.open();
  });
  // synctest: the bubble blocks once Stop has abandoned the queue and waits
  // for the two workers; then the 1 ms passes.
  Thread bubble("bubble", [&] {
    rig.await_count(EventKind::task_dropped, "abandoned", 62);
    (void)rig.clock.await_waiters(1);  // the freer asleep (Catch asserts on the main thread only)
    rig.clock.advance(1ms);
  });
  wp.stop();
  bubble.join();
  freer.join();

  // Now that the worker pool has exited, it is safe to inspect its waiting
  // queue without causing a race.
  const int qlen = wp.waiting_queue_size();
  CHECK(qlen == 62);  // "Expected 62 tasks in waiting queue"
}
