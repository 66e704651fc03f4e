// workerChan: what fasthttp keeps per worker (the channel its goroutine
// receives connections on, and the time it last finished one), and the
// workerChanCap rule that sizes that channel (workerpool.go: workerChan,
// workerChanCap). The workerChanPool that recycles them is a go::SyncPool.
#pragma once

#include "pools/core/clock.h"
#include "pools/core/event.h"
#include "pools/core/go/chan.h"
#include "pools/core/task.h"

namespace poolscope::fasthttp {

// workerChanCap, computed once by Go at package init: 0 (unbuffered: Serve
// switches straight to the worker) when GOMAXPROCS is 1, else 1 (Serve does
// not wait for a worker that is slow to pick its task up). Called with
// go::gomaxprocs().
int workerChanCap(int gomaxprocs);

// An empty Job is Go's nil conn: the signal to stop.
struct workerChan {
  explicit workerChan(int cap) : ch(static_cast<std::size_t>(cap)) {}

  Time lastUseTime{0};  // stamped by release; ready is sorted by it, oldest first
  go::Chan<Job> ch;
  WorkerId worker_ = 0;  // C++: the id, in the trace, of the worker serving this workerChan now
};

}  // namespace poolscope::fasthttp
