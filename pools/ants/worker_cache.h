// workerCache: Go's sync.Pool of worker objects, which makes starting a
// worker cheap: an exited worker's object (its channel, its slot in memory)
// is put back and the next spawn gets it instead of a new one. Here it is a
// free list. It also owns every object it ever made, so the pool can join
// their threads at the end (a sync.Pool owns nothing; the GC does).
#pragma once

#include <functional>
#include <memory>
#include <mutex>
#include <vector>

#include "pools/ants/worker.h"

namespace poolscope::ants {

class WorkerCache {
 public:
  // Go's workerCache.New: makes a worker object when the free list is empty.
  std::function<std::unique_ptr<WorkerThread>()> New;

  WorkerThread* Get();
  void Put(WorkerThread* w);

  // poolscope: how many objects New has made.
  std::size_t allocated() const;
  // poolscope: joins the last thread of every object. Call it once no worker
  // runs and none can be started.
  void joinAll();

 private:
  mutable std::mutex m_;
  std::vector<std::unique_ptr<WorkerThread>> all_;
  std::vector<WorkerThread*> free_;
};

}  // namespace poolscope::ants
