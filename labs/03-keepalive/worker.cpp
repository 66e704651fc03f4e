#include "labs/03-keepalive/worker.h"

#include "labs/03-keepalive/pool.h"

namespace poolscope::lab03 {

void Worker::run() {
  p.goroutines_.go("lab03-" + std::to_string(id), [this] { loop(); });
}

void Worker::loop() {
  while (status != kStopped) {
    Job t = task.recv();  // idle: blocked on its chan
    if (!t) break;        // nil: the pool closed
    do {
      if (std::exception_ptr panic = p.trace_.run(id, t)) p.handlePanic(panic);
    } while ((t = getTask()));
  }
  p.incrRunning(-1);
  p.trace_.exited(id, kPoolClose);
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
  if (p.is_closed())
    status = kStopped;  // closing, and the queue is drained
  else
    p.addWorker(this);  // back to the idle workers
  return {};
}

}  // namespace poolscope::lab03
