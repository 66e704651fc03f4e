#include "labs/solutions/02-reaping/worker_pool.h"

#include <system_error>

#include "labs/solutions/02-reaping/rules.h"

// LAB_MUTANT_* blocks: wrong variants of this solution, each built into its
// own grader by labs/CMakeLists.txt (POOLSCOPE_LAB_MUTANTS); CI proves the
// grader fails every one (tests/labs/mutants.py). Never defined otherwise.

namespace poolscope::lab02::solution {

WorkerPool::WorkerPool(int maxWorkersCount, Nanos maxIdleWorkerDuration, const TraceTarget& target)
    : trace_(target, "lab02-reaping"),
      maxWorkersCount_(maxWorkersCount),
      maxIdleWorkerDuration_(maxIdleWorkerDuration) {}

WorkerPool::~WorkerPool() {
  Stop();
  join();
}

void WorkerPool::Start() {
  goroutines_.go("lab02-cleaner", [this] { cleaner(); });
}

void WorkerPool::cleaner() {
  Clock& clock = trace_.clock();
  std::unique_lock lock(lock_);
  while (!stopped_) {
    Time next = clock.now() + maxIdleWorkerDuration_;  // read before the pass is traced
    lock.unlock();
    clean();
    lock.lock();
    stopCh_.wait_until(lock, clock, next, [&] { return stopped_; });
  }
}

bool WorkerPool::Serve(Task fn) {
  Job task{trace_.submitted(), std::move(fn)};
  Label refusal = kConcurrencyLimit;
  ChanRef ch = getCh(task.id, refusal);
  if (!ch) {
    trace_.refused(task.id, refusal);
    return false;
  }
  ch->ch.send(std::move(task));
  return true;
}

WorkerPool::ChanRef WorkerPool::getCh(TaskId task, Label& refusal) {
  std::unique_lock lock(lock_);
  if (!ready_.empty()) {
#ifdef LAB_MUTANT_02_FIFO  // the worker ready longest: cold workers never expire
    ChanRef ch = std::move(ready_.front());
    ready_.erase(ready_.begin());
#else
    ChanRef ch = std::move(ready_.back());  // LIFO: the most recently released
    ready_.pop_back();
#endif
    trace_.handoff(task, ch->id, kReadyStack);
    return ch;
  }
  if (workersCount_ >= maxWorkersCount_) return nullptr;
#ifdef LAB_MUTANT_02_LIMIT_THEN_RELOCK  // the limit tested under one hold of the lock, the worker started under a second
  lock.unlock();
  lock.lock();
#endif
  // C++: fasthttp starts the goroutine after unlocking; the thread is
  // started under the lock here so that Stop and join see every worker.
  auto ch = std::make_shared<WorkerChan>(trace_.new_worker_id());
  try {
    goroutines_.go("lab02-" + std::to_string(ch->id), [this, ch] { workerFunc(ch); });
  } catch (const std::system_error&) {  // C++: a goroutine always starts; a thread may not
    refusal = rules::thread_create_failed();
    return nullptr;
  }
  workersCount_++;
  trace_.spawned(ch->id, kNewWorker);
  trace_.handoff(task, ch->id, kNewWorker);
  return ch;
}

void WorkerPool::workerFunc(const ChanRef& ch) {
  Label why = kStop;
  for (;;) {
    Job task = ch->ch.recv();
    if (!task) {  // nil: the cleaner or Stop
      why = ch->stopped_by;
      break;
    }
    trace_.run(ch->id, task);  // fasthttp lets a panic crash the process; a C++ exception is counted
    if (!release(ch)) break;   // mustStop
  }
  std::lock_guard lock(lock_);
  workersCount_--;
  trace_.exited(ch->id, why);
}

bool WorkerPool::release(const ChanRef& ch) {
  ch->lastUseTime = trace_.clock().now();  // before the lock, as fasthttp does
  std::lock_guard lock(lock_);
  if (mustStop_) return false;
  ready_.push_back(ch);
  trace_.idle(ch->id, kReadyStack);
  return true;
}

// `ready` is sorted by lastUseTime (LIFO pushes the newest on top), so the
// workers idle longer than MaxIdleWorkerDuration are a prefix of it: find its
// end with a binary search, cut it out under the lock, and send each nil
// outside the lock.
void WorkerPool::clean() {
  Time now = trace_.clock().now();
  Time criticalTime = now - maxIdleWorkerDuration_;
  std::vector<ChanRef> scratch;
  std::int64_t lookedAt = 0;
  {
    std::lock_guard lock(lock_);
    const auto n = static_cast<std::ptrdiff_t>(ready_.size());
    lookedAt = n;
    std::ptrdiff_t l = 0, r = n - 1, i = -1;  // i: the last index with lastUseTime < criticalTime
    while (l <= r) {
      std::ptrdiff_t mid = l + (r - l) / 2;
      if (ready_[static_cast<std::size_t>(mid)]->lastUseTime < criticalTime) {
        i = mid;
        l = mid + 1;
      } else {
        r = mid - 1;
      }
    }
    if (i >= 0) {
      scratch.assign(ready_.begin(), ready_.begin() + i + 1);
#ifndef LAB_MUTANT_02_STOPPED_STAY_READY  // the stopped workers are left in `ready`: a task handed to one is lost
      ready_.erase(ready_.begin(), ready_.begin() + i + 1);
#endif
      for (const ChanRef& ch : scratch) {
        ch->stopped_by = kCleanerPass;
        trace_.reaped(ch->id, kCleanerPass, now - ch->lastUseTime);
      }
    }
  }
  trace_.cleaner_pass(kCleanerPass, lookedAt, static_cast<std::int32_t>(scratch.size()));
  for (const ChanRef& ch : scratch) ch->ch.send({});
}

void WorkerPool::Stop() {
  std::lock_guard lock(lock_);
  if (stopped_) return;
  stopped_ = true;
  stopCh_.notify_all();
  for (const ChanRef& ch : ready_) {
    ch->stopped_by = kStop;
    ch->ch.send({});
  }
  ready_.clear();
  mustStop_ = true;
}

// C++: after Stop the adapter serves nothing (fasthttp's Serve would still
// start workers), so the group gets no new thread while it is waited for.
void WorkerPool::join() { goroutines_.wait(); }

int WorkerPool::workers_count() const {
  std::lock_guard lock(lock_);
  return workersCount_;
}

int WorkerPool::ready_count() const {
  std::lock_guard lock(lock_);
  return static_cast<int>(ready_.size());
}

}  // namespace poolscope::lab02::solution
