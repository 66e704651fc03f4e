#include "labs/solutions/03-keepalive/worker.h"

#include "labs/solutions/03-keepalive/pool.h"
#include "pools/core/go/select.h"

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
  std::lock_guard lock(p.lock_);
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
      std::lock_guard lock(p.lock_);
      timed = p.opts_.allowCoreThreadTimeOut || p.runningSize_ > p.coreSize_;
    }
    if (!timed) {
      t = task.recv();
      return true;
    }
    // Go: select { case t := <-w.task: ...; case <-time.After(keepAliveTime): ... }
    if (go::select(go::recv(task, t), go::after(clock, lastUse + p.opts_.keepAliveTime)) == 0) return true;
    std::lock_guard lock(p.lock_);
    bool beyondCore = p.runningSize_ > p.coreSize_;
    if (!(beyondCore || p.opts_.allowCoreThreadTimeOut)) continue;  // now a core worker: wait untimed
    if (!p.workers_.remove(this)) continue;                         // a task was sent: take it
    p.incrRunning(-1);
    status = kStopped;
    why = beyondCore ? kKeepAlive : kCoreTimeOut;
    return false;
  }
}

// Under the pool's lock, so that no task can be queued between "the queue is
// empty" and "this worker is idle" (the task would wait for a worker that
// never comes; the seed's separate locks leave that gap open).
Job Worker::getTask() {
  std::lock_guard lock(p.lock_);
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
