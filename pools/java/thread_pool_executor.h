// java.util.concurrent.ThreadPoolExecutor (JDK 17), in C++. Read it beside
// ThreadPoolExecutor.java: execute, addWorker, runWorker, getTask,
// processWorkerExit and tryTerminate keep their names and their order of
// decisions; ctl.h packs the run state and worker count; worker.h is the
// Worker; the work queues and rejection policies have files of their own.
//
// Public methods follow C++ naming (shutdownNow -> shutdown_now,
// getPoolSize -> get_pool_size); private steps keep Java's names.
//
// Where C++ forces a difference:
//  - Threads are joined, not garbage-collected: close() (and the destructor)
//    waits for termination and joins every thread the pool started.
//  - Interrupts wake idle workers only (interrupt.h); a running C++ task is
//    never interrupted, so the tasks running at shutdown_now() run to their end.
//  - execute() returns what became of the task (Java's returns void), so
//    the Pool adapter can report its fate; AbortPolicy still throws.
//  - Tasks carry a trace id and a priority (Runnable, blocking_queue.h).
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_set>
#include <vector>

#include "pools/core/pool.h"
#include "pools/java/blocking_queue.h"
#include "pools/java/ctl.h"
#include "pools/java/rejected_execution_handler.h"
#include "pools/java/thread_factory.h"

namespace poolscope::java {

class ThreadPoolExecutor {
 public:
  // Throws IllegalArgumentException if corePoolSize < 0, maximumPoolSize <= 0,
  // maximumPoolSize < corePoolSize or keepAliveTime < 0, and
  // NullPointerException if workQueue, threadFactory or handler is null.
  // Starts no thread.
  ThreadPoolExecutor(int corePoolSize, int maximumPoolSize, Nanos keepAliveTime,
                     std::unique_ptr<BlockingQueue> workQueue,
                     std::shared_ptr<ThreadFactory> threadFactory = std::make_shared<DefaultThreadFactory>(),
                     std::shared_ptr<RejectedExecutionHandler> handler = std::make_shared<AbortPolicy>(),
                     const TraceTarget& target = {});
  // C++: close(). A subclass that overrides the hooks must call close() in
  // its own destructor, before its overrides are gone.
  virtual ~ThreadPoolExecutor();
  ThreadPoolExecutor(const ThreadPoolExecutor&) = delete;
  ThreadPoolExecutor& operator=(const ThreadPoolExecutor&) = delete;

  // Runs `command` some time in the future, on a new or a pooled thread, or
  // hands it to the rejection handler. `priority` orders a
  // PriorityBlockingQueue. Throws NullPointerException for an empty task and
  // whatever the handler throws (AbortPolicy: RejectedExecutionException).
  SubmitResult execute(Task command, int priority = 0);
  // The same for a task the trace already numbered (DiscardOldest's retry).
  SubmitResult execute(Runnable command);

  // Orderly shutdown: queued tasks still run, new ones are rejected.
  void shutdown();
  // Stops: the queued tasks are removed (each traced as dropped) and
  // returned; running ones finish (C++ cannot interrupt them).
  std::vector<Runnable> shutdown_now();
  bool is_shutdown() const;
  bool is_terminating() const;
  bool is_terminated() const;
  // Waits on the pool's clock, at most `timeout`, for TERMINATED.
  bool await_termination(Nanos timeout);
  // C++: waits for TERMINATED without a time limit (and without the clock).
  void await_termination();
  // shutdown(), await_termination(), then join every thread (JDK 19's close(), plus the joins).
  void close();

  // Removes a queued task (traced as dropped); false if it is not queued.
  bool remove(TaskId task);

  // Settings. The setters throw IllegalArgumentException as Java's do.
  void set_core_pool_size(int corePoolSize);
  int get_core_pool_size() const { return corePoolSize_.load(); }
  bool prestart_core_thread();
  int prestart_all_core_threads();
  bool allows_core_thread_time_out() const { return allowCoreThreadTimeOut_.load(); }
  void allow_core_thread_time_out(bool value);
  void set_maximum_pool_size(int maximumPoolSize);
  int get_maximum_pool_size() const { return maximumPoolSize_.load(); }
  void set_keep_alive_time(Nanos time);
  Nanos get_keep_alive_time() const { return Nanos(keepAliveTime_.load()); }
  void set_thread_factory(std::shared_ptr<ThreadFactory> threadFactory);
  std::shared_ptr<ThreadFactory> get_thread_factory() const { return threadFactory_.load(); }
  void set_rejected_execution_handler(std::shared_ptr<RejectedExecutionHandler> handler);
  std::shared_ptr<RejectedExecutionHandler> get_rejected_execution_handler() const { return handler_.load(); }
  BlockingQueue& get_queue() { return *workQueue_; }
  const BlockingQueue& get_queue() const { return *workQueue_; }

  // Statistics.
  int get_pool_size() const;
  int get_active_count() const;
  int get_largest_pool_size() const;
  std::int64_t get_task_count() const;
  std::int64_t get_completed_task_count() const;
  std::string to_string()
      const;  // "[Running, pool size = 2, active threads = 1, queued tasks = 0, completed tasks = 5]"

  PoolTrace& trace() { return trace_; }
  const PoolTrace& trace() const { return trace_; }

 protected:
  // Extension hooks, no-ops here. before_execute runs on the worker before
  // each task (if it throws, the task does not run and the worker dies);
  // after_execute after it, with what the task threw (or null); terminated
  // once, on entering TIDYING.
  virtual void before_execute(WorkerId w, const Runnable& r);
  virtual void after_execute(const Runnable& r, std::exception_ptr t);
  virtual void terminated();

 private:
  class Worker;         // worker.h
  class WorkerThreads;  // worker.h

  // ctl's atomic steps
  bool compareAndIncrementWorkerCount(int expect) { return ctl_.compare_exchange_strong(expect, expect + 1); }
  bool compareAndDecrementWorkerCount(int expect) { return ctl_.compare_exchange_strong(expect, expect - 1); }
  void decrementWorkerCount() { ctl_.fetch_sub(1); }

  void advanceRunState(int targetState);
  void tryTerminate();
  void interruptWorkers();
  void interruptIdleWorkers(bool onlyOne = false);
  SubmitResult reject(Runnable& command);
  std::vector<Runnable> drainQueue();
  bool remove(Runnable& command);  // execute's recheck: takes the task back out of the queue

  // `why` (C++): the rule the trace names for the new worker.
  bool addWorker(Runnable* firstTask, bool core, Label why);
  void addWorkerFailed(Worker* w);
  void processWorkerExit(Worker& w, bool completedAbruptly);
  Runnable getTask(Worker& w);
  void runWorker(Worker& w);

  PoolTrace trace_;
  std::atomic<int> ctl_{ctlOf(RUNNING, 0)};
  const std::unique_ptr<BlockingQueue> workQueue_;
  // Java's ReentrantLock: shutdown() holds it while interruptIdleWorkers()
  // takes it again.
  mutable std::recursive_mutex mainLock_;
  std::unordered_set<Worker*> workers_;  // guarded by mainLock_
  CondVar termination_;                  // on mainLock_
  int largestPoolSize_ = 0;              // guarded by mainLock_
  std::int64_t completedTaskCount_ = 0;  // guarded by mainLock_

  // Java's volatile settings.
  std::atomic<std::shared_ptr<ThreadFactory>> threadFactory_;
  std::atomic<std::shared_ptr<RejectedExecutionHandler>> handler_;
  std::atomic<std::int64_t> keepAliveTime_;  // ns
  std::atomic<bool> allowCoreThreadTimeOut_{false};
  std::atomic<int> corePoolSize_;
  std::atomic<int> maximumPoolSize_;

  const std::unique_ptr<WorkerThreads> threads_;
};

}  // namespace poolscope::java
