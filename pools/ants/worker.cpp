#include "pools/ants/worker.h"

#include <string>
#include <utility>

#include "pools/ants/pool_common.h"
#include "pools/ants/rules.h"

namespace poolscope::ants {

void WorkerThread::run() {
  pool_.addRunning(1);
  id_ = pool_.trace().new_worker_id();
  exitRule = kNoLabel;
  // A recycled object may still hold the thread it ran before, which is
  // finishing its exit path. The new thread joins it when it ends itself, so
  // every thread is joined and nobody waits for one while holding the lock.
  Thread previous = std::exchange(thread_, Thread{});
  try {
    thread_ = Thread("ants-w" + std::to_string(id_), [this, previous = std::move(previous)]() mutable {
      goexit(loop());
      previous.join();
    });
  } catch (...) {
    pool_.addRunning(-1);
    throw;
  }
}

void WorkerThread::goexit(std::exception_ptr panic) {
  // Once this object is back in the cache another thread may run() it, so
  // read what is needed first.
  PoolCommon& p = pool_;
  const WorkerId id = id_;
  const Label why = panic ? rules::kPanic : exitRule;

  const int running = p.addRunning(-1);
  p.trace().exited(id, why);
  if (running == 0 && p.is_closed()) p.closeAllDone();

  p.workerCache_.Put(this);

  if (panic) p.recoverPanic(panic);

  // A worker fewer: a waiting submitter may start a new one.
  p.cond_.Signal();
}

void GoWorker::finish(Label why) {
  exitRule = why;
  task.send(Job{});
}

std::exception_ptr GoWorker::loop() {
  PoolTrace& trace = pool_.trace();
  for (;;) {
    Job job = task.receive();
    if (!job) {
      // The exit signal: finish(), or a submit(nil), which ants accepts and
      // which stops the worker without running anything.
      if (job.id != 0) {
        exitRule = rules::kNilTask;
        trace.dropped(job.id, rules::kNilTask, false);
      }
      return nullptr;
    }
    if (std::exception_ptr panic = trace.run(id_, job)) return panic;
    if (!pool_.revertWorker(this)) return nullptr;
  }
}

}  // namespace poolscope::ants
