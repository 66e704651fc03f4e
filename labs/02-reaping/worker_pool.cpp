#include "labs/02-reaping/worker_pool.h"

#include "labs/02-reaping/rules.h"

namespace poolscope::lab02 {

WorkerPool::WorkerPool(int maxWorkersCount, Nanos maxIdleWorkerDuration, const TraceTarget& target)
    : trace_(target, "lab02-student"),
      maxWorkersCount_(maxWorkersCount),
      maxIdleWorkerDuration_(maxIdleWorkerDuration) {}

WorkerPool::~WorkerPool() {
  Stop();
  join();
}

void WorkerPool::Start() {
  // TODO(step 2): this is lab 01's fixed pool: every worker starts here, with
  // the pool, and waits in `ready` until Stop. fasthttp starts none here;
  // getCh starts each one when a task finds no ready worker. Remove this block.
  {
    std::lock_guard lock(lock_);
    const Time now = trace_.clock().now();
    for (int i = 0; i < maxWorkersCount_; ++i) {
      auto ch = std::make_shared<WorkerChan>(trace_.new_worker_id());
      ch->lastUseTime = now;
      goroutines_.go("lab02s-" + std::to_string(ch->id), [this, ch] { workerFunc(ch); });
      workersCount_++;
      trace_.spawned(ch->id, kFixedStart);
      ready_.push_back(ch);
    }
  }
  goroutines_.go("lab02s-cleaner", [this] { cleaner(); });
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
  std::lock_guard lock(lock_);
  if (!ready_.empty()) {
    // TODO(step 3): fasthttp takes the most recently released worker (LIFO).
    ChanRef ch = std::move(ready_.front());
    ready_.erase(ready_.begin());
    trace_.handoff(task, ch->id, kReadyStack);
    return ch;
  }
  // TODO(step 2): no worker is ready. Only when workersCount_ has reached
  // maxWorkersCount_ does fasthttp return nil (Serve refuses); below it, it
  // starts a new worker for this task: a WorkerChan (std::make_shared) with a
  // new worker id, goroutines_.go(name, [this, ch] { workerFunc(ch); }),
  // workersCount_++, trace_.spawned and trace_.handoff with kNewWorker, and
  // return it. (fasthttp starts the goroutine after unlocking; start the
  // thread under the lock here, so that Stop and join see every worker.)
  // C++: a goroutine always starts; a thread may not: if go() throws
  // std::system_error, refuse: refusal = rules::thread_create_failed(),
  // return nullptr.
  (void)refusal;
  return nullptr;
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

// TODO(step 4): stop the ready workers idle longer than MaxIdleWorkerDuration
// (lastUseTime < now - MaxIdleWorkerDuration). With LIFO reuse they are a
// prefix of `ready`: find its end with a binary search, cut it out under the
// lock (trace_.reaped for each, with kCleanerPass, and set stopped_by), then
// send each a nil outside the lock.
void WorkerPool::clean() {
  std::vector<ChanRef> scratch;
  std::int64_t lookedAt = 0;
  {
    std::lock_guard lock(lock_);
    lookedAt = static_cast<std::int64_t>(ready_.size());
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

}  // namespace poolscope::lab02
