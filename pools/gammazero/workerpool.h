// gammazero/workerpool (v1.2): one dispatcher thread between the submitters
// and the workers. Submit hands the task to the dispatcher, which gives it to
// a ready worker, or starts a worker if fewer than maxWorkers run, or puts it
// on an unbounded waiting queue. So Submit never waits for a worker: the pool
// limits how many tasks run at once, not how many wait. When no task arrived
// for a whole idle timeout, the dispatcher stops one ready worker per tick.
//
// Three queues, as in workerpool.go (read workerpool.cpp beside its dispatch()):
//   taskQueue     submitters -> dispatcher   unbuffered Go channel: Submit returns once the dispatcher has the task
//   waitingQueue  inside the dispatcher       unbounded FIFO (deque.h), only the dispatcher touches it
//   workerQueue   dispatcher -> workers       unbuffered Go channel: ready workers wait on it, first come first served
//
// A Go channel here is a mutex (one for both channels and the dispatcher's
// state) plus the queue of threads blocked on it: submitters blocked sending
// on taskQueue, workers blocked receiving from workerQueue. Goroutines become
// OS threads (poolscope::Thread); the dispatcher's select on the task hand-off
// and the idle timer is a wait on a CondVar with a deadline on the injected
// clock. Each of the three waits (a submitter on the dispatcher, the
// dispatcher's select, a worker on workerQueue) spins briefly with m_
// released before it parks, as a goroutine's thread does (pools/core/spin.h).
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <expected>
#include <initializer_list>
#include <list>
#include <mutex>
#include <stop_token>
#include <string_view>
#include <vector>

#include "pools/core/pool_trace.h"
#include "pools/core/thread.h"
#include "pools/gammazero/deque.h"
#include "pools/gammazero/options.h"

namespace poolscope::gammazero {

enum class Error {
  stopped,               // ErrStopped: "submitting work to stopped workerpool"
  thread_create_failed,  // the OS refused a worker thread (goroutines cannot fail to start)
};
std::string_view error_text(Error e);
Label error_rule(Error e);  // the rule a refusal for `e` carries in the trace

class WorkerPool {
 public:
  // New(maxWorkers, options...): maxWorkers < 1 becomes 1 ("there must be at
  // least one worker"). Starts the dispatcher; no worker starts before a task.
  explicit WorkerPool(int max_workers, std::initializer_list<Option> options = {}, const TraceTarget& target = {});
  // Go has no destructor: forgetting Stop leaks the dispatcher. A C++ object
  // must join its threads, so this does StopWait if no stop was called.
  ~WorkerPool();
  WorkerPool(const WorkerPool&) = delete;
  WorkerPool& operator=(const WorkerPool&) = delete;

  // Size: maxWorkers.
  int size() const { return max_workers_; }

  // Do: hands `task` to the dispatcher and returns; never waits for a worker.
  // An empty task is a no-op. After Stop, Error::stopped.
  std::expected<void, Error> do_(Task task);  // Go's Do ("do" is a C++ keyword)
  // Submit: in Go it panics with ErrStopped after Stop; here it reports it,
  // exactly like do_.
  std::expected<void, Error> submit(Task task) { return do_(std::move(task)); }
  // SubmitWait: submits `task` and waits until it has run. Go panics after
  // Stop; this returns Error::stopped. It also returns if the task threw, or
  // if Stop abandoned it in the waiting queue (Go would wait forever).
  std::expected<void, Error> submit_wait(Task task);

  // WaitingQueueSize: tasks in the waiting queue (an atomic mirror of its length).
  int waiting_queue_size() const { return waiting_.load(std::memory_order_relaxed); }

  // Pause: sends maxWorkers pause tasks, each of which holds its worker until
  // `ctx` is cancelled (std::stop_token plays Go's context) or the pool
  // stops, and returns once all of them run. Tasks submitted meanwhile wait in
  // the queue. A second Pause waits until the first is cancelled; after stop,
  // Pause returns at once.
  void pause(std::stop_token ctx);

  // Stop: running tasks finish; the waiting queue is abandoned (each task a
  // task_dropped event); returns once every worker has exited.
  void stop() { stop(false); }
  // StopWait: every queued task runs before the workers stop.
  void stop_wait() { stop(true); }
  // Stopped: true as soon as a stop has begun.
  bool stopped() const;

  // Not in Go's API (its dispatcher keeps these in local variables): the
  // state poolscope reports, and the configuration.
  Counters counters() const;
  Nanos idle_timeout() const { return idle_timeout_; }
  PoolTrace& trace() { return trace_; }
  const PoolTrace& trace() const { return trace_; }

 private:
  struct Worker;                                          // one worker thread and its end of workerQueue
  struct Sender;                                          // a submitter blocked in `taskQueue <- task`
  enum class Case { closed, worker_ready, task, timer };  // what the dispatcher's select chose

  void stop(bool wait);
  void dispatch(Time timeout);
  Case select(std::unique_lock<std::mutex>& lock, bool send, Time deadline);
  bool processWaitingQueue(std::unique_lock<std::mutex>& lock);
  void dispatchTask(Sender& sender);
  bool startWorker(Job& task);
  bool killIdleWorker(Time now);
  void runQueuedTasks(std::unique_lock<std::mutex>& lock);
  std::vector<Job> abandonWaitingQueue();
  void pushWaiting(Job task, Label rule);
  void giveHead(Worker& w);
  static void give(Worker& w, Job task, Label stop_rule = kNoLabel);
  static void release(Sender& s);
  Worker& awaitReadyWorker(std::unique_lock<std::mutex>& lock);
  void joinExited();
  void wakeDispatcher();
  void worker(Worker& self, Job task);
  Job receive(Worker& self);

  PoolTrace trace_;
  const int max_workers_;
  const Nanos idle_timeout_;  // <= 0: no idle timer

  // Guards both channels and everything the dispatcher owns below (Go's
  // dispatcher keeps those in local variables; state() reads them here).
  mutable std::mutex m_;
  Deque<Sender*> task_queue_;  // taskQueue's blocked senders, in arrival order
  bool task_queue_closed_ = false;
  Deque<Worker*> worker_queue_;  // workerQueue's blocked receivers: the ready workers, in arrival order
  CondVar dispatcher_wake_;      // the dispatcher's select: a sender, a ready worker, close, the timer
  // Notifications of dispatcher_wake_ so far, for the spinning dispatcher.
  std::atomic<std::uint64_t> dispatcher_wakes_{0};
  bool dispatcher_sending_ = false;  // the dispatcher is blocked sending on workerQueue
  Deque<Job> waiting_queue_;
  std::atomic<int> waiting_{0};                      // waitingQueue.Len(), readable without the lock
  int worker_count_ = 0;                             // workerCount
  bool wait_ = false;                                // p.wait: StopWait rather than Stop
  std::list<Worker> workers_;                        // started and not yet joined (Go's WaitGroup)
  std::vector<std::list<Worker>::iterator> exited_;  // whose thread has ended, to join

  std::once_flag stop_once_;
  // stopSignal: closed by stop to release paused workers.
  std::mutex stop_signal_m_;
  std::condition_variable_any stop_signal_cv_;
  bool stop_signal_ = false;
  // stopLock: a Pause holds it until its pause tasks run; stop takes it to set stopped.
  mutable std::mutex stop_lock_;
  bool stopped_ = false;
  std::once_flag joined_;  // <-stoppedChan: the first caller joins the dispatcher, the others wait for it
  Thread dispatcher_;
};

}  // namespace poolscope::gammazero
