// worker.go, in its order: run (the goroutine), close, zero, Recycle.
#include "pools/gopool/worker.h"

#include <memory>
#include <mutex>
#include <string>

#include "pools/core/go/sync_pool.h"
#include "pools/gopool/pool.h"

namespace poolscope::gopool {

using namespace rules;

go::SyncPool<worker>& workerPool() {
  static go::SyncPool<worker> p;
  static const bool once = (
      p.New = [] { return std::make_unique<worker>(); }, true);  // newWorker
  (void)once;
  return p;
}

worker* getWorker() { return workerPool().Get(); }

void worker::run() {
  pool* p = pool_;
  const WorkerId id = id_;
  p->wg_.go("gopool-" + std::to_string(id), [this, p, id] {
    for (;;) {
      task* t = nullptr;
      std::unique_lock lock(p->taskLock);
      if (p->taskHead != nullptr) {
        t = p->taskHead;
        p->taskHead = p->taskHead->next;
        p->taskCount.fetch_sub(1);
        // C++: Go leaves taskTail pointing at a recycled node once the list
        // empties (CtxGo only looks at taskHead); cleared here for clarity.
        if (p->taskHead == nullptr) p->taskTail = nullptr;
        p->listed_.fetch_sub(1);
        p->trace.handoff(t->f.id, id, kListHead, true);
      }
      if (t == nullptr) {
        // if there's no task to do, exit
        close();
        // C++: traced under taskLock, as the decrement is: a CtxGo that now
        // sees WorkerCount() == 0 traces its spawn after this exit.
        p->trace.exited(id, kListEmpty);
        lock.unlock();
        Recycle();
        return;
      }
      lock.unlock();
      // func() { defer func() { if r := recover(); r != nil { ... } }(); t.f() }()
      if (std::exception_ptr r = p->trace.run(id, t->f)) {
        if (p->panicHandler) {
          p->panicHandler(t->ctx, r);
        } else {
          std::string what = "unknown panic";
          try {
            std::rethrow_exception(r);
          } catch (const std::exception& e) {
            what = e.what();
          } catch (...) {
          }
          // C++: no debug.Stack(): the last %s is empty.
          p->logger_(t->ctx, "GOPOOL: panic in pool: " + p->name + ": " + what + ": ");
        }
      }
      t->Recycle();
    }
  });
}

void worker::close() { pool_->decWorkerCount(); }

void worker::zero() {
  pool_ = nullptr;
  id_ = 0;
}

void worker::Recycle() {
  zero();
  workerPool().Put(this);
}

}  // namespace poolscope::gopool
