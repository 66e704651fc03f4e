// workerChan: what fasthttp keeps per worker (the channel its goroutine
// receives connections on, and the time it last finished one), the
// workerChanCap rule that sizes that channel, and the sync.Pool that recycles
// workerChans (workerpool.go: workerChan, workerChanCap, workerChanPool).
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <mutex>
#include <vector>

#include "pools/core/clock.h"
#include "pools/core/event.h"
#include "pools/core/task.h"
#include "pools/core/thread.h"

namespace poolscope::fasthttp {

// workerChanCap, computed once by Go at package init: 0 (unbuffered: Serve
// switches straight to the worker) when GOMAXPROCS is 1, else 1 (Serve does
// not wait for a worker that is slow to pick its task up).
int workerChanCap(int cpus);
// GOMAXPROCS's default: the CPUs this process may run on (its affinity mask,
// which is what Go's runtime counts).
int usable_cpus();

// Go's `chan net.Conn` of capacity 0 or 1. A Go channel is a runtime object;
// here it is a mutex and a condition variable around one slot. With capacity
// 1, send leaves the job in the slot and returns; with capacity 0 it also
// waits until the worker has taken it, as an unbuffered channel does. Either
// way a second send waits for the slot (fasthttp never needs that: a worker
// is sent a job only while it is off the ready stack, waiting in recv).
// recv spins briefly before it sleeps, as Go's runtime would
// (pools/core/spin.h): at saturation a worker is sent its next job within
// microseconds of asking, and then it never sleeps.
// An empty Job is Go's nil: the signal to stop.
class Chan {
 public:
  explicit Chan(int cap) : cap_(cap) {}
  Chan(const Chan&) = delete;
  Chan& operator=(const Chan&) = delete;

  void send(Job job);  // Go: ch <- c
  Job recv();          // Go: c := <-ch

 private:
  std::mutex m_;
  std::condition_variable cv_;
  Job slot_;
  // Changed under m_; atomic so that recv can spin on them without it.
  std::atomic<std::uint64_t> sent_{0};
  std::atomic<std::uint64_t> received_{0};
  const int cap_;
};

struct workerChan {
  explicit workerChan(int cap) : ch(cap) {}

  Time lastUseTime{0};  // stamped by release; ready is sorted by it, oldest first
  Chan ch;
  // C++ only: the id and the thread of the worker serving this workerChan
  // now. The next worker to reuse it joins that thread, which by then has
  // ended or is ending (putting the workerChan back was its last step).
  WorkerId worker = 0;
  Thread thread;
};

// Go's sync.Pool of workerChans, as a free list under its own mutex (the
// part of sync.Pool fasthttp uses: get one, or a new one if none is free).
// Unlike sync.Pool it never lets go of a workerChan before the pool dies, so
// it holds as many as were ever out at once. That is not bounded by the peak
// of workersCount: an exiting worker lowers workersCount before it puts its
// workerChan back, so a worker started in between takes a fresh one; under
// churn the list can even outgrow MaxWorkersCount.
class WorkerChanPool {
 public:
  explicit WorkerChanPool(int cap) : cap_(cap) {}

  workerChan* get();  // Go: workerChanPool.Get(), with New making a channel of capacity cap
  void put(workerChan* ch);
  // Joins the thread of every workerChan (once no worker runs any more).
  void join_threads();
  std::size_t allocated() const;  // workerChans made so far (New's calls)

 private:
  mutable std::mutex m_;
  std::deque<workerChan> all_;  // a deque: workerChans never move
  std::vector<workerChan*> free_;
  const int cap_;
};

}  // namespace poolscope::fasthttp
