// workerCache: Go's sync.Pool of worker objects, which makes starting a
// worker cheap: an exited worker's object (its channel, its slot in memory)
// is put back and the next spawn gets it instead of a new one. C++: a free
// list that owns every object it ever made until the pool dies (a sync.Pool
// owns nothing; the GC does).
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

  // C++: how many objects New has made.
  std::size_t allocated() const;

 private:
  mutable std::mutex m_;
  std::vector<std::unique_ptr<WorkerThread>> all_;
  std::vector<WorkerThread*> free_;
};

}  // namespace poolscope::ants
