#include "labs/solutions/03-keepalive/pool.h"

#include <sstream>
#include <stdexcept>
#include <system_error>
#include <vector>

namespace poolscope::lab03::solution {

namespace {

// The registry's checks (registration.cpp: the parameters' ranges, then
// coreSize and allocationNum against maxSize), for a pool made directly.
// Returns maxSize, so that it runs before `workers` and `taskQueue` are sized.
int validMaxSize(int coreSize, int maxSize, int cap, const Options& opts) {
  auto fail = [](const auto&... parts) {
    std::ostringstream message;
    message << "lab03: ";
    (message << ... << parts);
    throw std::invalid_argument(message.str());
  };
  if (maxSize < 1) fail("maxSize ", maxSize, " must be at least 1");
  if (coreSize < 0) fail("coreSize ", coreSize, " must not be negative");
  if (cap < 0) fail("the task queue's capacity ", cap, " must not be negative");
  if (opts.allocationNum < 0) fail("allocationNum ", opts.allocationNum, " must not be negative");
  if (opts.blockMaxNum < 0) fail("blockMaxNum ", opts.blockMaxNum, " must not be negative");
  if (coreSize > maxSize) fail("coreSize ", coreSize, " must not exceed maxSize ", maxSize);
  if (opts.isPreAllocation && opts.allocationNum > maxSize)
    fail("allocationNum ", opts.allocationNum, " must not exceed maxSize ", maxSize);
  return maxSize;
}

}  // namespace

Pool::Pool(int coreSize, int maxSize, int cap, Options opts, const TraceTarget& target)
    : maxSize(validMaxSize(coreSize, maxSize, cap, opts)),
      coreSize(coreSize),
      workers(maxSize),
      taskQueue(cap),
      opts(std::move(opts)),
      trace_(target, "lab03-keepalive") {
  if (opts.isPreAllocation) {
    std::lock_guard locked(lock);
    for (int i = 0; i < opts.allocationNum; ++i)
      if (Worker* w = newWorker()) {
        trace_.spawned(w->id, kPreAllocation);
        addWorker(w);
      }
  }
}

Pool::~Pool() {
  close();
  join();
}

// The seed's §7: closed? Then an idle worker, or a new one below coreSize.
// Then the task queue. Then an idle worker again, or a new one below
// maxSize. Then block (isBlocking) or reject.
std::error_code Pool::submit(Task fn) {
  Job task{trace_.submitted(), std::move(fn)};
  std::unique_lock locked(lock);
  if (is_closed()) {
    trace_.refused(task.id, refusal(ErrPoolClosed));
    return ErrPoolClosed;
  }
  if (getWorker(&Pool::isCoreFull, task)) return {};
  if (enTaskQueue(task)) return {};
  // Under the one lock nothing has changed since the first look, so this
  // second look at the idle workers finds none; it is the seed's step, kept.
  if (getWorker(&Pool::isMaxFull, task)) return {};
  if (isNeedBlocking()) return blockWait(locked, task);
  return handleReject(task);
}

// An idle worker for `task`; failing that, a new worker unless isFull().
// Gives it the task and returns true, or returns false. The trace's reason
// for a new worker is the bound this look checks: below coreSize at the
// first, the task queue full at the second (isMaxFull).
bool Pool::getWorker(IsFull isFull, Job& task) {
  Label how = kWorkersQueue;
  Worker* w = workers.poll();
  if (!w && !(this->*isFull)()) {
    w = newWorker();
    if (w) trace_.spawned(w->id, isFull == &Pool::isCoreFull ? kBelowCore : kTaskQueueFull);
    how = kNewWorker;
  }
  if (!w) return false;
  trace_.handoff(task.id, w->id, how);
  w->task.send(std::move(task));
  return true;
}

// Starts a worker (with the lock held); nullptr if the OS refuses a thread.
Worker* Pool::newWorker() {
  freeExited();
  Worker& w = all_.emplace_back(*this, trace_.new_worker_id());
  try {
    w.run();
  } catch (const std::system_error&) {
    all_.pop_back();
    return nullptr;
  }
  incrRunning(1);
  return &w;
}

// C++: frees the Workers that timed out (with the lock held; their threads
// touch them no more, and goroutines_ joins those threads), so all_ holds
// only live workers.
void Pool::freeExited() {
  for (Worker* w : exited_) all_.remove_if([w](const Worker& x) { return &x == w; });
  exited_.clear();
}

// An idle worker goes back into `workers`, and wakes a blocked submitter.
void Pool::addWorker(Worker* w) {
  if (is_closed() || w->status == Worker::kStopped) return;
  workers.put(w);
  trace_.idle(w->id, kWorkersQueue);
  cond.notify_one();
}

bool Pool::enTaskQueue(Job& task) {
  if (is_closed() || !taskQueue.add(task)) return false;
  trace_.queued(task.id, kTaskQueue, taskQueue.len());
  return true;
}

bool Pool::isNeedBlocking() const {
  return opts.isBlocking && (opts.blockMaxNum <= 0 || blockSize_ < opts.blockMaxNum);
}

// Waits on the pool's cond for a worker to go idle, then gives it the task.
std::error_code Pool::blockWait(std::unique_lock<Mutex>& locked, Job& task) {
  blockSize_++;
  trace_.blocked(task.id);
  Worker* w = nullptr;
  while (is_running() && !(w = workers.poll())) cond.wait(locked);
  blockSize_--;
  trace_.unblocked(task.id);
  if (!w) {
    trace_.refused(task.id, refusal(ErrPoolClosed));
    return ErrPoolClosed;
  }
  trace_.handoff(task.id, w->id, kWorkersQueue);
  w->task.send(std::move(task));
  return {};
}

std::error_code Pool::handleReject(Job& task) {
  std::error_code err = opts.rejectHandler ? opts.rejectHandler(task.fn) : ErrPoolFull;
  if (!err) err = ErrPoolFull;
  trace_.refused(task.id, refusal(err));
  return err;
}

void Pool::handlePanic(std::exception_ptr panic) {
  if (opts.panicHandler) opts.panicHandler(panic);
}

// The dropped tasks are destroyed after lock is released (they are declared
// before it): a task's captures may call back into the pool as they go.
int Pool::close() {
  InOrder<Job> dropped;  // released first to last, after lock (pools/core/task.h)
  std::lock_guard locked(lock);
  closeLocked(dropped);
  return static_cast<int>(dropped.size());
}

void Pool::closeLocked(std::vector<Job>& dropped) {
  if (is_closed()) return;
  setStatus(kClosedStatus);
  trace_.state(kClose);
  cond.notify_all();  // blocked submitters: ErrPoolClosed
  for (Worker* w : workers.reset()) {
    w->status = Worker::kStopped;
    w->task.send({});  // nil: stop
  }
  // Queued tasks with no worker alive: only a worker that has just run a
  // task looks in the queue, so with coreSize 0 the tasks queued before the
  // first worker wait until the queue is full, and at Close they would wait
  // for ever. (With a worker alive the queue is drained: a task is queued
  // only when no worker is idle, so every live worker is busy and takes
  // queued tasks before it stops.)
  if (runningSize == 0) {
    while (Job t = deTaskQueue()) {
      trace_.dropped(t.id, kCloseNoWorker);
      dropped.push_back(std::move(t));
    }
  }
}

int Pool::close_now() {
  InOrder<Job> dropped;  // released first to last, after lock (pools/core/task.h)
  std::lock_guard locked(lock);
  trace_.state(kCloseNow);
  while (Job t = deTaskQueue()) {
    trace_.dropped(t.id, kCloseNow);
    dropped.push_back(std::move(t));
  }
  closeLocked(dropped);  // nothing is left for it to drop
  return static_cast<int>(dropped.size());
}

// C++: after close() no worker is started, so the group holds still.
void Pool::join() { goroutines_.wait(); }

int Pool::idle_size() const {
  std::lock_guard locked(lock);
  return workers.len();
}

int Pool::queue_size() const {
  std::lock_guard locked(lock);
  return taskQueue.len();
}

int Pool::block_size() const {
  std::lock_guard locked(lock);
  return blockSize_;
}

}  // namespace poolscope::lab03::solution
