#include "pools/gammazero/workerpool.h"

#include <algorithm>
#include <latch>
#include <memory>
#include <optional>
#include <string>
#include <system_error>
#include <utility>

#include "pools/core/spin.h"

namespace poolscope::gammazero {

namespace {
// Where a task went.
const Label kReadyWorker =
    intern_label("ready-worker", "gammazero: a worker was waiting on workerQueue, so the task goes straight to it");
const Label kNewWorker =
    intern_label("new-worker", "gammazero: no worker was ready and fewer than maxWorkers run: start one for this task");
const Label kWaitingQueue =
    intern_label("waiting-queue", "gammazero: no worker was ready and maxWorkers run: the task waits in the queue");
const Label kBehindQueue = intern_label(
    "behind-waiting-queue", "gammazero: tasks already wait, so a new one goes behind them; no worker is started");
const Label kQueueHead =
    intern_label("waiting-queue-head", "gammazero: a worker became ready and gets the head of the waiting queue");
const Label kWorkerQueue = intern_label("worker-queue", "gammazero: the worker waits on workerQueue for its next task");
// The idle timer.
const Label kIdleTick = intern_label(
    "idle-tick", "gammazero: no task arrived for a whole idle timeout: stop one ready worker (at most one per tick)");
const Label kTickAfterTask =
    intern_label("tick-after-task", "gammazero: a task arrived during the last idle timeout: the tick stops nobody");
// Stopping.
const Label kStopNil =
    intern_label("stop-nil", "gammazero: stopping, the dispatcher sends nil to each worker as it becomes ready");
const Label kAbandoned =
    intern_label("abandoned", "gammazero Stop: tasks still in the waiting queue are abandoned, never run");
const Label kErrStopped = intern_label("err-stopped", "gammazero: submitting work to stopped workerpool (ErrStopped)");
// States.
const Label kStop =
    intern_label("stop", "gammazero Stop: running tasks finish, the waiting queue is abandoned, workers exit");
const Label kStopWait = intern_label("stop-wait", "gammazero StopWait: every queued task runs, then workers exit");
const Label kPause =
    intern_label("pause", "gammazero Pause: maxWorkers pause tasks take every worker until the context is cancelled");
const Label kResume =
    intern_label("resume", "gammazero: the pause ended (context cancelled or pool stopped): its workers are free");

constexpr Time kNever = Time::max();

Config configure(std::initializer_list<Option> options) {
  Config c;
  for (const Option& o : options) o(c);
  return c;
}
}  // namespace

std::string_view error_text(Error e) {
  return e == Error::stopped ? "submitting work to stopped workerpool" : "the OS refused to create another thread";
}

Label error_rule(Error e) { return e == Error::stopped ? kErrStopped : rules::thread_create_failed(); }

// A worker: Go's `worker(task, workerQueue, &wg)` goroutine. Its fields are
// its end of workerQueue: the dispatcher puts a task (or nil, to stop it) in
// `task` and wakes it. Its first task waits in `task` too (see startWorker).
struct WorkerPool::Worker {
  explicit Worker(WorkerId id) : id(id) {}
  const WorkerId id;
  Job task;
  std::atomic<bool> handed{false};  // set under m_; atomic so that receive can spin on it
  Label stop_rule = kNoLabel;       // why it was sent nil
  Time idle_since{};
  std::condition_variable wake;
  Thread thread;
};

// A submitter blocked in `taskQueue <- task` until the dispatcher receives.
struct WorkerPool::Sender {
  Job task;
  std::atomic<bool> received{false};  // set under m_; atomic so that the submitter can spin on it
  std::optional<Error> error;         // the channel was closed, or the worker could not start
  std::condition_variable done;
};

WorkerPool::WorkerPool(int max_workers, std::initializer_list<Option> options, const TraceTarget& target)
    : trace_(target, "gammazero"),
      max_workers_(std::max(max_workers, 1)),
      idle_timeout_(configure(options).idle_timeout) {
  // time.NewTimer(idleTimeout), from a time read before the dispatcher runs.
  Time timeout = idle_timeout_ > Nanos::zero() ? trace_.clock().now() + idle_timeout_ : kNever;
  dispatcher_ = Thread("gammazero-disp", [this, timeout] { dispatch(timeout); });
}

WorkerPool::~WorkerPool() { stop(true); }

// --- the dispatcher: Go's dispatch() ------------------------------------------

void WorkerPool::dispatch(Time timeout) {
  std::unique_lock lock(m_);
  bool idle = false;
  for (;;) {
    // As long as tasks are in the waiting queue, incoming tasks are put on it
    // and the tasks to run are taken from it. Once it is empty, go back to
    // handing incoming tasks directly to available workers.
    if (!waiting_queue_.empty()) {
      if (!processWaitingQueue(lock)) break;
      continue;
    }

    // select { case task, ok := <-p.taskQueue: ... case <-timeout.C: ... }
    Case c = select(lock, /*send=*/false, timeout);
    if (c == Case::closed) break;  // !ok: the pool is stopping
    if (c == Case::task) {
      // Got a task to do.
      dispatchTask(*task_queue_.pop_front());
      idle = false;
    } else {
      // Timed out waiting for work to arrive. Kill a ready worker if the pool
      // has been idle for a whole timeout: no task arrived since the last tick.
      Time now = trace_.clock().now();
      timeout = now + idle_timeout_;  // timer.Reset(idleTimeout), from a time read before the events below
      joinExited();                   // the workers earlier ticks stopped
      auto ready = static_cast<std::int64_t>(worker_queue_.size());
      bool killed = idle && worker_count_ > 0 && killIdleWorker(now);
      if (killed) --worker_count_;
      trace_.cleaner_pass(idle ? kIdleTick : kTickAfterTask, ready, killed ? 1 : 0);
      idle = true;
    }
  }

  // If instructed to wait, run the tasks that are already queued.
  const bool wait = wait_;
  std::int64_t abandoned = 0;
  if (wait) {
    runQueuedTasks(lock);
  } else {
    std::vector<Job> tasks = abandonWaitingQueue();
    abandoned = static_cast<std::int64_t>(tasks.size());
    // Release the abandoned tasks without m_: a task's destructor (its
    // captures') may call back into the pool. taskQueue is closed, so nothing
    // changes meanwhile but workers becoming ready.
    lock.unlock();
    tasks.clear();
    lock.lock();
  }
  // Stop all remaining workers as they become ready.
  for (; worker_count_ > 0; --worker_count_) give(awaitReadyWorker(lock), Job{}, kStopNil);
  lock.unlock();
  // wg.Wait(): the exiting workers need m_ no more once their thread ends.
  for (Worker& w : workers_) w.thread.join();
  workers_.clear();
  exited_.clear();
  trace_.stopped(wait ? rules::graceful() : rules::now(), abandoned);
}

// Go's select over the cases the dispatcher is ready for: a task from
// taskQueue (always), a ready worker on workerQueue (when `send`), the idle
// timer (until `deadline`). Go picks at random among ready cases; here the
// order is fixed: close, then the hand-off to a worker, then a new task, then
// the timer. Deterministic, and neither submitters nor workers can starve:
// hand-offs drain the finite waiting queue.
WorkerPool::Case WorkerPool::select(std::unique_lock<std::mutex>& lock, bool send, Time deadline) {
  dispatcher_sending_ = send;
  for (bool fired = false;;) {
    if (task_queue_closed_) return Case::closed;
    if (send && !worker_queue_.empty()) return Case::worker_ready;
    if (!task_queue_.empty()) return Case::task;
    if (fired) return Case::timer;
    // Nothing to do yet: spin a while with m_ released, then look again
    // before parking; a notification since `seen` means something changed.
    const std::uint64_t seen = dispatcher_wakes_.load();
    spin_unlocked(lock, [&] { return dispatcher_wakes_.load(std::memory_order_acquire) != seen; });
    if (dispatcher_wakes_.load() != seen) continue;
    if (deadline == kNever)
      dispatcher_wake_.wait(lock);
    else
      fired = dispatcher_wake_.wait_until(lock, trace_.clock(), deadline) == std::cv_status::timeout;
  }
}

// Puts new tasks on the waiting queue, and gives its head to workers as they
// become ready. The idle timer is not watched meanwhile: a tick that falls due
// is seen once the queue is empty. Returns false once the pool is stopped.
bool WorkerPool::processWaitingQueue(std::unique_lock<std::mutex>& lock) {
  switch (select(lock, /*send=*/true, kNever)) {
    case Case::closed:
      return false;
    case Case::worker_ready:  // case p.workerQueue <- p.waitingQueue.Front():
      giveHead(*worker_queue_.pop_front());
      break;
    case Case::task: {  // case task, ok := <-p.taskQueue:
      Sender& s = *task_queue_.pop_front();
      pushWaiting(std::move(s.task), kBehindQueue);
      release(s);
      break;
    }
    case Case::timer:
      break;  // not selected here
  }
  return true;
}

// A task received from taskQueue while nothing waits: to a ready worker, else
// to a new worker if below maxWorkers, else onto the waiting queue. The
// submitter is released only after the decision, so when Submit returns the
// task is with a worker or in the queue.
void WorkerPool::dispatchTask(Sender& s) {
  if (!worker_queue_.empty()) {  // select { case p.workerQueue <- task: default: ... }
    Worker& w = *worker_queue_.pop_front();
    trace_.handoff(s.task.id, w.id, kReadyWorker);
    give(w, std::move(s.task));
  } else if (worker_count_ < max_workers_) {
    if (startWorker(s.task))
      ++worker_count_;
    else
      s.error = Error::thread_create_failed;
  } else {
    pushWaiting(std::move(s.task), kWaitingQueue);
  }
  release(s);
}

// go worker(task, p.workerQueue, &wg), under m_. The task waits in the
// worker's slot rather than in the thread's closure: if the OS refuses the
// thread, it goes back to `task` (the submitter's), to be destroyed after m_
// is released, and nothing about a worker is traced. The new worker takes it
// under m_, so only after the spawn and the hand-off are traced here.
bool WorkerPool::startWorker(Job& task) {
  joinExited();  // keep workers_ as short as the live workers
  auto it = workers_.emplace(workers_.end(), trace_.new_worker_id());
  const TaskId id = task.id;
  it->task = std::move(task);
  try {
    it->thread = Thread("gammazero-" + std::to_string(it->id), [this, it] {
      Job first;
      {
        std::lock_guard g(m_);
        first = std::move(it->task);
      }
      worker(*it, std::move(first));
      trace_.exited(it->id, it->stop_rule);
      std::lock_guard g(m_);
      exited_.push_back(it);
    });
  } catch (const std::system_error&) {
    task = std::move(it->task);
    workers_.erase(it);
    return false;
  }
  trace_.spawned(it->id, kNewWorker);
  trace_.handoff(id, it->id, kNewWorker);
  return true;
}

// select { case p.workerQueue <- nil: return true; default: return false }:
// only a worker that is waiting can be stopped; busy workers never are.
bool WorkerPool::killIdleWorker(Time now) {
  if (worker_queue_.empty()) return false;
  Worker& w = *worker_queue_.pop_front();  // the one that has waited longest
  trace_.reaped(w.id, kIdleTick, now - w.idle_since);
  give(w, Job{}, kIdleTick);
  return true;
}

// StopWait: gives every queued task, in order, to the next ready worker.
void WorkerPool::runQueuedTasks(std::unique_lock<std::mutex>& lock) {
  while (!waiting_queue_.empty()) giveHead(awaitReadyWorker(lock));
}

// Stop: Go leaves the tasks in the deque, never to run. Here each one is
// traced as dropped and handed back to the dispatcher, which releases them
// once it has let go of m_; WaitingQueueSize() reads 0 afterwards.
std::vector<Job> WorkerPool::abandonWaitingQueue() {
  std::vector<Job> tasks;
  tasks.reserve(waiting_queue_.size());
  while (!waiting_queue_.empty()) {
    tasks.push_back(waiting_queue_.pop_front());
    trace_.dropped(tasks.back().id, kAbandoned);
  }
  waiting_.store(0, std::memory_order_relaxed);
  return tasks;
}

// waitingQueue.PushBack(task), with its atomic mirror.
void WorkerPool::pushWaiting(Job task, Label rule) {
  TaskId id = task.id;
  waiting_queue_.push_back(std::move(task));
  waiting_.store(static_cast<int>(waiting_queue_.size()), std::memory_order_relaxed);
  trace_.queued(id, rule, static_cast<std::int64_t>(waiting_queue_.size()));
}

// workerQueue <- waitingQueue.PopFront()
void WorkerPool::giveHead(Worker& w) {
  Job task = waiting_queue_.pop_front();
  waiting_.store(static_cast<int>(waiting_queue_.size()), std::memory_order_relaxed);
  trace_.handoff(task.id, w.id, kQueueHead, /*from_queue=*/true);
  give(w, std::move(task));
}

// The send on taskQueue completes: the submitter may return (once it holds
// m_ again, so `s` lives until this returns).
void WorkerPool::release(Sender& s) {
  s.received.store(true, std::memory_order_release);
  s.done.notify_one();
}

// A send on workerQueue to a worker blocked receiving: `task`, or nil (an
// empty Job) to stop it, for `stop_rule`.
void WorkerPool::give(Worker& w, Job task, Label stop_rule) {
  w.task = std::move(task);
  w.stop_rule = stop_rule;
  w.handed.store(true, std::memory_order_release);
  w.wake.notify_one();
}

// A blocking send on workerQueue: waits for a worker to be ready.
WorkerPool::Worker& WorkerPool::awaitReadyWorker(std::unique_lock<std::mutex>& lock) {
  dispatcher_sending_ = true;
  dispatcher_wake_.wait(lock, [&] { return !worker_queue_.empty(); });
  return *worker_queue_.pop_front();
}

// Joins the workers whose thread has ended (stopped by the idle tick). Under
// m_: they pushed themselves onto exited_ under m_ and need it no more.
void WorkerPool::joinExited() {
  for (auto it : exited_) {
    it->thread.join();
    workers_.erase(it);
  }
  exited_.clear();
}

// Under m_: tells the dispatcher's select that something changed, whether it
// spins or is parked.
void WorkerPool::wakeDispatcher() {
  dispatcher_wakes_.fetch_add(1, std::memory_order_release);
  dispatcher_wake_.notify_one();
}

// --- a worker -------------------------------------------------------------------

// worker runs tasks until it receives nil. A task that throws is recorded
// (task_threw) and the worker carries on; in Go the panic would end the
// program.
void WorkerPool::worker(Worker& self, Job task) {
  while (task) {
    trace_.run(self.id, task);
    task.fn = nullptr;  // release the task's captures now, not after the next wait
    task = receive(self);
  }
}

// task = <-workerQueue
Job WorkerPool::receive(Worker& self) {
  std::unique_lock lock(m_);
  self.idle_since = trace_.clock().now();
  worker_queue_.push_back(&self);
  trace_.idle(self.id, kWorkerQueue);
  if (dispatcher_sending_) wakeDispatcher();
  spin_unlocked(lock, [&] { return self.handed.load(std::memory_order_acquire); });
  self.wake.wait(lock, [&] { return self.handed.load(); });
  self.handed = false;
  return std::move(self.task);
}

// --- the API ---------------------------------------------------------------------

std::expected<void, Error> WorkerPool::do_(Task fn) {
  if (!fn) return {};
  Sender s{Job{trace_.submitted(), std::move(fn)}};
  TaskId id = s.task.id;
  {
    std::unique_lock lock(m_);
    if (task_queue_closed_) {
      s.error = Error::stopped;  // Go: the send on the closed channel panics; Do recovers it as ErrStopped
    } else {
      task_queue_.push_back(&s);
      wakeDispatcher();
      spin_unlocked(lock, [&] { return s.received.load(std::memory_order_acquire); });
      s.done.wait(lock, [&] { return s.received.load(); });
    }
  }
  if (!s.error) return {};
  trace_.refused(id, error_rule(*s.error));
  return std::unexpected(*s.error);
}

namespace {
// doneChan for SubmitWait.
struct DoneChan {
  std::mutex m;
  std::condition_variable cv;
  bool closed = false;
  void close() {
    std::lock_guard g(m);
    closed = true;
    cv.notify_all();  // under the lock: the waiter cannot return and destroy us before this ends
  }
  void wait() {
    std::unique_lock lock(m);
    cv.wait(lock, [&] { return closed; });
  }
};

// close(doneChan) when the wrapped task is destroyed: right after it ran (the
// worker releases each task at once), or when it never will run.
class CloseOnDestroy {
 public:
  explicit CloseOnDestroy(DoneChan& done) : done_(&done) {}
  CloseOnDestroy(CloseOnDestroy&& other) noexcept : done_(std::exchange(other.done_, nullptr)) {}
  CloseOnDestroy& operator=(CloseOnDestroy&&) = delete;
  ~CloseOnDestroy() {
    if (done_) done_->close();
  }

 private:
  DoneChan* done_;
};
}  // namespace

std::expected<void, Error> WorkerPool::submit_wait(Task task) {
  if (!task) return {};
  DoneChan done;
  auto result = do_([task = std::move(task), close = CloseOnDestroy(done)]() mutable { task(); });
  done.wait();
  return result;
}

void WorkerPool::pause(std::stop_token ctx) {
  std::lock_guard g(stop_lock_);
  if (stopped_) return;
  trace_.state(kPause);
  struct PauseTasks {
    explicit PauseTasks(int n) : ready(n), holding(n) {}
    std::latch ready;
    std::atomic<int> holding;
  };
  auto pause = std::make_shared<PauseTasks>(max_workers_);
  auto returned = [this, pause] {
    if (pause->holding.fetch_sub(1) == 1) trace_.state(kResume);
  };
  // Since v1.2.1 the pause tasks go straight into taskQueue; stopLock keeps
  // the channel open until they are all sent.
  for (int i = 0; i < max_workers_; ++i) {
    auto sent = do_([pause, ctx, returned, this] {
      pause->ready.count_down();
      {
        // select { case <-ctx.Done(): case <-p.stopSignal: }
        std::unique_lock l(stop_signal_m_);
        stop_signal_cv_.wait(l, ctx, [&] { return stop_signal_; });
      }
      returned();
    });
    // Not in Go, where a send on the open taskQueue always succeeds: a pause
    // task refused because the OS would not start its worker never runs, so
    // it counts as paused and returned at once rather than leave the wait
    // below (and stopLock with it) hanging forever.
    if (!sent) {
      pause->ready.count_down();
      returned();
    }
  }
  // Wait for the workers to all be paused.
  pause->ready.wait();
}

void WorkerPool::stop(bool wait) {
  std::call_once(stop_once_, [&] {
    trace_.state(wait ? kStopWait : kStop);
    // Signal that the pool is stopping, to unpause any paused workers.
    {
      std::lock_guard g(stop_signal_m_);
      stop_signal_ = true;
    }
    stop_signal_cv_.notify_all();
    // Take stopLock to wait for a Pause in progress (the stop signal lets it
    // finish). The stopped flag prevents further pauses, so closing taskQueue
    // is safe.
    {
      std::lock_guard g(stop_lock_);
      stopped_ = true;
    }
    // p.wait = wait; close(p.taskQueue). A submitter still blocked on the
    // channel gets ErrStopped (in Go its send panics).
    std::lock_guard g(m_);
    wait_ = wait;
    task_queue_closed_ = true;
    while (!task_queue_.empty()) {
      Sender& s = *task_queue_.pop_front();
      s.error = Error::stopped;
      release(s);
    }
    wakeDispatcher();
  });
  // <-p.stoppedChan
  std::call_once(joined_, [&] { dispatcher_.join(); });
}

bool WorkerPool::stopped() const {
  std::lock_guard g(stop_lock_);
  return stopped_;
}

Counters WorkerPool::counters() const {
  std::lock_guard g(m_);
  auto workers = static_cast<std::uint32_t>(worker_count_);
  auto ready = static_cast<std::uint32_t>(worker_queue_.size());
  return Counters{workers, workers - ready, static_cast<std::uint32_t>(waiting_queue_.size()), 0};
}

}  // namespace poolscope::gammazero
