// Lab 03, starter: a copy of the `coremax` design (pools/coremax/), the
// core/max goroutine pool of seed 001 ("实现一个 goroutine pool"), a Go
// pool built on Java's ThreadPoolExecutor logic: core and max sizes, a
// bounded task queue, a queue of idle workers, reject and panic handlers,
// optional blocking of submitters (with a maximum), optional pre-allocation.
//
// Written as the seed describes it (its §6 structures, its §7 submit
// algorithm), flaw included. The seed's closing section admits it: workers
// get no idle time, so once created a worker lives until the pool closes,
// and "core and max are nominal". Watch a burst grow the pool to maxSize and
// the pool stay there. A course lab starts here: add keep-alive for the
// workers beyond core, then a core time-out.
//
// One lock. The seed gives the idle-worker queue and the task queue locks of
// their own; here the pool's lock guards both and each submit's decision, so
// that a worker going idle ("no task queued") and a submitter queueing ("no
// worker idle") cannot cross: with separate locks, a task can be left queued
// while every worker sleeps (see Worker::getTask).
#pragma once

#include <atomic>
#include <list>
#include <mutex>
#include <vector>

#include "labs/03-keepalive/options.h"
#include "labs/03-keepalive/rules.h"
#include "labs/03-keepalive/task_queue.h"
#include "labs/03-keepalive/worker.h"
#include "labs/03-keepalive/workers.h"
#include "pools/core/go/thread_group.h"
#include "pools/core/pool_trace.h"

namespace poolscope::lab03 {

class Pool {
 public:
  // Go: NewPool(core, max, cap, opts...). `cap` is the task queue's capacity.
  // C++: throws std::invalid_argument for what the registry refuses
  // (registration.cpp): maxSize < 1, coreSize < 0 or > maxSize, cap < 0,
  // allocationNum < 0 (or > maxSize with isPreAllocation), blockMaxNum < 0.
  // The seed checks nothing; here maxSize 0 would divide by zero in
  // `workers`, and more than maxSize workers would overrun its ring.
  Pool(int coreSize, int maxSize, int cap, Options opts = {}, const TraceTarget& target = {});
  ~Pool();  // close(), then join()
  Pool(const Pool&) = delete;
  Pool& operator=(const Pool&) = delete;

  // Hands `task` to an idle or new worker, or queues it, or rejects it (or,
  // with isBlocking, waits for an idle worker). Returns nil (an empty
  // error_code) or the error.
  std::error_code submit(Task task);
  // Refuses new tasks from now on. Submitters blocked in submit get
  // ErrPoolClosed, idle workers stop, busy workers stop once the task queue
  // is empty: the queued tasks still run. (The seed does not say what Close
  // does with queued tasks; close_now() drops them.) C++: if no worker is
  // alive, nobody would ever take the queued tasks (coreSize 0: tasks wait
  // in the queue until it is full), so they are dropped (traced as
  // `close-no-worker`); returns how many (Go's Close returns nothing).
  int close();
  // C++: the seed has no CloseNow. Drops the queued tasks (traced as
  // dropped) and closes, in one step under the lock, so that no task can be
  // queued in between. Returns how many.
  int close_now();
  // C++: waits for every worker thread to end (after close()).
  void join();

  bool is_running() const { return status.load() == kRunningStatus; }
  bool is_closed() const { return status.load() == kClosedStatus; }
  int running_size() const { return runningSize.load(); }  // workers alive
  int max_size() const { return maxSize; }
  int core_size() const { return coreSize; }
  // C++: for the Pool adapter's state().
  int idle_size() const;
  int queue_size() const;
  int block_size() const;

  PoolTrace& trace() { return trace_; }
  const PoolTrace& trace() const { return trace_; }

 private:
  friend class Worker;
  enum : int { kRunningStatus, kClosedStatus };
  using IsFull = bool (Pool::*)() const;

  bool isCoreFull() const { return runningSize >= coreSize; }
  bool isMaxFull() const { return runningSize >= maxSize; }
  void incrRunning(int i) { runningSize += i; }
  void setStatus(int status) { this->status = status; }
  bool getWorker(IsFull isFull, Job& task);
  void addWorker(Worker* w);
  bool enTaskQueue(Job& task);
  Job deTaskQueue() { return taskQueue.poll(); }
  // C++: helpers the seed does not have. It names the options (isBlocking,
  // blockMaxNum, rejectHandler, panicHandler) and says what Submit does;
  // these are those sentences, each in one place.
  Worker* newWorker();          // getWorker's "create a new worker"
  bool isNeedBlocking() const;  // isBlocking, below blockMaxNum
  std::error_code blockWait(std::unique_lock<Mutex>& locked, Job& task);
  std::error_code handleReject(Job& task);      // rejectHandler, or ErrPoolFull
  void closeLocked(std::vector<Job>& dropped);  // close(), with lock held; adds what it drops
  void handlePanic(std::exception_ptr panic);   // panicHandler, if any

  const int maxSize;
  const int coreSize;
  std::atomic<int> runningSize{0};
  std::atomic<int> status{kRunningStatus};
  mutable Mutex lock;
  CondVar cond;     // blocked submitters wait here for a worker to go idle
  Workers workers;  // idle workers
  TaskQueue taskQueue;
  int blockSize_ = 0;  // C++: submitters waiting in blockWait, against blockMaxNum
  const Options opts;
  PoolTrace trace_;
  std::list<Worker> all_;       // C++: owns every Worker (Go's garbage collector did); none leaves before close
  go::ThreadGroup goroutines_;  // C++: every worker's thread (`go func()`); join() waits for them
};

}  // namespace poolscope::lab03
