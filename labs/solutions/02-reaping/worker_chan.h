// workerChan (fasthttp): one worker's channel and the time it last went idle.
// Go's `chan net.Conn` of capacity 1 is a go::Chan<Job>(1) (pools/core/go/);
// a nil (empty) task tells the worker to stop.
#pragma once

#include "pools/core/clock.h"
#include "pools/core/go/chan.h"
#include "pools/core/task.h"

namespace poolscope::lab02::solution {

struct WorkerChan {
  explicit WorkerChan(WorkerId id) : id(id) {}

  const WorkerId id;
  Time lastUseTime{0};  // written by its worker before it rejoins `ready`
  go::Chan<Job> ch{1};
  Label stopped_by;  // C++: why a nil was sent (the cleaner or Stop), for the trace
};

}  // namespace poolscope::lab02::solution
