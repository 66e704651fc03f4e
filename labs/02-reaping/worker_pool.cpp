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
      WorkerChan& ch = all_.emplace_back(trace_.new_worker_id());
      ch.thread = Thread("lab02s-" + std::to_string(ch.id), [this, c = &ch] { workerFunc(c); });
      workersCount_++;
      trace_.spawned(ch.id, kFixedStart);
      ch.lastUseTime = now;
      ready_.push_back(&ch);
    }
  }
  cleaner_ = Thread("lab02s-cleaner", [this] { cleaner(); });
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
  WorkerChan* ch = getCh(task.id, refusal);
  if (!ch) {
    trace_.refused(task.id, refusal);
    return false;
  }
  ch->send(std::move(task));
  return true;
}

WorkerChan* WorkerPool::getCh(TaskId task, Label& refusal) {
  std::lock_guard lock(lock_);
  if (!ready_.empty()) {
    // TODO(step 3): fasthttp takes the most recently released worker (LIFO).
    WorkerChan* ch = ready_.front();
    ready_.erase(ready_.begin());
    trace_.handoff(task, ch->id, kReadyStack);
    return ch;
  }
  // TODO(step 2): no worker is ready. Only when workersCount_ has reached
  // maxWorkersCount_ does fasthttp return nil (Serve refuses); below it, it
  // starts a new worker for this task: joinFinished() first (it joins the
  // workers that ended), then a WorkerChan in all_ with a new worker id, its
  // thread running workerFunc, workersCount_++, trace_.spawned and
  // trace_.handoff with kNewWorker, and return it. (fasthttp starts the
  // goroutine after unlocking; start the thread under the lock here, so that
  // Stop and join see every worker.) A goroutine always starts; a thread may
  // not: if Thread's constructor throws std::system_error, take the
  // WorkerChan out of all_ again and refuse: refusal =
  // rules::thread_create_failed(), return nullptr.
  (void)refusal;
  return nullptr;
}

void WorkerPool::workerFunc(WorkerChan* ch) {
  Label why = kStop;
  for (;;) {
    Job task = ch->receive();
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
  finished_.push_back(ch);
}

bool WorkerPool::release(WorkerChan* ch) {
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
  std::vector<WorkerChan*> scratch;
  std::int64_t lookedAt = 0;
  {
    std::lock_guard lock(lock_);
    lookedAt = static_cast<std::int64_t>(ready_.size());
  }
  trace_.cleaner_pass(kCleanerPass, lookedAt, static_cast<std::int32_t>(scratch.size()));
  for (WorkerChan* ch : scratch) ch->send({});
}

void WorkerPool::Stop() {
  std::lock_guard lock(lock_);
  if (stopped_) return;
  stopped_ = true;
  stopCh_.notify_all();
  for (WorkerChan* ch : ready_) {
    ch->stopped_by = kStop;
    ch->send({});
  }
  ready_.clear();
  mustStop_ = true;
}

void WorkerPool::join() {
  std::lock_guard one(joining_);
  cleaner_.join();
  // After Stop the adapter serves nothing (fasthttp's Serve would still start
  // workers), so all_ holds still; a worker that ends
  // touches only finished_ (under the lock) after it left all_ be.
  for (WorkerChan& ch : all_) ch.thread.join();
  std::lock_guard lock(lock_);
  finished_.clear();
}

void WorkerPool::joinFinished() {
  for (WorkerChan* ch : finished_) {
    ch->thread.join();
    all_.remove_if([ch](const WorkerChan& c) { return &c == ch; });
  }
  finished_.clear();
}

int WorkerPool::workers_count() const {
  std::lock_guard lock(lock_);
  return workersCount_;
}

int WorkerPool::ready_count() const {
  std::lock_guard lock(lock_);
  return static_cast<int>(ready_.size());
}

}  // namespace poolscope::lab02
