// workerpool.go, in its order. Index:
//   New, ~WorkerPool          start the dispatcher
//   Stop, StopWait, Stopped   the API ...
//   Do, SubmitWait, Pause
//   dispatch                  the dispatcher: select on taskQueue and the idle timer
//   worker                    runs tasks until it receives nil
//   stop                      closes taskQueue, waits for the dispatcher
//   processWaitingQueue       select: a new task to the queue, or the head to a ready worker
//   killIdleWorker            select with default: nil to a ready worker, if there is one
//   runQueuedTasks            StopWait: every queued task to the next ready worker
//   C++ helpers               startWorker, retryRefusedWorker, readyWorkers, traceTick, pushWaiting
#include "pools/gammazero/workerpool.h"

#include <algorithm>
#include <memory>
#include <string>
#include <system_error>
#include <utility>

#include "pools/core/go/defer.h"
#include "pools/core/go/select.h"
#include "pools/core/go/thread_group.h"
#include "pools/core/go/wait_group.h"

namespace poolscope::gammazero {

using namespace rules;

namespace {
Nanos idleTimeoutOf(std::initializer_list<Option> options) {
  config cfg;
  for (const Option& opt : options) opt(cfg);
  return cfg.idleTimeout;
}
}  // namespace

WorkerPool::WorkerPool(int maxWorkers, std::initializer_list<Option> options, const TraceTarget& target)
    : trace_(target, "gammazero"),
      maxWorkers(std::max(maxWorkers, 1)),  // there must be at least one worker
      idleTimeout(idleTimeoutOf(options)),
      timeout_(trace_.clock(), idleTimeout) {
  if (idleTimeout <= Nanos::zero()) timeout_.Stop();  // no idle timer: idleTO stays nil
  // Start the task dispatcher.
  dispatcher_ = Thread("gammazero-disp", [this] { dispatch(); });
}

WorkerPool::~WorkerPool() { stop(true); }

bool WorkerPool::is_stopped() const {
  std::lock_guard g(stopLock);
  return stopped;
}

std::error_code WorkerPool::do_(Task fn) {
  if (!fn) return {};
  Job task{trace_.submitted(), std::move(fn)};
  const TaskId id = task.id;
  try {
    taskQueue.send(std::move(task));
  } catch (const go::ClosedChannel&) {  // defer func() { if recover() != nil { err = ErrStopped } }()
    trace_.refused(id, kErrStopped);
    return ErrStopped;
  }
  return {};
}

namespace {
// close(doneChan) when SubmitWait's wrapped task is destroyed: right after it
// ran (a worker lets go of each task at once), or when it never will run.
class closeOnDestroy {
 public:
  explicit closeOnDestroy(go::Chan<bool>& done) : done_(&done) {}
  closeOnDestroy(closeOnDestroy&& other) noexcept : done_(std::exchange(other.done_, nullptr)) {}
  ~closeOnDestroy() {
    if (done_) done_->close();
  }

 private:
  go::Chan<bool>* done_;
};
}  // namespace

std::error_code WorkerPool::submit_wait(Task task) {
  if (!task) return {};
  go::Chan<bool> doneChan;
  // C++: closed by the closure's destructor, so a task that threw or was
  // abandoned releases the wait too.
  std::error_code err = do_([task = std::move(task), close = closeOnDestroy(doneChan)]() mutable { task(); });
  doneChan.recv();
  return err;
}

void WorkerPool::pause(std::stop_token ctx) {
  std::lock_guard g(stopLock);
  if (stopped) return;
  trace_.state(kPause);
  auto ready = std::make_shared<go::WaitGroup>();
  ready->Add(maxWorkers);
  auto holding = std::make_shared<std::atomic<int>>(maxWorkers);
  for (int i = 0; i < maxWorkers; ++i) {
    taskQueue.send(Job{trace_.submitted(), [this, ctx, ready, holding] {
                         ready->Done();
                         go::Chan<empty> done;  // C++: ctx.Done(), closed when ctx is cancelled
                         std::stop_callback cancel(ctx, [&] { done.close(); });
                         empty e;
                         go::select(go::recv(done, e), go::recv(stopSignal, e));
                         if (holding->fetch_sub(1) == 1) trace_.state(kResume);
                       }});
  }
  // Wait for workers to all be paused.
  ready->Wait();
}

// dispatch sends the next queued task to an available worker.
void WorkerPool::dispatch() {
  go::Defer closeStopped([&] { stoppedChan.close(); });  // defer close(p.stoppedChan)
  bool idle = false;
  int workerCount = 0;
  go::ThreadGroup wg;

  for (;;) {
    // As long as tasks are in the waiting queue, incoming tasks are put into
    // the waiting queue and tasks to run are taken from the waiting queue.
    // Once the waiting queue is empty, then go back to submitting incoming
    // tasks directly to available workers.
    if (waitingQueue.size() != 0) {
      if (retryRefusedWorker(wg, workerCount)) continue;  // C++: see there
      if (!processWaitingQueue()) break;
      continue;
    }

    Job task;
    bool ok = false;
    switch (go::select(go::recv(taskQueue, task, ok), timeout_.C())) {
      case 0: {
        if (!ok) goto stopping;  // break Loop
        // Got a task to do.
        handed h{std::move(task), kReadyWorker};
        switch (go::select(go::send(workerQueue, h), go::default_)) {
          case 0:
            break;
          default:
            // Create a new worker, if not at max.
            if (workerCount < maxWorkers && startWorker(wg, h.task, kNewWorker)) {
              workerCount++;
            } else {
              // Enqueue task to be executed by next available worker. C++:
              // also when the OS refused the new worker's thread.
              pushWaiting(std::move(h.task),
                          workerCount < maxWorkers ? poolscope::rules::thread_create_failed() : kWaitingQueue);
            }
        }
        idle = false;
        break;
      }
      case 1: {
        // C++: Go resets the timer last; here it is first, so that the next
        // deadline is read before the tick is traced (a test that moves the
        // clock on seeing the tick cannot push it a period later).
        timeout_.Reset(idleTimeout);
        // Timed out waiting for work to arrive. Kill a ready worker if pool
        // has been idle for a whole timeout.
        const auto ready = readyWorkers();  // C++: for the trace, read before the kill
        bool killed = false;
        if (idle && workerCount > 0) {
          if (killIdleWorker()) {
            workerCount--;
            workerCount_--, killed = true;  // C++: counters() and the trace
          }
        }
        traceTick(idle, ready, killed);  // C++
        idle = true;
        break;
      }
    }
  }
stopping:

  // If instructed to wait, then run tasks that are already queued.
  if (wait) {
    runQueuedTasks();
  } else {
    // C++: Go leaves them in the deque, unrun; here each is traced as
    // dropped and released. WaitingQueueSize still counts them, as Go's does.
    abandoned_.store(static_cast<int>(waitingQueue.size()));
    for (; waitingQueue.size() != 0; waitingQueue.pop_front()) trace_.dropped(waitingQueue.front().id, kAbandoned);
  }

  // Stop all remaining workers as they become ready.
  for (; workerCount > 0; workerCount--, workerCount_--) workerQueue.send(handed{Job{}, kStopNil});
  wg.wait();
  trace_.stopped(wait ? poolscope::rules::graceful() : poolscope::rules::now(), abandoned_.load());
}

// worker executes tasks and stops when it receives a nil task.
void WorkerPool::worker(WorkerId id, handed task, Time idleSince) {
  for (; task.task; task = workerQueue.recv()) {
    trace_.handoff(task.task.id, id, task.rule, task.rule == kQueueHead);
    trace_.run(id, task.task);  // C++: a task that throws is recorded; Go's worker would crash the program
    task.task.fn = nullptr;     // C++: release the task's captures now, not after the next wait
    idleSince = trace_.clock().now();
    trace_.idle(id, kWorkerQueue);
  }
  if (task.rule == kIdleTick) trace_.reaped(id, kIdleTick, trace_.clock().now() - idleSince);
  trace_.exited(id, task.rule);
}

// stop tells the dispatcher to exit, and whether or not to complete queued
// tasks.
void WorkerPool::stop(bool wait) {
  stopOnce.Do([&] {
    trace_.state(wait ? kStopWait : kStop);
    // Signal that workerpool is stopping, to unpause any paused workers.
    stopSignal.close();
    // Acquire stopLock to wait for any pause in progress to complete. All
    // in-progress pauses will complete because the stopSignal unpauses the
    // workers.
    {
      std::lock_guard g(stopLock);
      // The stopped flag prevents any additional paused workers. This makes
      // it safe to close the taskQueue.
      stopped = true;
    }
    this->wait = wait;
    // Close task queue and wait for currently running tasks to finish.
    taskQueue.close();
  });
  stoppedChan.recv();  // <-p.stoppedChan
  // C++: the dispatcher's thread ends just after it closes stoppedChan; join
  // it, so that no thread outlives stop() (a goroutine that returned is gone).
  joined_.Do([&] { dispatcher_.join(); });
}

// processWaitingQueue puts new tasks onto the waiting queue, and removes
// tasks from the waiting queue as workers become available. Returns false if
// worker pool is stopped.
bool WorkerPool::processWaitingQueue() {
  Job task;
  bool ok = false;
  handed front{std::move(waitingQueue.front()), kQueueHead};
  switch (go::select(go::recv(taskQueue, task, ok), go::send(workerQueue, front))) {
    case 0:
      waitingQueue.front() = std::move(front.task);  // C++: not sent: back where it was
      if (!ok) return false;
      pushWaiting(std::move(task), kBehindQueue);
      break;
    case 1:
      // A worker was ready, so gave task to worker.
      waitingQueue.pop_front();
      break;
  }
  waiting.store(static_cast<int>(waitingQueue.size()));
  return true;
}

bool WorkerPool::killIdleWorker() {
  handed nil{Job{}, kIdleTick};
  switch (go::select(go::send(workerQueue, nil), go::default_)) {
    case 0:
      // Sent kill signal to worker.
      return true;
    default:
      // No ready workers. All, if any, workers are busy.
      return false;
  }
}

// runQueuedTasks removes each task from the waiting queue and gives it to
// workers until queue is empty.
void WorkerPool::runQueuedTasks() {
  while (waitingQueue.size() != 0) {
    // A worker is ready, so give task to worker.
    workerQueue.send(handed{waitingQueue.pop_front(), kQueueHead});
    waiting.store(static_cast<int>(waitingQueue.size()));
  }
}

// --- C++: the helpers --------------------------------------------------------

// go worker(task, p.workerQueue, &wg). The new thread traces its own spawn,
// so nothing about a worker is traced unless its thread exists; `rule` is
// how its first task reached it. If the OS refuses the thread, `task` is
// left with the caller.
bool WorkerPool::startWorker(go::ThreadGroup& wg, Job& task, Label rule) {
  auto first = std::make_shared<Job>(std::move(task));
  const WorkerId id = trace_.new_worker_id();
  workerCount_++;  // before the thread runs, so counters() never shows it busy and uncounted
  try {
    wg.go("gammazero-" + std::to_string(id), [this, id, first, rule] {
      trace_.spawned(id, kNewWorker);
      worker(id, handed{std::move(*first), rule}, Time{});
    });
  } catch (const std::system_error&) {
    workerCount_--;
    task = std::move(*first);
    return false;
  }
  return true;
}

// A queue with fewer than maxWorkers running only happens when the OS refused
// a worker's thread (a goroutine always starts): start one for the head of
// the queue, once per turn of dispatch's loop, so that the queue is not left
// with no worker to drain it. True if it started (and took the head).
bool WorkerPool::retryRefusedWorker(go::ThreadGroup& wg, int& workerCount) {
  if (workerCount >= maxWorkers || !startWorker(wg, waitingQueue.front(), kQueueHead)) return false;
  waitingQueue.pop_front();
  waiting.store(static_cast<int>(waitingQueue.size()));
  workerCount++;
  return true;
}

// The workers waiting on workerQueue now: Go's dispatcher never looks; the
// trace of an idle tick reports them.
std::int64_t WorkerPool::readyWorkers() const { return static_cast<std::int64_t>(workerQueue.receivers_waiting()); }

// The idle tick in the trace: a first tick after work (nothing stopped), or a
// whole idle timeout (one ready worker stopped, if any was ready).
void WorkerPool::traceTick(bool idle, std::int64_t ready, bool killed) {
  trace_.cleaner_pass(idle ? kIdleTick : kTickAfterTask, ready, killed ? 1 : 0);
}

// waitingQueue.PushBack(task), with its atomic mirror.
void WorkerPool::pushWaiting(Job task, Label rule) {
  const TaskId id = task.id;
  waitingQueue.push_back(std::move(task));
  waiting.store(static_cast<int>(waitingQueue.size()));
  trace_.queued(id, rule, static_cast<std::int64_t>(waitingQueue.size()));
}

Counters WorkerPool::counters() const {
  const auto workers = static_cast<std::uint32_t>(workerCount_.load());
  const auto ready = std::min(workers, static_cast<std::uint32_t>(workerQueue.receivers_waiting()));
  const auto queued = static_cast<std::uint32_t>(waiting.load() - abandoned_.load());
  return Counters{workers, workers - ready, queued, 0};
}

}  // namespace poolscope::gammazero
