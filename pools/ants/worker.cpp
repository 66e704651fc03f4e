#include "pools/ants/worker.h"

#include <string>

#include "pools/ants/pool_common.h"
#include "pools/ants/rules.h"
#include "pools/core/go/defer.h"

namespace poolscope::ants {

void WorkerThread::addRunning() {
  pool.addRunning(1);
  id_ = pool.trace().new_worker_id();
  exitRule = kNoLabel;
}

void WorkerThread::exit(std::exception_ptr panic) {
  // Once this object is back in the cache another thread may run() it, so
  // read what is needed first.
  PoolCommon& p = pool;
  const WorkerId id = id_;
  const Label why = panic ? rules::kPanic : exitRule;

  const int running = p.addRunning(-1);
  p.trace().exited(id, why);
  if (running == 0 && p.is_closed()) p.closeAllDone();

  p.workerCache.Put(this);

  if (panic) p.recoverPanic(panic);

  // Call Signal() here in case there are goroutines waiting for available workers.
  p.cond.Signal();
}

// run starts a goroutine to repeat the process that performs the function
// calls.
void GoWorker::run() {
  addRunning();
  go([this] {
    std::exception_ptr panic;  // what recover() returns
    go::Defer deferred([&] { exit(panic); });

    for (Job fn; task.recv(fn);) {  // for fn := range w.task
      if (!fn) {
        // C++: a submit(nil), which ants accepts, stops the worker without
        // running anything; the trace says so (finish() sends an id of 0).
        if (fn.id != 0) {
          exitRule = rules::kNilTask;
          pool.trace().dropped(fn.id, rules::kNilTask, false);
        }
        return;
      }
      if ((panic = pool.trace().run(id_, fn))) return;  // fn(), with the panic caught for the defer
      if (!pool.revertWorker(this)) return;
    }
  });
}

void GoWorker::finish(Label why) {
  exitRule = why;
  task.send(Job{});
}

}  // namespace poolscope::ants
