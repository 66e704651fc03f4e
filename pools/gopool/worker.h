// worker.go: a worker is a goroutine that pops tasks off its pool's list
// until the list is empty, then exits. Worker objects are recycled through
// workerPool (a sync.Pool), as task nodes are through taskPool.
#pragma once

#include "pools/core/event.h"
#include "pools/core/go/sync_pool.h"

namespace poolscope::gopool {

class pool;

class worker {
 public:
  pool* pool_ = nullptr;  // Go: w.pool ("pool" is the class's name here)

  // Starts the worker's goroutine. C++: throws std::system_error if the OS
  // refuses the thread (a goroutine cannot fail to start).
  void run();
  void close();
  void zero();
  void Recycle();

  WorkerId id_ = 0;  // C++: the worker's id in the trace, new for every run()
};

// var workerPool sync.Pool (made on first use).
go::SyncPool<worker>& workerPool();
// workerPool.Get(): a recycled worker, or a new one.
worker* getWorker();

}  // namespace poolscope::gopool
