// fasthttp's workerPool (valyala/fasthttp workerpool.go at b8ff6fb; seeds 000
// and 003).
// Each task goes to a worker taken from a LIFO stack of ready workers, each
// with its own 1-slot channel; if none is ready, a new worker is started while
// workersCount < MaxWorkersCount; otherwise the task is refused. There is no
// queue, ever. A cleaner wakes every MaxIdleWorkerDuration and stops the
// workers idle longer than that, oldest first.
//
// Read it beside workerpool.go: the members keep Go's names (getCh, release,
// workerFunc, clean, lock, workersCount, mustStop, ready, stopCh,
// workerChanPool, and Config's MaxWorkersCount and MaxIdleWorkerDuration);
// the members C++ adds end in an underscore. Where C++ differs from Go:
// - A worker is an OS thread started through a go::ThreadGroup, not a
//   goroutine, and every thread is joined: join() (and the destructor) waits
//   for the workers Go's Stop leaves to finish on their own.
// - Channels are go::Chan and the lock a go::Mutex (pools/core/go), and
//   sync.Pool is a free list.
// - A task that throws is caught and traced as `threw`; the worker then goes
//   on as if the task had returned. Go's workerFunc has had no recover since
//   2016 (commit 886e541): a panicking handler crashes the whole server.
// - The cleaner sleeps on stopCh rather than in time.Sleep, so stop() wakes
//   it and joins its thread at once instead of leaving it to finish its sleep.
#pragma once

#include "pools/core/clock.h"
#include <expected>
#include <memory>
#include <mutex>
#include <vector>

#include "pools/core/go/mutex.h"
#include "pools/core/go/park.h"
#include "pools/core/go/sync_pool.h"
#include "pools/core/go/thread_group.h"
#include "pools/core/pool_trace.h"
#include "pools/fasthttp/rules.h"
#include "pools/fasthttp/worker_chan.h"

namespace poolscope::fasthttp {

// The workerPool fields Server sets (Go's names).
struct Config {
  int MaxWorkersCount = kDefaultMaxWorkersCount;
  Nanos MaxIdleWorkerDuration{0};  // <= 0 means 10 s
  // C++: Go's workerChanCap is a package constant; here a pool may choose it.
  int workerChanCap_ = workerChanCap(go::gomaxprocs());
};

namespace rulego {
class WorkerPool;
}

class WorkerPool {
 public:
  explicit WorkerPool(Config config, const TraceTarget& target = {});
  ~WorkerPool();  // stop(), then join(): no thread outlives the pool
  WorkerPool(const WorkerPool&) = delete;
  WorkerPool& operator=(const WorkerPool&) = delete;

  // Go: Start. Starts the cleaner, whose first pass runs at once. A no-op if
  // already started. Like Go's, it does not reset mustStop: after stop() and
  // start(), every worker serves one task and exits.
  void start();
  // Go: Stop. A no-op if not started. Ends the cleaner, sends nil to every
  // ready worker and sets mustStop. Busy workers are neither waited for nor
  // interrupted: each finishes its task, sees mustStop in release and exits.
  // Like Go's, start() and stop() must not run concurrently with each other.
  void stop();
  // Go: Serve. Hands `task` (not empty) to a worker (getCh), or refuses it
  // at once when every one of MaxWorkersCount workers is busy. Go returns
  // false; here the error says why: no-idle-workers, or that the OS refused
  // a thread, which a goroutine never is. Like Go's, it does not look at
  // mustStop: after stop() it still starts workers, each of which serves this
  // one task and exits.
  std::expected<void, Label> serve(Task task);

  // C++: sends nil to the ready workers (as Stop does, so that a pool
  // that was never started cannot hang here), then joins every thread the
  // pool started (workers_.wait(), a WaitGroup: when it returns, workersCount
  // is 0). Call it after stop(), never while serve() runs.
  void join();
  // C++: workersCount and len(ready), read under the lock, as poolscope
  // counters (busy = workersCount - len(ready); nothing ever queues).
  Counters state() const;
  // C++: workerChans made so far; the others were recycled.
  std::size_t worker_chans() const { return workerChanPool.allocated(); }

  const Config& config() const { return config_; }
  PoolTrace& trace() { return trace_; }
  const PoolTrace& trace() const { return trace_; }

 private:
  // C++: rulego's copy of this pool (rulego.h) calls getCh from its Submit,
  // as its own workerpool.go does.
  friend class rulego::WorkerPool;

  struct Closed {};  // Go's struct{}: stopCh carries nothing, it is only closed
  using StopCh = go::Chan<Closed>;

  // Go's getCh: a ready worker's channel, or a new worker's; Go's nil is the
  // error, the refusal's label. `task` only names the hand-off in the trace.
  std::expected<workerChan*, Label> getCh(TaskId task);
  bool release(workerChan* ch);
  void workerFunc(workerChan* ch);
  void cleaner(StopCh& stop);  // the goroutine Start launches (clean.cpp)
  void clean(std::vector<workerChan*>& scratch, Time now);
  Nanos getMaxIdleWorkerDuration() const;
  void stopReady();  // the locked half of Stop, shared with join()

  const Config config_;
  PoolTrace trace_;
  go::SyncPool<workerChan> workerChanPool;  // Go's sync.Pool of workerChans

  mutable go::Mutex lock;  // Go's sync.Mutex, which spins a little before it sleeps (go/mutex.h)
  int workersCount = 0;
  bool mustStop = false;
  std::vector<workerChan*> ready;   // the LIFO stack: release pushes, getCh pops, clean trims the bottom

  std::unique_ptr<StopCh> stopCh;  // null: not started (Go: stopCh == nil)
  Thread cleaner_;                 // C++: joined by stop(), which destroys stopCh
  go::ThreadGroup workers_;        // C++: the workers' threads, joined as they finish; join() waits for them all
};

}  // namespace poolscope::fasthttp
