// The cleaner: how fasthttp lets idle workers go. Start launches it; it runs
// clean at once, then every MaxIdleWorkerDuration until Stop. clean stops the
// ready workers whose last task ended more than MaxIdleWorkerDuration ago.
// Since a worker can go idle just after a pass, it lives between 1x and 2x
// MaxIdleWorkerDuration after its last task: each reap's trace event carries
// the idle time, so the GUI shows where in that range it fell.
#include <algorithm>

#include "pools/fasthttp/worker_pool.h"

namespace poolscope::fasthttp {

Nanos WorkerPool::getMaxIdleWorkerDuration() const {
  return config_.max_idle_worker_duration <= Nanos::zero() ? kDefaultMaxIdleWorkerDuration
                                                           : config_.max_idle_worker_duration;
}

void WorkerPool::cleaner(StopCh& stop) {
  std::vector<workerChan*> scratch;
  for (;;) {
    // Read once: the pass and the next deadline use the same time, so a test
    // that advances a manual clock right after seeing the pass cannot miss one.
    const Time now = trace_.clock().now();
    clean(scratch, now);
    // Go: select { case <-stopCh: return; default: time.Sleep(maxIdle) }.
    // Sleeping on stopCh itself lets stop() end the sleep (see worker_pool.h).
    std::unique_lock g(stop.m);
    if (stop.cv.wait_until(g, trace_.clock(), now + getMaxIdleWorkerDuration(), [&] { return stop.closed; })) return;
  }
}

void WorkerPool::clean(std::vector<workerChan*>& scratch, Time now) {
  const Time criticalTime = now - getMaxIdleWorkerDuration();
  std::size_t n = 0;
  {
    std::lock_guard g(lock);
    n = ready.size();
    // ready is sorted by lastUseTime, oldest first (release pushes on top,
    // getCh pops from the top), so the workers idle too long are a prefix.
    // Go finds its end with a hand-written binary search; the predicate is
    // the same: lastUseTime strictly before criticalTime.
    auto stale = std::partition_point(ready.begin(), ready.end(),
                                      [&](const workerChan* ch) { return ch->lastUseTime < criticalTime; });
    scratch.assign(ready.begin(), stale);
    ready.erase(ready.begin(), stale);
  }

  // Notify obsolete workers to stop outside the lock: with an unbuffered
  // channel each send waits for its worker to take the nil.
  for (workerChan* ch : scratch) {
    trace_.reaped(ch->worker, kCleanerPass, now - ch->lastUseTime);
    ch->ch.send(Job{});
  }
  trace_.cleaner_pass(kCleanerPass, static_cast<std::int64_t>(n), static_cast<std::int32_t>(scratch.size()));
  scratch.clear();
}

}  // namespace poolscope::fasthttp
