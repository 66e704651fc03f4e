// workerChan: what fasthttp keeps per worker (the channel its goroutine
// receives connections on, and the time it last finished one), the
// workerChanCap rule that sizes that channel, and the sync.Pool that recycles
// workerChans (workerpool.go: workerChan, workerChanCap, workerChanPool).
#pragma once

#include <deque>
#include <mutex>
#include <vector>

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

// Go's sync.Pool of workerChans, as a free list under its own mutex (the
// part of sync.Pool fasthttp uses: get one, or a new one if none is free).
// C++: unlike sync.Pool it never lets go of a workerChan before the pool
// dies, so it holds as many as were ever out at once. That is not bounded by
// the peak of workersCount: an exiting worker lowers workersCount before it
// puts its workerChan back, so a worker started in between takes a fresh
// one; under churn the list can even outgrow MaxWorkersCount.
class WorkerChanPool {
 public:
  explicit WorkerChanPool(int cap) : cap_(cap) {}

  workerChan* get();  // Go: workerChanPool.Get(), with New making a channel of capacity cap
  void put(workerChan* ch);
  std::size_t allocated() const;  // workerChans made so far (New's calls)

 private:
  mutable std::mutex m_;
  std::deque<workerChan> all_;  // a deque: workerChans never move
  std::vector<workerChan*> free_;
  const int cap_;
};

}  // namespace poolscope::fasthttp
