// ants.go's poolCommon: everything Pool and PoolWithFunc share since v2.11.0.
// The capacity and the count of live workers; the spin lock and the
// condition variable on it; the queue of idle workers; retrieveWorker (give a
// task a worker: reuse, spawn, refuse or wait) and revertWorker (a worker
// back to the queue after its task); the purge ticker that stops stale idle
// workers and the ticktock coarse clock that stamps them, both on the
// injected clock; Tune, Release, ReleaseTimeout, Reboot.
//
//   running()  Go's Running(): live workers, busy or idle
//   free()     Go's Free(): cap() - running(), or -1 when unlimited
//   waiting()  Go's Waiting(): submitters blocked in submit
//   cap()      Go's Cap(): the capacity, or -1 (unlimited)
#pragma once

#include <atomic>
#include <cstdint>
#include <expected>
#include <memory>
#include <mutex>
#include <string>
#include <system_error>

#include "pools/ants/options.h"
#include "pools/ants/spinlock.h"
#include "pools/ants/worker.h"
#include "pools/ants/worker_queue.h"
#include "pools/core/go/chan.h"
#include "pools/core/go/cond.h"
#include "pools/core/go/once.h"
#include "pools/core/go/sync_pool.h"
#include "pools/core/go/thread_group.h"
#include "pools/core/go/time.h"
#include "pools/core/go/wait_group.h"
#include "pools/core/pool_trace.h"
#include "pools/core/scheduler.h"

namespace poolscope::ants {

class PoolCommon {
 public:
  virtual ~PoolCommon();
  PoolCommon(const PoolCommon&) = delete;
  PoolCommon& operator=(const PoolCommon&) = delete;

  int running() const { return running_.load(); }
  int free() const;
  int waiting() const { return waiting_.load(); }
  int cap() const { return capacity.load(); }
  bool is_closed() const { return state.load() == CLOSED; }

  // Changes the capacity. Ignored when the pool is unlimited, size <= 0,
  // size == Cap(), or PreAlloc is set. Growing wakes one waiter (by 1) or all;
  // shrinking stops nothing now: busy workers exit at their next revertWorker.
  void tune(int size);
  // Closes the pool: idle workers are stopped, busy ones exit after their
  // task, blocked submitters return ErrPoolClosed. A second call does nothing.
  void release();
  // release(), then waits, on the pool's clock, until every worker, the purge
  // and the ticktock threads have ended: nil, or ErrTimeout. ErrPoolClosed if
  // already closed.
  std::error_code release_timeout(Nanos timeout);
  // Opens a closed pool again and restarts purge and ticktock.
  void reboot();

  // C++: release(), then waits (on real time, never on the pool's
  // clock) for every worker to exit and joins every thread. Go needs no such
  // call; the destructor makes it.
  void release_and_join();
  // C++: idle workers (workers.len()), read under the lock.
  int idle() const;
  // poolscope, for tests: submitters asleep in cond.Wait. Each holds its
  // ticket, so a Signal from now on wakes one of them.
  int parked() const { return cond.parked(); }
  // The coarse clock that revertWorker stamps lastUsed with: the pool's clock
  // as ticktock last read it (every 500 ms).
  Time nowTime() const { return Time(now.load()); }
  // C++: how many worker objects workerCache has ever made, and holds free.
  std::size_t workers_allocated() const { return workerCache.allocated(); }
  std::size_t workers_cached() const { return workerCache.free_count(); }
  // C++: workers' threads started and not yet joined (ended ones are joined
  // at the next spawn or purge tick).
  std::size_t threads_unjoined() const { return goroutines_.size(); }
  // C++: the trace label of a refusal (ErrPoolOverload says which option).
  Label refusal(std::error_code err) const;
  PoolTrace& trace() const { return *trace_; }
  const Options& options() const { return options_; }

  // newPool's checks, in its order: size <= 0 becomes -1 (unlimited);
  // ExpiryDuration < 0 is ErrInvalidPoolExpiry and 0 becomes 1 s (unless
  // DisablePurge); an empty Logger becomes the default one; PreAlloc with
  // an unlimited size is ErrInvalidPreAllocSize.
  static std::error_code newPool(int& size, Options& options, const Clock& clock);

  // C++: the end of newPool (goPurge, goTicktock), after the constructor:
  // nil, or errBackgroundThreadFailed when the OS refuses the purge or the
  // ticktock thread (a goroutine cannot fail to start). Then the pool must
  // be dropped; it stops whatever did start. new_pool calls it.
  std::error_code start_();

 protected:
  // size and options have passed newPool. Starts nothing: see start_().
  PoolCommon(int size, Options options, std::shared_ptr<PoolTrace> trace);

  // Gives the caller a worker: an idle one, else a new one if the capacity
  // allows (started under the lock since v2.11.4, so Running() never passes
  // Cap()), else ErrPoolOverload (Nonblocking, or MaxBlockingTasks callers
  // already wait), else waits on the condition and retries; ErrPoolClosed if
  // the pool closed meanwhile.
  std::expected<Worker*, std::error_code> retrieveWorker();
  // C++: the task the calling thread retrieves a worker for, which the trace
  // names (handed off, blocked, unblocked). Go's retrieveWorker takes no
  // task, so Submit and Invoke set it just before the call: a value of the
  // calling thread's own (thread_value, as Java's future keeps whether its
  // task threw), so concurrent submitters each see theirs.
  struct RetrievingForTag;
  static TaskId& retrievingFor() { return thread_value<TaskId, RetrievingForTag>(); }

  // workerCache: Go's sync.Pool of worker objects, which makes starting a
  // worker cheap (an exited worker's object, its channel included, is put
  // back and the next spawn gets it).
  go::SyncPool<WorkerThread> workerCache;
  // C++: the workers' threads (Go's goroutines need no joining), joined as
  // they end: at the next spawn, after each purge, and all at release.
  go::ThreadGroup goroutines_;

 private:
  friend class WorkerThread;
  friend class GoWorker;
  template <class T>
  friend class GoWorkerWithFunc;

  // Puts a worker whose task is done back in the queue and wakes one waiter;
  // false if the worker must exit instead (over capacity after a Tune down,
  // closed, or the ring is full).
  bool revertWorker(Worker* worker);

  void purgeStaleWorkers(go::Ticker& ticker);
  void ticktock(go::Ticker& ticker);
  void goPurge();
  void goTicktock();
  void startTickers();                  // C++: goPurge and goTicktock, in a race (see pool_common.cpp)
  Time makeTicker(go::Ticker& ticker);  // C++: the goroutine's time.NewTicker
  int addRunning(int delta) { return running_.fetch_add(delta) + delta; }
  void addWaiting(int delta) { waiting_.fetch_add(delta); }
  // p.once.Do(func() { close(p.allDone) }), on the allDone and once of now
  // (Reboot makes new ones).
  void closeAllDone();
  // recover() in the worker's exit path.
  void recoverPanic(std::exception_ptr panic);
  Clock& clock() const { return trace_->clock(); }

  // Go's `options`, `running` and `waiting`: C++ gives these names to the
  // methods options(), running() and waiting(), so the fields keep an underscore.
  const Options options_;
  const std::shared_ptr<PoolTrace> trace_;
  std::atomic<std::int32_t> capacity;
  std::atomic<std::int32_t> running_{0};
  std::atomic<std::int32_t> waiting_{0};  // changed under the lock, read anywhere
  std::atomic<std::int32_t> state{OPENED};

  mutable SpinLock lock;
  const std::unique_ptr<WorkerQueue> workers;  // guarded by lock
  go::Cond<SpinLock> cond{lock};
  const Label detachRule_;  // LIFO stack or FIFO ring, for the trace
  const Label idleRule_;

  // allDone is closed, once, when the last worker of a closed pool exits:
  // release_timeout and release_and_join wait for it. Reboot makes new ones.
  struct empty {};  // Go's struct{}
  std::shared_ptr<go::Chan<empty>> allDone = std::make_shared<go::Chan<empty>>();
  std::shared_ptr<go::Once> once = std::make_shared<go::Once>();
  // C++: guards the two pointers above, which Reboot replaces while a late
  // worker may read them (in Go a data race, which Reboot's comment warns of).
  mutable Mutex allDoneM_;

  // purge and ticktock. A stopped Ticker is Go's cancelled context.
  Mutex lifecycle_;  // guards the four members below (Go leaves them unguarded)
  std::shared_ptr<go::Ticker> stopPurge;
  std::shared_ptr<go::Ticker> stopTicktock;
  Thread purgeThread_;
  Thread ticktockThread_;
  std::atomic<std::int32_t> purgeDone{0};
  std::atomic<std::int32_t> ticktockDone{0};
  std::atomic<Time::rep> now{0};  // the coarse clock
  // C++: startTickers' gate, and its count of the ticker threads that have
  // reached it, then of those that have made their tickers.
  Mutex tickersGate_;
  go::WaitGroup tickers_;
};

// The clock a TraceTarget names, as PoolTrace resolves it.
Clock& clock_of(const TraceTarget& target);

template <class Body>
void WorkerThread::go(Body body) {
  try {
    pool.goroutines_.go("ants-w" + std::to_string(id_), std::move(body));
  } catch (...) {
    pool.addRunning(-1);
    throw;
  }
}

}  // namespace poolscope::ants
