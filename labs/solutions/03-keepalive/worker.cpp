#include "labs/solutions/03-keepalive/worker.h"

#include "labs/solutions/03-keepalive/pool.h"
#include "pools/core/go/select.h"

// LAB_MUTANT_* blocks: wrong variants of this solution, each built into its
// own grader by labs/CMakeLists.txt (POOLSCOPE_LAB_MUTANTS); CI proves the
// grader fails every one (tests/labs/mutants.py). Never defined otherwise.

namespace poolscope::lab03::solution {

void Worker::run() {
  lastUse = p.trace_.clock().now();
  p.goroutines_.go("lab03k-" + std::to_string(id), [this] { loop(); });
}

void Worker::loop() {
  Label why = kPoolClose;
  while (status != kStopped) {
    Job t;
    if (!waitTask(t, why)) break;  // timed out, and already counted out (under the lock)
    if (!t) break;                 // nil: the pool closed
    do {
      if (std::exception_ptr panic = p.trace_.run(id, t)) p.handlePanic(panic);
    } while ((t = getTask()));
  }
  if (why == kPoolClose)
    p.incrRunning(-1);
  else
    p.trace_.reaped(id, why, p.trace_.clock().now() - lastUse);
  p.trace_.exited(id, why);
  std::lock_guard locked(p.lock);
  p.exited_.push_back(this);  // the last touch: newWorker may now free this Worker
}

// Java's getTask: `timed = allowCoreThreadTimeOut || wc > corePoolSize`; a
// timed worker polls for keepAliveTime, the others take() without limit. A
// worker that timed out exits only if it is still idle (no submitter took it
// meanwhile) and still allowed to (the count may have dropped to coreSize
// while it waited: Java's CAS on ctl re-checks the same).
bool Worker::waitTask(Job& t, Label& why) {
  Clock& clock = p.trace_.clock();
  for (;;) {
    bool timed;
    {
      std::lock_guard locked(p.lock);
      timed = p.opts.allowCoreThreadTimeOut || p.runningSize > p.coreSize;
    }
    if (!timed) {
      t = task.recv();
      return true;
    }
#ifdef LAB_MUTANT_03_RECHECK_OUTSIDE_LOCK
    const bool beyondBefore = p.runningSize > p.coreSize;
#endif
    // Go: select { case t := <-w.task: ...; case <-time.After(keepAliveTime): ... }
    if (go::select(go::recv(task, t), go::after(clock, lastUse + p.opts.keepAliveTime)) == 0) return true;
#ifdef LAB_MUTANT_03_RECHECK_OUTSIDE_LOCK  // "still above core?" read outside the lock, before the wait
    bool beyondCore = beyondBefore;
    std::lock_guard locked(p.lock);
#else
    std::lock_guard locked(p.lock);
    bool beyondCore = p.runningSize > p.coreSize;
#endif
    if (!(beyondCore || p.opts.allowCoreThreadTimeOut)) continue;  // now a core worker: wait untimed
#ifdef LAB_MUTANT_03_LOST_HANDOFF                                  // exits although a submitter just handed it a task
    p.workers.remove(this);
#else
    if (!p.workers.remove(this)) continue;  // a task was sent: take it
#endif
    p.incrRunning(-1);
#ifdef LAB_MUTANT_03_DOUBLE_COUNT  // the exiting worker is counted out twice
    p.incrRunning(-1);
#endif
    status = kStopped;
    why = beyondCore ? kKeepAlive : kCoreTimeOut;
    return false;
  }
}

// Under the pool's lock, so that no task can be queued between "the queue is
// empty" and "this worker is idle" (the task would wait for a worker that
// never comes; the seed's separate locks leave that gap open).
Job Worker::getTask() {
  std::lock_guard locked(p.lock);
  if (Job t = p.deTaskQueue()) {
    p.trace_.handoff(t.id, id, kTaskQueue, true);
    return t;
  }
  if (p.is_closed()) {
    status = kStopped;  // closing, and the queue is drained
  } else {
    lastUse = p.trace_.clock().now();  // read before addWorker traces the idle event
    p.addWorker(this);                 // back to the idle workers
  }
  return {};
}

}  // namespace poolscope::lab03::solution
