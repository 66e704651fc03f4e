// The cleaner: how fasthttp lets idle workers go. Start launches it; it runs
// clean at once, then every MaxIdleWorkerDuration until Stop. clean stops the
// ready workers whose last task ended more than MaxIdleWorkerDuration ago.
// Since a worker can go idle just after a pass, it lives between 1x and 2x
// MaxIdleWorkerDuration after its last task: each reap's trace event carries
// the idle time, so the GUI shows where in that range it fell.
#include "pools/core/go/select.h"
#include "pools/fasthttp/worker_pool.h"

namespace poolscope::fasthttp {

Nanos WorkerPool::getMaxIdleWorkerDuration() const {
  return config_.MaxIdleWorkerDuration <= Nanos::zero() ? kDefaultMaxIdleWorkerDuration
                                                        : config_.MaxIdleWorkerDuration;
}

void WorkerPool::cleaner(StopCh& stop) {
  std::vector<workerChan*> scratch;
  for (;;) {
    // Read once: the pass and the next deadline use the same time, so a test
    // that advances a manual clock right after seeing the pass cannot miss one.
    const Time now = trace_.clock().now();
    clean(scratch, now);
    // Go: select { case <-stopCh: return; default: time.Sleep(maxIdle) }.
    // C++: the sleep is a case of the select, so that stop() ends it.
    Closed nothing;
    if (go::select(go::recv(stop, nothing), go::after(trace_.clock(), now + getMaxIdleWorkerDuration())) == 0) return;
  }
}

void WorkerPool::clean(std::vector<workerChan*>& scratch, Time now) {
  const Time criticalTime = now - getMaxIdleWorkerDuration();

  std::unique_lock g(lock);
  const std::size_t n = ready.size();

  // Use binary-search algorithm to find out the index of the least recently
  // worker which can be cleaned up. ready is sorted by lastUseTime, oldest
  // first (release pushes on top, getCh pops from the top), so the workers
  // idle too long are a prefix (std::partition_point would do; Go writes it
  // out).
  std::ptrdiff_t l = 0, r = static_cast<std::ptrdiff_t>(n) - 1;
  while (l <= r) {
    std::ptrdiff_t mid = (l + r) / 2;
    if (criticalTime > ready[static_cast<std::size_t>(mid)]->lastUseTime)
      l = mid + 1;
    else
      r = mid - 1;
  }
  const std::ptrdiff_t i = r;
  if (i == -1) {
    g.unlock();
    trace_.cleaner_pass(kCleanerPass, static_cast<std::int64_t>(n), 0);  // C++: the trace sees every pass
    return;
  }

  scratch.assign(ready.begin(), ready.begin() + (i + 1));
  ready.erase(ready.begin(), ready.begin() + (i + 1));
  g.unlock();

  // Notify obsolete workers to stop. This notification must be outside the
  // lock: with an unbuffered channel each send waits for its worker to take
  // the nil.
  for (workerChan* ch : scratch) {
    trace_.reaped(ch->worker_, kCleanerPass, now - ch->lastUseTime);
    ch->ch.send(Job{});
  }
  trace_.cleaner_pass(kCleanerPass, static_cast<std::int64_t>(n), static_cast<std::int32_t>(scratch.size()));
  scratch.clear();
}

}  // namespace poolscope::fasthttp
