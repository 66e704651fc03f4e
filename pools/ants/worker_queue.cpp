#include "pools/ants/worker_queue.h"

#include "pools/ants/worker_loop_queue.h"
#include "pools/ants/worker_stack.h"

namespace poolscope::ants {

std::unique_ptr<WorkerQueue> newWorkerQueue(queueType qType, int size) {
  switch (qType) {
    case queueType::queueTypeStack:
      return std::make_unique<WorkerStack>(size);
    case queueType::queueTypeLoopQueue:
      return newWorkerLoopQueue(size);
  }
  return std::make_unique<WorkerStack>(size);
}

}  // namespace poolscope::ants
